import { describe, expect, it } from 'vitest'
import { createBenchHooks } from '@/src/extension/background/benchHooks'

describe('bench hooks (bench build only)', () => {
  it('times stamps, decryptions and decrypt+import with throwaway keys', async () => {
    const hooks = createBenchHooks()
    for (const op of ['stamp', 'decrypt', 'decryptImport'] as const) {
      const r = await hooks[op](3, 2)
      expect(r.batch).toBe(2)
      expect(r.ms).toHaveLength(3)
      for (const ms of r.ms) expect(ms).toBeGreaterThan(0)
    }
  })
})
