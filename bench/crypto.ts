/**
 * Crypto micro-benchmarks: stamp sign (raw key / WebCrypto), stamp verify, credential bundle
 * encrypt / decrypt. Run directly: `npx tsx bench/crypto.ts`.
 */
import { decryptCredentialBundle, encryptCredentialBundle } from '../src/crypto/credentialBundle.js'
import { bytesToHex, utf8Encode } from '../src/crypto/encoding.js'
import { generateP256KeyPair } from '../src/crypto/p256.js'
import { createApiKeyStamper, createP256WebCryptoKeyPair, createWebCryptoStamper } from '../src/crypto/stamp.js'
import { verifyApiKeyStamp } from '../src/crypto/verifyStamp.js'
import { signVerificationToken, verifyVerificationToken } from '../src/crypto/jwt.js'
import { signServiceIdentity, verifyServiceIdentity } from '../src/crypto/serviceIdentity.js'
import { createTargetBundle, encryptToTargetBundle } from '../src/crypto/signedBundle.js'
import { type BenchResult, formatTable, measure } from './timing.js'

const BODY = JSON.stringify({
  type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
  timestampMs: '1700000000000',
  organizationId: 'c0ffee00-0000-4000-8000-000000000001',
  parameters: {
    signWith: '0x000000000000000000000000000000000000dEaD',
    payload: '0x68656c6c6f',
    encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
    hashFunction: 'HASH_FUNCTION_KECCAK256',
  },
})

/** Measure the hot crypto paths; `minMs` per case (default 300 ms). */
export async function benchCrypto(opts: { minMs?: number } = {}): Promise<BenchResult[]> {
  const minMs = opts.minMs ?? 300
  const key = generateP256KeyPair()
  const rawStamper = createApiKeyStamper({ privateKeyHex: bytesToHex(key.privateKey) })
  const wc = await createP256WebCryptoKeyPair()
  const wcStamper = createWebCryptoStamper({ privateKey: wc.keyPair.privateKey, publicKeyHex: wc.publicKeyHex })
  const stamp = await rawStamper.stamp(BODY)
  const body = utf8Encode(BODY)
  const target = generateP256KeyPair()
  const targetHex = bytesToHex(target.publicKeyUncompressed)
  const plaintext = generateP256KeyPair().privateKey
  const bundle = await encryptCredentialBundle({ plaintext, targetPublicKeyHex: targetHex })

  const results: BenchResult[] = []
  results.push(await measure('stamp sign (raw key, noble)', () => rawStamper.stamp(BODY), { minMs }))
  results.push(await measure('stamp sign (WebCrypto)', () => wcStamper.stamp(BODY), { minMs }))
  results.push(
    await measure(
      'stamp verify (P-256)',
      () => {
        if (!verifyApiKeyStamp(stamp.stampHeaderValue, body).ok) throw new Error('verify failed')
      },
      { minMs },
    ),
  )
  results.push(
    await measure('credential bundle encrypt', () => encryptCredentialBundle({ plaintext, targetPublicKeyHex: targetHex }), { minMs }),
  )
  results.push(
    await measure(
      'credential bundle decrypt',
      async () => {
        const r = await decryptCredentialBundle({ bundle, privateKey: target.privateKey })
        if (!r.ok) throw new Error('decrypt failed')
      },
      { minMs },
    ),
  )
  // What the extension checks on every login against the pinned service.
  const identityKey = generateP256KeyPair()
  const identityHex = bytesToHex(identityKey.publicKeyUncompressed)
  const doc = signServiceIdentity(
    {
      v: 1,
      kind: 'sigil-service-identity',
      origins: ['http://127.0.0.1:8787'],
      keys: { identity: identityHex, signer: identityHex, notarizer: identityHex },
      issuedAt: 1,
    },
    identityKey.privateKey,
  )
  results.push(
    await measure(
      'service identity verify',
      () => {
        if (!verifyServiceIdentity(doc, { url: 'http://127.0.0.1:8787', pinnedKey: identityHex }).ok) throw new Error('identity')
      },
      { minMs },
    ),
  )
  const targetBundle = createTargetBundle({ targetPublicKey: target.publicKeyUncompressed, signerPrivateKey: identityKey.privateKey })
  results.push(
    await measure(
      'OTP code → signed target bundle (verify + HPKE)',
      async () => {
        const r = await encryptToTargetBundle({
          targetBundle,
          plaintext: utf8Encode('{"otp_code":"ABC123"}'),
          signerPublicKeyHex: identityHex,
        })
        if (!r.ok) throw new Error('target bundle')
      },
      { minMs },
    ),
  )
  const token = signVerificationToken({
    claims: { exp: String(Date.now() + 3_600_000), id: 't', organization_id: 'o', verification_type: 'OTP_TYPE_EMAIL', contact: 'a@b.c' },
    signerPrivateKey: identityKey.privateKey,
  })
  results.push(
    await measure(
      'verification token verify',
      () => {
        if (!verifyVerificationToken(token, identityHex).ok) throw new Error('token')
      },
      { minMs },
    ),
  )
  return results
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await benchCrypto()
  console.log(formatTable(results))
}
