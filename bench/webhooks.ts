/**
 * Webhook latency: 8 clients doing sign_raw_payload for a few seconds in an
 * organization with one endpoint subscribed to ACTIVITY_UPDATES on a receiver in a process of its
 * own (127.0.0.1, so the clients' work does not delay it; the service runs in its own process too,
 * dev mode). For each event: commit → receipt,
 * from `X-Sigil-Event-Created-Ms` (queued in the activity's transaction, just before COMMIT) to the
 * receiver reading the whole request; both clocks are this machine's. Also sign_raw_payload
 * throughput and latency without and with the endpoint (the cost of queueing the outbox rows).
 * Run directly: `npx tsx bench/webhooks.ts`, or `npm run bench webhooks`; with DATABASE_URL set, the
 * service runs on that PostgreSQL database instead of PGlite.
 */
import { fork } from 'node:child_process'
import { bytesToHex } from '../src/crypto/encoding.js'
import { startBenchService, treeCpuSeconds } from './serviceProcess.js'

export type WebhookBenchRow = {
  name: string
  ops: number
  opsPerSec?: number
  p50Ms: number
  p99Ms: number
  maxMs?: number
  /** CPU time of the service process per operation (user + system). */
  cpuMsPerOp?: number
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number
}

const summary = (name: string, values: number[], seconds?: number, cpuSecondsUsed?: number): WebhookBenchRow => {
  const sorted = [...values].sort((a, b) => a - b)
  return {
    name,
    ops: values.length,
    ...(seconds ? { opsPerSec: values.length / seconds } : {}),
    ...(cpuSecondsUsed !== undefined ? { cpuMsPerOp: (cpuSecondsUsed * 1000) / values.length } : {}),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted[sorted.length - 1] ?? Number.NaN,
  }
}

export async function benchWebhooks(
  opts: { durationMs?: number; clients?: number; databaseUrl?: string } = {},
): Promise<WebhookBenchRow[]> {
  const durationMs = opts.durationMs ?? 4000
  const clients = opts.clients ?? 8

  // The receiver, in its own process: commit → receipt per event, keyed by activity id.
  const receipts = new Map<string, number>()
  const receiver = fork(new URL('./webhookReceiver.mjs', import.meta.url), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  const receiverUrl = await new Promise<string>((ok) =>
    receiver.on('message', (m: { url?: string; id?: string; ms?: number }) => {
      if (m.url) ok(m.url)
      else if (m.id !== undefined && m.ms !== undefined) receipts.set(m.id, m.ms)
    }),
  )

  const svc = await startBenchService(opts.databaseUrl)
  try {
    const org = svc.admin.organizationId as string
    const submit = async (path: string, type: string, parameters: unknown) => {
      const r = await svc.post(path, { parameters, organizationId: org, timestampMs: String(Date.now()), type })
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.json?.message}`)
      return r.json
    }
    const created = await submit('/public/v1/submit/create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', {
      walletName: 'bench',
      accounts: [
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
      ],
    })
    const signWith = created.activity.result.createWalletResult.addresses[0] as string
    const sign = () =>
      submit('/public/v1/submit/sign_raw_payload', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', {
        signWith,
        payload: `0x${bytesToHex(crypto.getRandomValues(new Uint8Array(32)))}`,
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_KECCAK256',
      })

    /** `clients` concurrent loops for `durationMs`: latencies and the ids of completed activities. */
    const run = async () => {
      const latencies: number[] = []
      const ids: string[] = []
      const cpu0 = treeCpuSeconds(svc.pid)
      const deadline = performance.now() + durationMs
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (performance.now() < deadline) {
            const t0 = performance.now()
            const r = await sign()
            latencies.push(performance.now() - t0)
            ids.push(r.activity.id as string)
          }
        }),
      )
      return { latencies, ids, cpu0, cpu: treeCpuSeconds(svc.pid) - cpu0 }
    }

    for (let i = 0; i < 20; i++) await sign()
    const without = await run()

    await submit('/public/v1/submit/create_webhook_endpoint', 'ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT', {
      url: receiverUrl,
      name: 'bench',
      subscriptions: [{ eventType: 'ACTIVITY_UPDATES' }],
    })
    for (let i = 0; i < 20; i++) await sign()
    receipts.clear()
    const withEndpoint = await run()
    // Every event of the run arrives (at least once); wait for the stragglers.
    const until = Date.now() + 30_000
    while (withEndpoint.ids.some((id) => !receipts.has(id)) && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
    // The deliveries still running when the clients stopped are part of the cost.
    withEndpoint.cpu = treeCpuSeconds(svc.pid) - withEndpoint.cpu0
    const missing = withEndpoint.ids.filter((id) => !receipts.has(id)).length
    const seconds = durationMs / 1000
    const rows = [
      summary(`sign_raw_payload, no endpoint @${clients}`, without.latencies, seconds, without.cpu),
      summary(`sign_raw_payload, 1 endpoint @${clients}`, withEndpoint.latencies, seconds, withEndpoint.cpu),
      summary(
        `commit → receipt @${clients}`,
        withEndpoint.ids.filter((id) => receipts.has(id)).map((id) => receipts.get(id) as number),
      ),
    ]
    if (missing > 0) rows.push({ name: `events not received within 30 s: ${missing}`, ops: missing, p50Ms: Number.NaN, p99Ms: Number.NaN })
    return rows
  } finally {
    await svc.stop()
    receiver.kill()
  }
}

export function formatWebhooks(rows: WebhookBenchRow[]): string {
  const head = `${'case'.padEnd(40)} ${'ops'.padStart(7)} ${'ops/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)} ${'svc CPU ms/op'.padStart(14)}`
  const lines = rows.map(
    (r) =>
      `${r.name.padEnd(40)} ${String(r.ops).padStart(7)} ${(r.opsPerSec?.toFixed(0) ?? '').padStart(8)} ${r.p50Ms.toFixed(1).padStart(8)} ${r.p99Ms.toFixed(1).padStart(8)} ${(r.maxMs?.toFixed(1) ?? '').padStart(8)} ${(r.cpuMsPerOp?.toFixed(2) ?? '').padStart(14)}`,
  )
  return [head, ...lines].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatWebhooks(await benchWebhooks({ ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}) })))
}
