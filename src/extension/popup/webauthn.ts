/**
 * WebAuthn in the popup (toolchain.md §5: rp.id omitted, so the RP is the extension's own
 * `chrome-extension://<id>`). Only the passkey ceremonies run here; every key stays in the
 * background. Encodings follow wire-formats B1.2 (base64url without padding).
 */
import { base64urlnopad } from '@scure/base'
import type { Attestation } from '../../api/common'
import type { WebauthnStamp } from '../../crypto/verifyStamp'

/** A new passkey's registration, as relay `/v1/signup` and recover_user take it. */
export type Registration = { challenge: string; attestation: Attestation }

/** The ceremonies, injectable so component tests can fake them. */
export type Webauthn = {
  register(user: { name: string; displayName: string }): Promise<Registration>
  /** Sign `challenge`; `allowCredentials` (base64url ids) limits the passkeys offered, empty means any. */
  assert(challenge: string, allowCredentials?: readonly string[]): Promise<WebauthnStamp>
}

const b64 = (b: ArrayBuffer | Uint8Array) => base64urlnopad.encode(b instanceof Uint8Array ? b : new Uint8Array(b))

const TRANSPORTS: Record<string, Attestation['transports'][number]> = {
  internal: 'AUTHENTICATOR_TRANSPORT_INTERNAL',
  usb: 'AUTHENTICATOR_TRANSPORT_USB',
  nfc: 'AUTHENTICATOR_TRANSPORT_NFC',
  ble: 'AUTHENTICATOR_TRANSPORT_BLE',
  hybrid: 'AUTHENTICATOR_TRANSPORT_HYBRID',
}

function bytes(n: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(n))
}

/** The browser's WebAuthn, with B1.2's options (ES256/RS256, resident key, UV preferred). */
export const browserWebauthn: Webauthn = {
  async register(user) {
    const challenge = bytes(32)
    const cred = (await navigator.credentials.create({
      publicKey: {
        rp: { name: 'Sigil' },
        user: { id: bytes(16), name: user.name, displayName: user.displayName },
        challenge,
        pubKeyCredParams: [
          { type: 'public-key', alg: -7 },
          { type: 'public-key', alg: -257 },
        ],
        authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
        timeout: 300_000,
        attestation: 'none',
      },
    })) as PublicKeyCredential | null
    if (!cred) throw new Error('No passkey was created')
    const response = cred.response as AuthenticatorAttestationResponse
    const transports = (response.getTransports?.() ?? []).flatMap((t) => (TRANSPORTS[t] ? [TRANSPORTS[t]] : []))
    return {
      challenge: b64(challenge),
      attestation: {
        credentialId: b64(cred.rawId),
        clientDataJson: b64(response.clientDataJSON),
        attestationObject: b64(response.attestationObject),
        transports: transports.length > 0 ? transports : ['AUTHENTICATOR_TRANSPORT_INTERNAL'],
      },
    }
  },
  async assert(challenge, allowCredentials = []) {
    const cred = (await navigator.credentials.get({
      publicKey: {
        challenge: base64urlnopad.decode(challenge) as Uint8Array<ArrayBuffer>,
        userVerification: 'preferred',
        timeout: 300_000,
        allowCredentials: allowCredentials.map((id) => ({
          type: 'public-key' as const,
          id: base64urlnopad.decode(id) as Uint8Array<ArrayBuffer>,
        })),
      },
    })) as PublicKeyCredential | null
    if (!cred) throw new Error('No passkey was used')
    const response = cred.response as AuthenticatorAssertionResponse
    return {
      authenticatorData: b64(response.authenticatorData),
      clientDataJson: b64(response.clientDataJSON),
      credentialId: b64(cred.rawId),
      signature: b64(response.signature),
    }
  },
}
