/**
 * Bench-build-only hooks (issue 7, Performance): `globalThis.__sigilBench` runs our stamper and
 * bundle decryption inside the service worker with throwaway keys and returns per-operation
 * timings. Installed by entrypoints/background.ts only when built with `wxt build --mode bench`;
 * the production build tree-shakes this file away (bench/extension.ts checks that).
 */
import { decryptCredentialBundle, encryptCredentialBundle } from '../../crypto/credentialBundle'
import { createHpkeRecipientKeyPair } from '../../crypto/hpke'
import { generateP256KeyPair } from '../../crypto/p256'
import { createP256WebCryptoKeyPair, createWebCryptoStamper } from '../../crypto/stamp'
import { importBundleKey } from './login'

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

/** Per-operation wall times in ms (`performance.now()` inside the worker). */
export type BenchTimings = { ms: number[] }

/** What the hooks expose on `globalThis.__sigilBench`. */
export type SigilBenchHooks = {
  /** `n` stamps with a fresh non-extractable WebCrypto P-256 key. */
  stamp(n: number): Promise<BenchTimings>
  /** `n` credential-bundle decryptions with a fresh non-extractable ECDH key pair. */
  decrypt(n: number): Promise<BenchTimings>
  /** `n` × decrypt + import as a non-extractable signing key (the login path, login.ts). */
  decryptImport(n: number): Promise<BenchTimings>
}

async function timeEach(n: number, op: (i: number) => Promise<unknown>): Promise<BenchTimings> {
  const ms: number[] = []
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    await op(i)
    ms.push(performance.now() - t)
  }
  return { ms }
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
    async stamp(n) {
      const { keyPair, publicKeyHex } = await createP256WebCryptoKeyPair()
      const stamper = createWebCryptoStamper({ privateKey: keyPair.privateKey, publicKeyHex })
      await stamper.stamp(BODY)
      return timeEach(n, () => stamper.stamp(BODY))
    },
    async decrypt(n) {
      const { target, bundles } = await throwawayBundles(n + 1)
      await decryptCredentialBundle({ bundle: bundles[n]!, privateKey: target })
      return timeEach(n, async (i) => {
        const r = await decryptCredentialBundle({ bundle: bundles[i]!, privateKey: target })
        if (!r.ok) throw new Error(r.reason)
        r.plaintext.fill(0)
      })
    },
    async decryptImport(n) {
      const { target, bundles } = await throwawayBundles(n + 1)
      await importBundleKey(bundles[n]!, target)
      return timeEach(n, (i) => importBundleKey(bundles[i]!, target))
    },
  }
}

/** Install the hooks as `globalThis.__sigilBench` (bench build only). */
export function installBenchHooks(): void {
  ;(globalThis as { __sigilBench?: SigilBenchHooks }).__sigilBench = createBenchHooks()
}
