/**
 * Chains micro-benchmarks: accounts derived per second per curve (from a fixed seed, walking the
 * account index) and sign_raw_payload per curve. Run directly: `npx tsx bench/chains.ts`.
 */
import { deriveAccount, deriveKey } from '../src/chains/derive.js'
import { mnemonicToSeed } from '../src/chains/mnemonic.js'
import { signRawPayload } from '../src/chains/sign/raw.js'
import { bytesToHex } from '../src/crypto/encoding.js'
import { type BenchResult, formatTable, measure } from './timing.js'

const SEED = mnemonicToSeed('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about')
const DIGEST = bytesToHex(new Uint8Array(32).fill(0xab))

/** Measure derivation and raw signing per curve; `minMs` per case (default 300 ms). */
export async function benchChains(opts: { minMs?: number } = {}): Promise<BenchResult[]> {
  const minMs = opts.minMs ?? 300
  const results: BenchResult[] = []
  let i = 0
  results.push(
    await measure(
      'derive secp256k1 ETHEREUM m/44h/60h/0h/0/i',
      () =>
        deriveAccount({
          seed: SEED,
          curve: 'CURVE_SECP256K1',
          path: `m/44'/60'/0'/0/${i++ % 1000}`,
          addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
        }),
      { minMs },
    ),
  )
  i = 0
  results.push(
    await measure(
      'derive ed25519 SOLANA m/44h/501h/ih/0h',
      () =>
        deriveAccount({ seed: SEED, curve: 'CURVE_ED25519', path: `m/44'/501'/${i++ % 1000}'/0'`, addressFormat: 'ADDRESS_FORMAT_SOLANA' }),
      { minMs },
    ),
  )
  i = 0
  results.push(
    await measure(
      'derive p256 COMPRESSED m/44h/0h/0h/0/i',
      () =>
        deriveAccount({ seed: SEED, curve: 'CURVE_P256', path: `m/44'/0'/0'/0/${i++ % 1000}`, addressFormat: 'ADDRESS_FORMAT_COMPRESSED' }),
      { minMs },
    ),
  )

  const secp = deriveKey({ seed: SEED, curve: 'CURVE_SECP256K1', path: "m/44'/60'/0'/0/0" })
  const ed = deriveKey({ seed: SEED, curve: 'CURVE_ED25519', path: "m/44'/501'/0'/0'" })
  const p = deriveKey({ seed: SEED, curve: 'CURVE_P256', path: "m/44'/0'/0'/0/0" })
  results.push(
    await measure(
      'signRawPayload secp256k1 (NO_OP digest)',
      () =>
        signRawPayload({
          privateKey: secp.privateKey,
          curve: 'CURVE_SECP256K1',
          payload: DIGEST,
          encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
          hashFunction: 'HASH_FUNCTION_NO_OP',
        }),
      { minMs },
    ),
  )
  results.push(
    await measure(
      'signRawPayload ed25519 (32-byte message)',
      () =>
        signRawPayload({
          privateKey: ed.privateKey,
          curve: 'CURVE_ED25519',
          payload: DIGEST,
          encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
          hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE',
        }),
      { minMs },
    ),
  )
  results.push(
    await measure(
      'signRawPayload p256 (NO_OP digest)',
      () =>
        signRawPayload({
          privateKey: p.privateKey,
          curve: 'CURVE_P256',
          payload: DIGEST,
          encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
          hashFunction: 'HASH_FUNCTION_NO_OP',
        }),
      { minMs },
    ),
  )
  return results
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await benchChains()
  console.log(formatTable(results))
}
