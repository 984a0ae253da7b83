/** A tiny benchmark timer shared by the bench/*.ts files. */

/** One measured operation. */
export type BenchResult = { name: string; ops: number; opsPerSec: number; usPerOp: number }

/**
 * Run `fn` repeatedly (after a short warm-up) until at least `minMs` have elapsed, and
 * report operations per second and microseconds per operation. `fn` may be async.
 */
export async function measure(
  name: string,
  fn: () => unknown,
  opts: { minMs?: number; warmup?: number; maxOps?: number } = {},
): Promise<BenchResult> {
  const minMs = opts.minMs ?? 500
  const warmup = opts.warmup ?? 5
  const maxOps = opts.maxOps ?? 1_000_000
  for (let i = 0; i < warmup; i++) await fn()
  let ops = 0
  const start = performance.now()
  let elapsed = 0
  while (elapsed < minMs && ops < maxOps) {
    await fn()
    ops++
    elapsed = performance.now() - start
  }
  const seconds = elapsed / 1000
  return { name, ops, opsPerSec: ops / seconds, usPerOp: (elapsed * 1000) / ops }
}

/** Format results as a fixed-width text table. */
export function formatTable(results: BenchResult[]): string {
  const w = Math.max(4, ...results.map((r) => r.name.length))
  const head = `${'name'.padEnd(w)}  ${'ops'.padStart(8)}  ${'ops/s'.padStart(10)}  ${'µs/op'.padStart(10)}`
  const rows = results.map(
    (r) =>
      `${r.name.padEnd(w)}  ${String(r.ops).padStart(8)}  ${r.opsPerSec.toFixed(1).padStart(10)}  ${r.usPerOp.toFixed(1).padStart(10)}`,
  )
  return [head, '-'.repeat(head.length), ...rows].join('\n')
}
