/**
 * sign_raw_payload through the whole service: loopback HTTP at 8 concurrent clients for
 * ~5 s (throughput, p50, p99), against the in-process cost of what a request must do at least
 * (stamp verification + signing). Run directly: `npx tsx bench/service-sign.ts`; with
 * DATABASE_URL set, the service runs on a fresh PostgreSQL database instead of PGlite.
 *
 * ratio = loopback ops/s × in-process seconds per op: the share of the service's time spent on
 * the unavoidable crypto (1.0 = no overhead at all; target ≥ 0.5).
 */
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { serializeTransaction } from 'viem'
import { signEthereumTransaction } from '../src/chains/sign/ethereumTransaction.js'
import { signRawPayload } from '../src/chains/sign/raw.js'
import { nobleSecp256k1Signer, useSecp256k1DigestSigner } from '../src/chains/sign/secp256k1.js'
import { libsecp256k1Signer } from '../src/service/chains/libsecp256k1.js'
import { bytesToHex, utf8Encode } from '../src/crypto/encoding.js'
import { verifyApiKeyStampAsync } from '../src/crypto/verifyStampAsync.js'
import { startBenchService, treeCpuSeconds } from './serviceProcess.js'
import { measure } from './timing.js'

/** One output row; the loopback row carries latency percentiles, the ratio row only `value`. */
export type ServiceSignRow = {
  name: string
  ops?: number
  opsPerSec?: number
  usPerOp?: number
  p50Ms?: number
  p99Ms?: number
  value?: number
  /** CPU time per request of the service process (all its threads) and of the clients' process. */
  serviceCpuMs?: number
  clientCpuMs?: number
}

const SIGN_TYPE = 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'

/** The activities this bench measures: a raw payload, or an EIP-1559 Ethereum transaction. */
export type SignActivity = 'sign_raw_payload' | 'sign_transaction'

/** A fresh unsigned EIP-1559 transfer (hex, `0x`), its nonce varying so no two bodies are alike. */
function unsignedEip1559(): string {
  return serializeTransaction({
    type: 'eip1559',
    chainId: 1,
    nonce: Math.floor(Math.random() * 1_000_000),
    to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    value: 10n ** 16n,
    gas: 21000n,
    maxFeePerGas: 30_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  })
}

function transactionBody(organizationId: string, signWith: string): string {
  return JSON.stringify({
    parameters: { signWith, unsignedTransaction: unsignedEip1559(), type: 'TRANSACTION_TYPE_ETHEREUM' },
    organizationId,
    timestampMs: String(Date.now()),
    type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
  })
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number
}

function signBody(organizationId: string, signWith: string): string {
  return JSON.stringify({
    parameters: {
      signWith,
      payload: `0x${bytesToHex(crypto.getRandomValues(new Uint8Array(32)))}`,
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_KECCAK256',
    },
    organizationId,
    timestampMs: String(Date.now()),
    type: SIGN_TYPE,
  })
}

/** A new empty PostgreSQL database next to the one `base` names (the bench never reuses data). */
async function freshDatabase(base: string): Promise<{ url: string; drop(): Promise<void> }> {
  const { default: pg } = await import('pg')
  const name = `sigil_bench_${Date.now().toString(36)}`
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: base })
    await client.connect()
    try {
      await client.query(sql)
    } finally {
      await client.end()
    }
  }
  await admin(`CREATE DATABASE ${name}`)
  const url = new URL(base)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name}`) }
}

/** Starts a throwaway service (PGlite in a temp dir, or a fresh PostgreSQL database when `databaseUrl` is given), measures, stops it. `durationMs` per phase (default 5000 / 1500). */
export async function benchServiceSign(
  opts: {
    durationMs?: number
    inProcessMs?: number
    clients?: number
    databaseUrl?: string
    env?: Record<string, string>
    activity?: SignActivity
  } = {},
): Promise<ServiceSignRow[]> {
  const activity = opts.activity ?? 'sign_raw_payload'
  const path = `/public/v1/submit/${activity}`
  const bodyOf = activity === 'sign_transaction' ? transactionBody : signBody
  const durationMs = opts.durationMs ?? 5000
  const clients = opts.clients ?? 8
  const fresh = opts.databaseUrl ? await freshDatabase(opts.databaseUrl) : undefined
  // The service runs in its own process (as `npm run service` does), so the clients here do not
  // share its event loop.
  const svc = await startBenchService(fresh?.url, opts.env ?? {})
  try {
    const orgId = svc.admin.organizationId as string
    const stamper = svc.stamper
    const post = async (path: string, body: string) => {
      const r = await svc.post(path, JSON.parse(body))
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.json?.message}`)
      return r.json
    }

    const created = await post(
      '/public/v1/submit/create_wallet',
      JSON.stringify({
        parameters: {
          walletName: 'bench',
          accounts: [
            {
              curve: 'CURVE_SECP256K1',
              pathFormat: 'PATH_FORMAT_BIP32',
              path: "m/44'/60'/0'/0/0",
              addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
            },
          ],
        },
        organizationId: orgId,
        timestampMs: String(Date.now()),
        type: 'ACTIVITY_TYPE_CREATE_WALLET',
      }),
    )
    const signWith = created.activity.result.createWalletResult.addresses[0] as string

    // Warm-up, then `clients` concurrent loops for `durationMs`.
    for (let i = 0; i < 20; i++) await post(path, bodyOf(orgId, signWith))
    const latencies: number[] = []
    const serviceCpu0 = treeCpuSeconds(svc.pid)
    const clientCpu0 = process.cpuUsage()
    const start = performance.now()
    const deadline = start + durationMs
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (performance.now() < deadline) {
          const t0 = performance.now()
          await post(path, bodyOf(orgId, signWith))
          latencies.push(performance.now() - t0)
        }
      }),
    )
    const elapsed = performance.now() - start
    const serviceCpuMs = ((treeCpuSeconds(svc.pid) - serviceCpu0) * 1000) / latencies.length
    const clientCpu = process.cpuUsage(clientCpu0)
    const clientCpuMs = (clientCpu.user + clientCpu.system) / 1000 / latencies.length
    latencies.sort((a, b) => a - b)
    const loopbackOps = latencies.length / (elapsed / 1000)

    // In-process: stamp verification of a real request body + secp256k1 signing of its payload,
    // with the signer the service installs (libsecp256k1), and with the shared pure-JS one.
    const privateKey = secp256k1.utils.randomSecretKey()
    const body = bodyOf(orgId, signWith)
    const bodyBytes = utf8Encode(body)
    const stamp = await stamper.stamp(body)
    const parameters = (JSON.parse(body) as { parameters: { payload?: string; unsignedTransaction?: string } }).parameters
    const signOnly =
      activity === 'sign_transaction'
        ? () => {
            signEthereumTransaction({ privateKey, unsignedTransaction: parameters.unsignedTransaction as string })
          }
        : () => {
            signRawPayload({
              privateKey,
              curve: 'CURVE_SECP256K1',
              payload: parameters.payload as string,
              encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
              hashFunction: 'HASH_FUNCTION_KECCAK256',
            })
          }
    const verifyAndSign = async () => {
      const v = await verifyApiKeyStampAsync(stamp.stampHeaderValue, bodyBytes)
      if (!v.ok) throw new Error('stamp did not verify')
      signOnly()
    }
    const inProcessOpts = { minMs: opts.inProcessMs ?? 1500, warmup: 50 }
    const previous = useSecp256k1DigestSigner(libsecp256k1Signer)
    const inProcess = await measure(
      `in-process: verifyApiKeyStampAsync + ${activity === 'sign_transaction' ? 'signEthereumTransaction' : 'signRawPayload'} (libsecp256k1, as the service)`,
      verifyAndSign,
      inProcessOpts,
    )
    useSecp256k1DigestSigner(nobleSecp256k1Signer)
    const inProcessJs = await measure(
      `in-process: verifyApiKeyStampAsync + ${activity === 'sign_transaction' ? 'signEthereumTransaction' : 'signRawPayload'} (pure-JS @noble/curves)`,
      verifyAndSign,
      inProcessOpts,
    )
    useSecp256k1DigestSigner(previous)

    return [
      {
        name: `${activity} over loopback (${clients} clients, ${(elapsed / 1000).toFixed(1)} s)`,
        ops: latencies.length,
        opsPerSec: loopbackOps,
        usPerOp: 1_000_000 / loopbackOps,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
        serviceCpuMs,
        clientCpuMs,
      },
      { ...inProcess },
      { ...inProcessJs },
      { name: 'ratio: loopback ops/s × in-process s/op (target ≥ 0.5)', value: loopbackOps * (inProcess.usPerOp / 1_000_000) },
      { name: 'ratio against the pure-JS in-process cost', value: loopbackOps * (inProcessJs.usPerOp / 1_000_000) },
    ]
  } finally {
    await svc.stop()
    await fresh?.drop()
  }
}

/** Fixed-width text of the rows. */
export function formatServiceSign(rows: ServiceSignRow[]): string {
  const f = (n: number | undefined, d = 1) => (n === undefined ? '' : n.toFixed(d))
  return rows
    .map((r) =>
      r.value !== undefined
        ? `${r.name}: ${r.value.toFixed(3)}`
        : `${r.name}: ${f(r.opsPerSec)} ops/s, ${f(r.usPerOp)} µs/op${r.p50Ms !== undefined ? `, p50 ${f(r.p50Ms, 2)} ms, p99 ${f(r.p99Ms, 2)} ms` : ''}${
            r.serviceCpuMs !== undefined ? `, CPU/request: service ${f(r.serviceCpuMs, 2)} ms, clients ${f(r.clientCpuMs, 2)} ms` : ''
          }`,
    )
    .join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const databaseUrl = process.env.DATABASE_URL
  console.log(formatServiceSign(await benchServiceSign(databaseUrl ? { databaseUrl } : {})))
}
