/**
 * Loopback load helpers shared by the service benchmarks: run N concurrent clients for a
 * fixed time and report throughput and latency percentiles.
 */
export type LoadResult = {
  name: string
  clients: number
  requests: number
  errors: number
  throughput: number
  p50Ms: number
  p99Ms: number
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[i]!
}

/** Runs `clients` loops calling `request(i)` until `durationMs` passes (bounded, loopback only). */
export async function runLoad(
  name: string,
  clients: number,
  durationMs: number,
  request: (n: number) => Promise<boolean>,
): Promise<LoadResult> {
  const latencies: number[] = []
  let errors = 0
  let n = 0
  const end = performance.now() + durationMs
  const start = performance.now()
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const t = performance.now()
        const ok = await request(n++).catch(() => false)
        latencies.push(performance.now() - t)
        if (!ok) errors++
      }
    }),
  )
  const seconds = (performance.now() - start) / 1000
  latencies.sort((a, b) => a - b)
  return {
    name,
    clients,
    requests: latencies.length,
    errors,
    throughput: latencies.length / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  }
}

export function formatLoadTable(rows: LoadResult[]): string {
  const w = Math.max(4, ...rows.map((r) => r.name.length))
  const head = `${'name'.padEnd(w)}  clients  requests  errors     req/s   p50 ms   p99 ms`
  return [
    head,
    '-'.repeat(head.length),
    ...rows.map(
      (r) =>
        `${r.name.padEnd(w)}  ${String(r.clients).padStart(7)}  ${String(r.requests).padStart(8)}  ${String(r.errors).padStart(6)}  ${r.throughput.toFixed(0).padStart(8)}  ${r.p50Ms.toFixed(2).padStart(7)}  ${r.p99Ms.toFixed(2).padStart(7)}`,
    ),
  ].join('\n')
}
