/**
 * Crypto micro-benchmarks: stamp sign (raw key / WebCrypto), stamp verify, credential bundle
 * encrypt / decrypt. Run directly: `npx tsx bench/crypto.ts`.
 */
import { decryptCredentialBundle, encryptCredentialBundle } from '../src/crypto/credentialBundle.js'
import { bytesToHex, utf8Encode } from '../src/crypto/encoding.js'
import { generateP256KeyPair } from '../src/crypto/p256.js'
import { createApiKeyStamper, createP256WebCryptoKeyPair, createWebCryptoStamper } from '../src/crypto/stamp.js'
import { verifyApiKeyStamp } from '../src/crypto/verifyStamp.js'
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
  return results
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await benchCrypto()
  console.log(formatTable(results))
}
