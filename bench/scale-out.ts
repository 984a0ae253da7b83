/**
 * Scale out: 1, 2 and 4 service instances (each its own process) on one
 * PostgreSQL, sharing a data dir (master key, admin key), with the bench's own round-robin client:
 * 8 clients sign with `sign_raw_payload` for ~5 s, request n going to instance n mod N. Prints
 * throughput and p50/p99 per N and the ratio to one instance, with the machine's cores and load
 * (on 2 cores more instances mostly share the same CPUs with PostgreSQL: the ratio says so).
 * Needs SIGIL_BENCH_DATABASE_URL. Run: `npx tsx bench/scale-out.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { bytesToHex } from '../src/crypto/encoding.js'
import { type LoadResult, runLoad } from './load.js'
import { freshDatabase, startBenchService } from './serviceProcess.js'

type BenchService = Awaited<ReturnType<typeof startBenchService>>

export async function benchScaleOut(opts: { databaseUrl: string; counts?: number[]; durationMs?: number }): Promise<LoadResult[]> {
  const rows: LoadResult[] = []
  for (const n of opts.counts ?? [1, 2, 4]) {
    const databaseUrl = await freshDatabase(opts.databaseUrl)
    const dataDir = mkdtempSync(join(tmpdir(), 'sigil-scale-out-'))
    const instances: BenchService[] = []
    try {
      // The first bootstraps the database and the data dir; the others join it.
      instances.push(await startBenchService(databaseUrl, {}, { dataDir }))
      for (let i = 1; i < n; i++) instances.push(await startBenchService(databaseUrl, {}, { dataDir }))
      const first = instances[0] as BenchService
      const org = first.admin.organizationId as string
      const created = await first.post('/public/v1/submit/create_wallet', {
        parameters: {
          walletName: 'scale-out',
          accounts: [
            {
              curve: 'CURVE_SECP256K1',
              pathFormat: 'PATH_FORMAT_BIP32',
              path: "m/44'/60'/0'/0/0",
              addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
            },
          ],
        },
        organizationId: org,
        timestampMs: String(Date.now()),
        type: 'ACTIVITY_TYPE_CREATE_WALLET',
      })
      const signWith = created.json.activity.result.createWalletResult.addresses[0] as string
      const sign = async (k: number) => {
        const svc = instances[k % instances.length] as BenchService
        const r = await svc.post('/public/v1/submit/sign_raw_payload', {
          parameters: {
            signWith,
            payload: `0x${bytesToHex(crypto.getRandomValues(new Uint8Array(32)))}`,
            encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
            hashFunction: 'HASH_FUNCTION_KECCAK256',
          },
          organizationId: org,
          timestampMs: String(Date.now()),
          type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
        })
        return r.status === 200
      }
      for (let i = 0; i < 20 * n; i++) await sign(i)
      rows.push(await runLoad(`${n} instance${n > 1 ? 's' : ''}`, 8, opts.durationMs ?? 5000, sign))
    } finally {
      for (const s of instances) await s.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  return rows
}

export function formatScaleOut(rows: LoadResult[]): string {
  const base = rows[0]?.throughput ?? Number.NaN
  const lines = [
    `cores: ${availableParallelism()}, load average: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    'instances      req/s   p50 ms   p99 ms  errors  × one instance',
  ]
  for (const r of rows) {
    lines.push(
      `${r.name.padEnd(12)} ${r.throughput.toFixed(0).padStart(7)} ${r.p50Ms.toFixed(2).padStart(8)} ${r.p99Ms.toFixed(2).padStart(8)} ${String(r.errors).padStart(7)}  ${(r.throughput / base).toFixed(2).padStart(13)}`,
    )
  }
  return lines.join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.SIGIL_BENCH_DATABASE_URL
  if (!url) throw new Error('SIGIL_BENCH_DATABASE_URL: needed (a PostgreSQL server the bench may create databases on)')
  console.log(formatScaleOut(await benchScaleOut({ databaseUrl: url })))
}
