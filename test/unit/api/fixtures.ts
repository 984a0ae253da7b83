/** Realistic request bodies for the api tests (shapes from wire-formats B4, B6). */
import { expect } from 'vitest'
import type { z } from 'zod'
import { SigilError } from '../../../src/api/errors.js'
import { parseOrThrow } from '../../../src/api/validation.js'

/** The error `parseOrThrow` throws for `value` (fails the test when it does not throw). */
export function failure(schema: z.ZodType, value: unknown, prefix = 'parameters'): SigilError {
  try {
    parseOrThrow(schema, value, prefix)
  } catch (e) {
    expect(e).toBeInstanceOf(SigilError)
    return e as SigilError
  }
  throw new Error('expected parseOrThrow to throw')
}

export const ORG = 'f7d1b6a2-1c1e-4a43-9f0e-5d0f3a1c2b11'

export const attestation = {
  credentialId: 'q2Zx3PdbVQq0a1c9',
  clientDataJson: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0',
  attestationObject: 'o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVi',
  transports: ['AUTHENTICATOR_TRANSPORT_INTERNAL', 'AUTHENTICATOR_TRANSPORT_HYBRID'],
}

export function subOrgParams(): Record<string, unknown> {
  return {
    subOrganizationName: 'sub-org-1767225600000',
    rootUsers: [
      {
        userName: 'alice@example.com',
        userEmail: 'alice@example.com',
        apiKeys: [
          {
            apiKeyName: 'passkey-auth-02aa',
            publicKey: '02aa8c1e2f0b5d1e4f6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b',
            curveType: 'API_KEY_CURVE_P256',
            expirationSeconds: '60',
          },
        ],
        authenticators: [{ authenticatorName: 'Passkey', challenge: 'c2lnaWwtY2hhbGxlbmdl', attestation }],
        oauthProviders: [],
      },
    ],
    rootQuorumThreshold: 1,
    wallet: {
      walletName: 'Default Wallet',
      accounts: [
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
      ],
      mnemonicLength: 12,
    },
  }
}

export function onRampParams(): Record<string, unknown> {
  return {
    onrampProvider: 'FIAT_ON_RAMP_PROVIDER_ALPHA',
    walletAddress: '0x7aAE6F67798D1Ea0b8bFB5b64231B2f12049DB5e',
    network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM',
    cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH',
    fiatCurrencyCode: 'FIAT_ON_RAMP_CURRENCY_USD',
    fiatCurrencyAmount: '100',
    paymentMethod: 'FIAT_ON_RAMP_PAYMENT_METHOD_CREDIT_DEBIT_CARD',
    countryCode: 'US',
    countrySubdivisionCode: 'US-NY',
    sandboxMode: true,
  }
}

export function initOtpAuthParams(): Record<string, unknown> {
  return {
    otpType: 'OTP_TYPE_EMAIL',
    contact: 'alice@example.com',
    otpLength: 6,
    appName: 'Sigil',
    emailCustomization: { logoUrl: 'https://example.com/logo.png' },
    alphanumeric: true,
    expirationSeconds: '300',
  }
}

export function ts(ms: number): { seconds: string; nanos: string } {
  return { seconds: String(Math.floor(ms / 1000)), nanos: String((ms % 1000) * 1e6) }
}

/** A completed submit response in the A1 shape. */
export function completedActivity(type: string, intent: Record<string, unknown>, result: Record<string, unknown>) {
  const nested = {
    id: 'act-1',
    organizationId: ORG,
    status: 'ACTIVITY_STATUS_COMPLETED',
    type,
    intent,
    result,
    votes: [],
    fingerprint: 'sha256:' + '0'.repeat(64),
    canApprove: false,
    canReject: false,
    createdAt: '1767225600000',
    updatedAt: '1767225600000',
  }
  return { activity: { ...nested, timestampMs: '1767225600000', result: { ...result, activity: nested } } }
}
