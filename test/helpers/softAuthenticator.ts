/**
 * A real software WebAuthn authenticator for tests (P-256 / ES256, attestation "none"):
 * registration attestations and `X-Stamp-Webauthn` stamps (wire-formats B1.2).
 * The RP ID is hashed as given: Chromium hashes `chrome-extension://<id>` (toolchain.md §5).
 */
import { encodeCBOR, type CBORType } from '@levischuck/tiny-cbor'
import { p256 } from '@noble/curves/nist.js'
import { sha256 } from '@noble/hashes/sha2.js'
import type { Attestation, AuthenticatorParams } from '../../src/api/common.js'
import type { Stamp, Stamper } from '../../src/api/stamper.js'
import { base64UrlEncode, concatBytes, utf8Encode } from '../../src/crypto/encoding.js'
import { webauthnChallengeForBody } from '../../src/crypto/verifyStamp.js'

const FLAG_UP = 0x01
const FLAG_UV = 0x04
const FLAG_AT = 0x40

export type SoftAuthenticatorOptions = {
  /** The exact string hashed into rpIdHash, e.g. `chrome-extension://<id>` or `localhost`. */
  rpId: string
  /** `clientDataJSON.origin`. */
  origin: string
}

/** authenticatorData flag bits (WebAuthn §6.1). */
export const AUTH_DATA_FLAGS = { UP: FLAG_UP, UV: FLAG_UV, AT: FLAG_AT } as const

/** Which S half the stamp signatures use: `any` is what the signer produced (random). */
export type SignatureS = 'any' | 'low' | 'high'

export type SoftAuthenticator = {
  /** base64url of the raw credential id. */
  readonly credentialId: string
  /** Uncompressed (65-byte) P-256 public key. */
  readonly publicKey: Uint8Array
  /** Current signature counter (incremented before each assertion). */
  readonly signCount: number
  /** A registration for the given challenge (base64url), in the service's Attestation shape (B1.2). */
  register(challengeB64url: string): { credentialId: string; attestation: Attestation }
  /** A Stamper emitting `X-Stamp-Webauthn` over the exact body string (B1.2). */
  stamper(options?: { signatureS?: SignatureS; flags?: number }): Stamper
  /** The same credential (key, id, shared counter) presented for another RP ID or origin. */
  withOptions(options: Partial<SoftAuthenticatorOptions>): SoftAuthenticator
}

type CredentialState = { privateKey: Uint8Array; rawId: Uint8Array; counter: number }

function u32be(n: number): Uint8Array {
  const out = new Uint8Array(4)
  new DataView(out.buffer).setUint32(0, n >>> 0, false)
  return out
}

function u16be(n: number): Uint8Array {
  const out = new Uint8Array(2)
  new DataView(out.buffer).setUint16(0, n, false)
  return out
}

/** Creates a fresh authenticator holding one new P-256 credential. */
export function createSoftAuthenticator(options: SoftAuthenticatorOptions): SoftAuthenticator {
  return build(options, {
    privateKey: p256.utils.randomSecretKey(),
    rawId: crypto.getRandomValues(new Uint8Array(32)),
    counter: 0,
  })
}

function build(options: SoftAuthenticatorOptions, state: CredentialState): SoftAuthenticator {
  const { privateKey, rawId } = state
  const publicKey = p256.getPublicKey(privateKey, false)
  const credentialId = base64UrlEncode(rawId)
  const rpIdHash = sha256(utf8Encode(options.rpId))

  const coseKey = encodeCBOR(
    new Map<string | number, CBORType>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, publicKey.slice(1, 33)], // x
      [-3, publicKey.slice(33, 65)], // y
    ]),
  )

  function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): Uint8Array {
    return utf8Encode(JSON.stringify({ type, challenge, origin: options.origin, crossOrigin: false }))
  }

  return {
    credentialId,
    publicKey,
    get signCount() {
      return state.counter
    },
    withOptions(changes) {
      return build({ ...options, ...changes }, state)
    },
    register(challengeB64url) {
      const authData = concatBytes(
        rpIdHash,
        Uint8Array.of(FLAG_UP | FLAG_UV | FLAG_AT),
        u32be(state.counter),
        new Uint8Array(16), // aaguid
        u16be(rawId.length),
        rawId,
        coseKey,
      )
      const attestationObject = encodeCBOR(
        new Map<string | number, CBORType>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]),
      )
      return {
        credentialId,
        attestation: {
          credentialId,
          clientDataJson: base64UrlEncode(clientData('webauthn.create', challengeB64url)),
          attestationObject: base64UrlEncode(attestationObject),
          transports: ['AUTHENTICATOR_TRANSPORT_INTERNAL'],
        },
      }
    },
    stamper({ signatureS = 'any', flags = FLAG_UP | FLAG_UV } = {}) {
      return {
        async stamp(body: string): Promise<Stamp> {
          state.counter += 1
          const authenticatorData = concatBytes(rpIdHash, Uint8Array.of(flags), u32be(state.counter))
          const clientDataJson = clientData('webauthn.get', webauthnChallengeForBody(utf8Encode(body)))
          const message = concatBytes(authenticatorData, sha256(clientDataJson))
          let sig = p256.Signature.fromBytes(p256.sign(message, privateKey, { prehash: true, lowS: false }), 'compact')
          const high = sig.hasHighS()
          if ((signatureS === 'low' && high) || (signatureS === 'high' && !high)) {
            sig = new p256.Signature(sig.r, p256.Point.Fn.ORDER - sig.s)
          }
          return {
            stampHeaderName: 'X-Stamp-Webauthn',
            stampHeaderValue: JSON.stringify({
              authenticatorData: base64UrlEncode(authenticatorData),
              clientDataJson: base64UrlEncode(clientDataJson),
              credentialId,
              signature: base64UrlEncode(sig.toBytes('der')),
            }),
          }
        },
      }
    },
  }
}

/** The service's Authenticator parameter (service-interface.md "Authenticator parameter") for a new registration. */
export function authenticatorParam(soft: SoftAuthenticator, challenge: string, name: string): AuthenticatorParams {
  return { authenticatorName: name, challenge, attestation: soft.register(challenge).attestation }
}

/** A random registration challenge: base64url of 32 bytes (B1.2). */
export function randomChallenge(): string {
  return base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)))
}
