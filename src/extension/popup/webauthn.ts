/**
 * WebAuthn in the popup (toolchain.md §5: rp.id omitted, so the RP is the extension's own
 * `chrome-extension://<id>`). Only the passkey ceremonies run here; every key stays in the
 * background. The ceremonies go through @simplewebauthn/browser (`startRegistration`,
 * `startAuthentication`), whose JSON is base64url without padding, as wire-formats B1.2 wants.
 * Its errors keep the browser's name (NotAllowedError, SecurityError), which useAction.ts shows.
 * The Firefox build has no ceremonies at all (`unavailable`): Firefox refuses WebAuthn on its
 * add-on pages, so the popup says so before anyone clicks.
 */
import { base64urlnopad } from '@scure/base'
import { startAuthentication, startRegistration } from '@simplewebauthn/browser'
import type { Attestation } from '../../api/common'
import type { WebauthnStamp } from '../../crypto/verifyStamp'
import { PASSKEYS_UNAVAILABLE } from './useAction'

/** A new passkey's registration, as relay `/v1/signup` and recover_user take it. */
export type Registration = { challenge: string; attestation: Attestation }

/** The ceremonies, injectable so component tests can fake them. */
export type Webauthn = {
  /** Set when this browser cannot run passkey ceremonies at all: why, for the user; passkey buttons are shown disabled with it. */
  unavailable?: string
  register(user: { name: string; displayName: string }): Promise<Registration>
  /** Sign `challenge`; `allowCredentials` (base64url ids) limits the passkeys offered, empty means any. */
  assert(challenge: string, allowCredentials?: readonly string[]): Promise<WebauthnStamp>
}

const TRANSPORTS: Record<string, Attestation['transports'][number] | undefined> = {
  internal: 'AUTHENTICATOR_TRANSPORT_INTERNAL',
  usb: 'AUTHENTICATOR_TRANSPORT_USB',
  nfc: 'AUTHENTICATOR_TRANSPORT_NFC',
  ble: 'AUTHENTICATOR_TRANSPORT_BLE',
  hybrid: 'AUTHENTICATOR_TRANSPORT_HYBRID',
}

/** `n` random bytes as base64url without padding. */
function randomB64url(n: number): string {
  return base64urlnopad.encode(crypto.getRandomValues(new Uint8Array(n)))
}

/** The browser's WebAuthn, with B1.2's options (ES256/RS256, resident key, UV preferred); none in the Firefox build (its browser flag, not the user agent). */
export const browserWebauthn: Webauthn = {
  ...(import.meta.env.FIREFOX ? { unavailable: PASSKEYS_UNAVAILABLE } : {}),
  async register(user) {
    const challenge = randomB64url(32)
    const { rawId, response } = await startRegistration({
      optionsJSON: {
        rp: { name: 'Sigil' },
        user: { id: randomB64url(16), name: user.name, displayName: user.displayName },
        challenge,
        pubKeyCredParams: [
          { type: 'public-key', alg: -7 },
          { type: 'public-key', alg: -257 },
        ],
        authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
        timeout: 300_000,
        attestation: 'none',
      },
    })
    const transports = (response.transports ?? []).flatMap((t) => {
      const known = TRANSPORTS[t]
      return known ? [known] : []
    })
    return {
      challenge,
      attestation: {
        credentialId: rawId,
        clientDataJson: response.clientDataJSON,
        attestationObject: response.attestationObject,
        transports: transports.length > 0 ? transports : ['AUTHENTICATOR_TRANSPORT_INTERNAL'],
      },
    }
  },
  async assert(challenge, allowCredentials = []) {
    const { rawId, response } = await startAuthentication({
      optionsJSON: {
        challenge,
        userVerification: 'preferred',
        timeout: 300_000,
        allowCredentials: allowCredentials.map((id) => ({ type: 'public-key' as const, id })),
      },
    })
    return {
      authenticatorData: response.authenticatorData,
      clientDataJson: response.clientDataJSON,
      credentialId: rawId,
      signature: response.signature,
    }
  },
}
