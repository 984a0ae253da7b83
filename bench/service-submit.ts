/**
 * Submit benchmark: throughput and p50/p99 latency over loopback for a light
 * activity (set_organization_feature) at 1, 8 and 32 concurrent clients, on the embedded
 * database and on PostgreSQL when SIGIL_BENCH_DATABASE_URL is set; beside it, the
 * in-process cost of stamp verification alone. Target: p99 ≤ 10 ms at 8 clients (embedded).
 */
import { utf8Encode } from '../src/crypto/encoding.js'
import { verifyApiKeyStampAsync } from '../src/crypto/verifyStampAsync.js'
import { formatLoadTable, runLoad, type LoadResult } from './load.js'
import { freshDatabase, startBenchService } from './serviceProcess.js'
import { measure, type BenchResult } from './timing.js'

export async function benchServiceSubmit(opts: { durationMs?: number } = {}) {
  const durationMs = opts.durationMs ?? 4000
  const load: LoadResult[] = []
  const targets: Array<[string, string | undefined]> = [['pglite', undefined]]
  if (process.env.SIGIL_BENCH_DATABASE_URL) targets.push(['postgres', await freshDatabase(process.env.SIGIL_BENCH_DATABASE_URL)])
  for (const [label, databaseUrl] of targets) {
    const svc = await startBenchService(databaseUrl)
    try {
      const submit = async (n: number) => {
        const r = await svc.post('/public/v1/submit/set_organization_feature', {
          parameters: { name: 'FEATURE_NAME_WEBHOOK', value: `${label}-${n}-${Math.random()}` },
          organizationId: svc.admin.organizationId,
          timestampMs: String(Date.now()),
          type: 'ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE',
        })
        return r.status === 200 && r.json.activity.status === 'ACTIVITY_STATUS_COMPLETED'
      }
      for (let i = 0; i < 50; i++) await submit(i) // warm-up
      for (const clients of [1, 8, 32]) load.push(await runLoad(`submit ${label}`, clients, durationMs, submit))
    } finally {
      await svc.stop()
    }
  }
  // In-process: stamp verification alone, on a body like the ones above.
  const { createP256WebCryptoKeyPair, createWebCryptoStamper } = await import('../src/crypto/stamp.js')
  const kp = await createP256WebCryptoKeyPair()
  const stamper = createWebCryptoStamper({ privateKey: kp.keyPair.privateKey, publicKeyHex: kp.publicKeyHex })
  const body = JSON.stringify({
    parameters: { name: 'FEATURE_NAME_WEBHOOK', value: 'x' },
    organizationId: '00000000-0000-4000-8000-000000000000',
    timestampMs: String(Date.now()),
    type: 'ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE',
  })
  const stamp = await stamper.stamp(body)
  const bytes = utf8Encode(body)
  const verify: BenchResult = await measure(
    'stamp verify (in-process, WebCrypto)',
    () => verifyApiKeyStampAsync(stamp.stampHeaderValue, bytes),
    { minMs: 1000 },
  )
  return { load, verify }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { load, verify } = await benchServiceSubmit()
  console.log(formatLoadTable(load))
  console.log(`\nstamp verify in-process: ${verify.usPerOp.toFixed(1)} µs/op (${verify.opsPerSec.toFixed(0)}/s)`)
  for (const r of load)
    console.log(`${r.name} @${r.clients}: loopback throughput / verify-only throughput = ${(r.throughput / verify.opsPerSec).toFixed(3)}`)
}
