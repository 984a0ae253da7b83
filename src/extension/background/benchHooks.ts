/**
 * Bench-build-only hooks (performance): `globalThis.__sigilBench` runs our stamper and
 * bundle decryption inside the service worker with throwaway keys and returns per-operation
 * timings. Installed by entrypoints/background.ts only when built with `wxt build --mode bench`;
 * the production build tree-shakes this file away (bench/extension.ts checks that).
 */
import { decryptCredentialBundle, encryptCredentialBundle } from '../../crypto/credentialBundle'
import { createHpkeRecipientKeyPair } from '../../crypto/hpke'
import { generateP256KeyPair } from '../../crypto/p256'
import { createP256WebCryptoKeyPair, createWebCryptoStamper } from '../../crypto/stamp'
import { importBundleKey } from './login/credentialBundle'

/** A representative request body (sign_raw_payload), like bench/crypto.ts. */
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

/**
 * Timings in ms per operation (`performance.now()` inside the worker, ~0.1 ms resolution):
 * one sample per batch of `batch` consecutive operations, divided by `batch`.
 */
export type BenchTimings = { ms: number[]; batch: number }

/** What the hooks expose on `globalThis.__sigilBench`; each runs `samples × batch` operations. */
export type SigilBenchHooks = {
  /** Stamps with a fresh non-extractable WebCrypto P-256 key. */
  stamp(samples: number, batch?: number): Promise<BenchTimings>
  /** Credential-bundle decryptions with a fresh non-extractable ECDH key pair. */
  decrypt(samples: number, batch?: number): Promise<BenchTimings>
  /** Decrypt + import as a non-extractable signing key (the login path, login/credentialBundle.ts). */
  decryptImport(samples: number, batch?: number): Promise<BenchTimings>
}

async function timeBatches(samples: number, batch: number, op: (i: number) => Promise<unknown>): Promise<BenchTimings> {
  const ms: number[] = []
  for (let s = 0; s < samples; s++) {
    const t = performance.now()
    for (let b = 0; b < batch; b++) await op(s * batch + b)
    ms.push((performance.now() - t) / batch)
  }
  return { ms, batch }
}

async function throwawayBundles(n: number): Promise<{ target: CryptoKeyPair; bundles: string[] }> {
  const { keyPair, publicKeyUncompressedHex } = await createHpkeRecipientKeyPair()
  const bundles: string[] = []
  for (let i = 0; i < n; i++) {
    const plaintext = generateP256KeyPair().privateKey
    bundles.push(await encryptCredentialBundle({ plaintext, targetPublicKeyHex: publicKeyUncompressedHex }))
  }
  return { target: keyPair, bundles }
}

/** Build the hooks (pure; {@link installBenchHooks} puts them on `globalThis`). */
export function createBenchHooks(): SigilBenchHooks {
  return {
    async stamp(samples, batch = 1) {
      const { keyPair, publicKeyHex } = await createP256WebCryptoKeyPair()
      const stamper = createWebCryptoStamper({ privateKey: keyPair.privateKey, publicKeyHex })
      await stamper.stamp(BODY)
      return timeBatches(samples, batch, () => stamper.stamp(BODY))
    },
    async decrypt(samples, batch = 1) {
      const n = samples * batch
      const { target, bundles } = await throwawayBundles(n + 1)
      await decryptCredentialBundle({ bundle: bundles[n]!, privateKey: target })
      return timeBatches(samples, batch, async (i) => {
        const r = await decryptCredentialBundle({ bundle: bundles[i]!, privateKey: target })
        if (!r.ok) throw new Error(r.reason)
        r.plaintext.fill(0)
      })
    },
    async decryptImport(samples, batch = 1) {
      const n = samples * batch
      const { target, bundles } = await throwawayBundles(n + 1)
      await importBundleKey(bundles[n]!, target)
      return timeBatches(samples, batch, (i) => importBundleKey(bundles[i]!, target))
    },
  }
}

/** Install the hooks as `globalThis.__sigilBench` (bench build only). */
export function installBenchHooks(): void {
  ;(globalThis as { __sigilBench?: SigilBenchHooks }).__sigilBench = createBenchHooks()
}
