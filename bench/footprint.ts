/**
 * The footprint of `npm run service` on each embedded database candidate — the service
 * process and every database process under it, as RSS and as PSS summed from
 * `/proc/<pid>/smaps_rollup` (PSS splits shared pages among the processes that map them, so the
 * postgres processes' shared buffers count once).
 *
 * Per candidate: start-to-healthy on an empty data dir (initdb, migrations, bootstrap), idle memory
 * 2 s after, memory after 10,000 activities (`sign_raw_payload`, 8 clients), then a clean stop and
 * start-to-healthy on that filled data dir, and idle memory after the restart.
 * Run directly: `npx tsx bench/footprint.ts [activities]`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startBenchService, treeMemoryKb } from './serviceProcess.js'
import { bytesToHex } from '../src/crypto/encoding.js'

export type FootprintRow = {
  name: string
  startEmptyMs: number
  idle: ReturnType<typeof treeMemoryKb>
  afterLoad: ReturnType<typeof treeMemoryKb>
  activities: number
  activitiesPerSec: number
  startFilledMs: number
  idleFilled: ReturnType<typeof treeMemoryKb>
}

export const CANDIDATES: Array<{ name: string; env: Record<string, string> }> = [
  { name: 'embedded PostgreSQL 18 (default)', env: { SIGIL_DATABASE: 'postgres' } },
  { name: 'PGlite 0.5 as it was', env: { SIGIL_DATABASE: 'pglite' } },
  { name: 'PGlite tuned (SIGIL_PGLITE_MEMORY=small)', env: { SIGIL_DATABASE: 'pglite', SIGIL_PGLITE_MEMORY: 'small' } },
]

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function measureOne(candidate: (typeof CANDIDATES)[number], activities: number): Promise<FootprintRow> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sigil-footprint-'))
  const first = await startBenchService(undefined, candidate.env, { dataDir })
  let firstStopped = false
  let second: Awaited<ReturnType<typeof startBenchService>> | undefined
  try {
    await sleep(2000)
    const idle = treeMemoryKb(first.pid)
    const orgId = first.admin.organizationId as string
    const created = await first.post('/public/v1/submit/create_wallet', {
      parameters: {
        walletName: 'footprint',
        accounts: [
          { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
        ],
      },
      organizationId: orgId,
      timestampMs: String(Date.now()),
      type: 'ACTIVITY_TYPE_CREATE_WALLET',
    })
    const signWith = created.json.activity.result.createWalletResult.addresses[0] as string
    let next = 0
    const t0 = performance.now()
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < activities) {
          next++
          const r = await first.post('/public/v1/submit/sign_raw_payload', {
            parameters: {
              signWith,
              payload: `0x${bytesToHex(crypto.getRandomValues(new Uint8Array(32)))}`,
              encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
              hashFunction: 'HASH_FUNCTION_KECCAK256',
            },
            organizationId: orgId,
            timestampMs: String(Date.now()),
            type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
          })
          if (r.status !== 200) throw new Error(`sign_raw_payload: ${r.status} ${r.json?.message}`)
        }
      }),
    )
    const activitiesPerSec = activities / ((performance.now() - t0) / 1000)
    const afterLoad = treeMemoryKb(first.pid)
    await first.stop()
    firstStopped = true
    second = await startBenchService(undefined, candidate.env, { dataDir })
    await sleep(2000)
    const idleFilled = treeMemoryKb(second.pid)
    return {
      name: candidate.name,
      startEmptyMs: first.startMs,
      idle,
      afterLoad,
      activities,
      activitiesPerSec,
      startFilledMs: second.startMs,
      idleFilled,
    }
  } finally {
    if (!firstStopped) await first.stop().catch(() => {})
    await second?.stop().catch(() => {})
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export async function benchFootprint(opts: { activities?: number } = {}): Promise<FootprintRow[]> {
  const rows: FootprintRow[] = []
  for (const c of CANDIDATES) rows.push(await measureOne(c, opts.activities ?? 10_000))
  return rows
}

export function formatFootprint(rows: FootprintRow[]): string {
  const mb = (kb: number) => (kb / 1024).toFixed(0).padStart(5)
  const head =
    'candidate                                   start empty  idle PSS (RSS; service)   after N activities PSS (RSS)  start filled  idle filled PSS (RSS)   activities/s'
  const lines = rows.map((r) =>
    [
      r.name.padEnd(43),
      `${r.startEmptyMs.toFixed(0).padStart(8)} ms`,
      `  ${mb(r.idle.pssKb)} MB (${mb(r.idle.rssKb)};${mb(r.idle.mainRssKb)}) ${String(r.idle.processes).padStart(2)} proc`,
      `  ${mb(r.afterLoad.pssKb)} MB (${mb(r.afterLoad.rssKb)}) after ${r.activities}`,
      `  ${r.startFilledMs.toFixed(0).padStart(8)} ms`,
      `  ${mb(r.idleFilled.pssKb)} MB (${mb(r.idleFilled.rssKb)})`,
      `  ${r.activitiesPerSec.toFixed(0).padStart(8)}`,
    ].join(''),
  )
  return [head, ...lines, '', 'target: idle total ≤ 300 MB, start on an existing data dir ≤ 1 s (embedded PostgreSQL; issue 38)'].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatFootprint(await benchFootprint({ activities: Number(process.argv[2] ?? 10_000) })))
}
