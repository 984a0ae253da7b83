/**
 * `npm run bench`: every benchmark, printed as tables. Set SIGIL_BENCH_DATABASE_URL to a
 * PostgreSQL server to add the PostgreSQL rows of the service benchmarks.
 */
import { existsSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { benchChains } from './chains.js'
import { benchCrypto } from './crypto.js'
import { formatLoadTable } from './load.js'
import { benchServiceSubmit } from './service-submit.js'
import { formatTable } from './timing.js'

const only = process.argv.slice(2)
const want = (name: string) => only.length === 0 || only.includes(name)

// Every number below depends on the machine and on what else runs on it: say both.
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')
console.log(
  `machine: ${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}; load average at start ${load()}`,
)
const originalLog = console.log
console.log = (...args: unknown[]) => {
  originalLog(...args)
  // each section's title is followed by the load average at its start
  if (typeof args[0] === 'string' && args[0].startsWith('\n## ')) originalLog(`(load average ${load()})\n`)
}

if (want('crypto')) {
  console.log('\n## Stamps and bundles (in-process)\n')
  console.log(formatTable(await benchCrypto()))
}
if (want('chains')) {
  console.log('\n## Derivation and signing (in-process)\n')
  console.log(formatTable(await benchChains()))
}
if (want('submit')) {
  console.log('\n## Submit over loopback\n')
  const { load, verify } = await benchServiceSubmit()
  console.log(formatLoadTable(load))
  console.log(`\nstamp verification alone, in-process: ${verify.usPerOp.toFixed(1)} µs/op (${verify.opsPerSec.toFixed(0)} ops/s)`)
  for (const r of load) {
    console.log(
      `  ${r.name} @${r.clients}: loopback throughput is ${((r.throughput / verify.opsPerSec) * 100).toFixed(1)}% of verify-only throughput`,
    )
  }
}
if (want('sign')) {
  console.log('\n## sign_raw_payload and sign_transaction over loopback (8 clients unless said)\n')
  const mod = await import('./service-sign.js')
  console.log('Embedded PostgreSQL (the default; service CPU includes its server processes):')
  console.log(mod.formatServiceSign(await mod.benchServiceSign()))
  console.log('\nEmbedded PostgreSQL, 1 client (no queueing: the latency of one request):')
  console.log(mod.formatServiceSign((await mod.benchServiceSign({ clients: 1, inProcessMs: 300 })).slice(0, 1)))
  console.log('\nsign_transaction (an EIP-1559 transfer), embedded PostgreSQL:')
  console.log(mod.formatServiceSign(await mod.benchServiceSign({ activity: 'sign_transaction', inProcessMs: 500 })))
  console.log('\nsign_transaction, 1 client:')
  console.log(
    mod.formatServiceSign((await mod.benchServiceSign({ activity: 'sign_transaction', clients: 1, inProcessMs: 300 })).slice(0, 1)),
  )
  console.log('\nPGlite (SIGIL_DATABASE=pglite):')
  console.log(mod.formatServiceSign((await mod.benchServiceSign({ env: { SIGIL_DATABASE: 'pglite' }, inProcessMs: 300 })).slice(0, 1)))
  if (process.env.SIGIL_BENCH_DATABASE_URL) {
    console.log('\nPostgreSQL:')
    console.log(mod.formatServiceSign(await mod.benchServiceSign({ databaseUrl: process.env.SIGIL_BENCH_DATABASE_URL })))
  }
}
if (want('footprint')) {
  console.log('\n## Footprint of `npm run service` per embedded database (targets: idle ≤ 300 MB, start on an existing data dir ≤ 1 s)\n')
  const { benchFootprint, formatFootprint } = await import('./footprint.js')
  console.log(formatFootprint(await benchFootprint()))
}
if (want('suborg')) {
  console.log('\n## create_sub_organization over loopback (the sign-up path)\n')
  const { benchServiceSubOrg } = await import('./service-suborg.js')
  console.log(formatLoadTable(await benchServiceSubOrg()))
}
if (want('scale-out')) {
  console.log('\n## Scale out: 1, 2, 4 instances on one PostgreSQL (sign_raw_payload, 8 clients, round-robin)\n')
  if (!process.env.SIGIL_BENCH_DATABASE_URL) console.log('(set SIGIL_BENCH_DATABASE_URL to a PostgreSQL server to run it)')
  else {
    const { benchScaleOut, formatScaleOut } = await import('./scale-out.js')
    console.log(formatScaleOut(await benchScaleOut({ databaseUrl: process.env.SIGIL_BENCH_DATABASE_URL })))
  }
}
if (want('send')) {
  console.log('\n## Send latency on the dev EVM chain\n')
  const { benchServiceSend, formatServiceSend } = await import('./service-send.js')
  console.log(formatServiceSend(await benchServiceSend()))
}
if (want('batch-send')) {
  console.log('\n## Batch send latency on the dev EVM chain (request → INCLUDED, one client)\n')
  const { benchBatchSend, formatBatchSend } = await import('./service-batch-send.js')
  console.log(formatBatchSend(await benchBatchSend()))
}
if (want('policy')) {
  console.log('\n## Policy evaluation (in-process)\n')
  const { benchPolicy } = await import('./policy.js')
  console.log(formatTable(await benchPolicy()))
}
if (want('policy-submit')) {
  console.log('\n## Submit with policies over loopback (target: non-root with 100 policies ≤ 10% slower)\n')
  const { benchPolicySubmit, formatPolicySubmit } = await import('./policy-submit.js')
  console.log('Embedded PostgreSQL (the default):')
  console.log(formatPolicySubmit(await benchPolicySubmit()))
  if (process.env.SIGIL_BENCH_DATABASE_URL) {
    console.log('\nPostgreSQL:')
    console.log(formatPolicySubmit(await benchPolicySubmit({ databaseUrl: process.env.SIGIL_BENCH_DATABASE_URL })))
  }
}
if (want('webhooks')) {
  console.log('\n## Webhooks: commit → receipt under 8 clients\n')
  const { benchWebhooks, formatWebhooks } = await import('./webhooks.js')
  console.log('Embedded PostgreSQL (the default):')
  console.log(formatWebhooks(await benchWebhooks()))
  if (process.env.SIGIL_BENCH_DATABASE_URL) {
    const { freshDatabase } = await import('./serviceProcess.js')
    console.log('\nPostgreSQL:')
    console.log(formatWebhooks(await benchWebhooks({ databaseUrl: await freshDatabase(process.env.SIGIL_BENCH_DATABASE_URL) })))
  }
}
if (want('scale')) {
  console.log('\n## Scale with data: empty vs filled database (target: each row ≤ 1.5× empty)\n')
  const { runScale } = await import('./scale.js')
  console.log(await runScale())
}
if (want('dapp-send')) {
  console.log('\n## dApp eth_sendTransaction → approval window\n')
  const { benchDappSend, formatDappSend } = await import('./dappSend.js')
  console.log(formatDappSend(await benchDappSend()))
}
if (want('sizes')) {
  console.log('\n## Extension bundle sizes (target: inpage script ≤ 15 kB raw)\n')
  const { readFileSync, readdirSync } = await import('node:fs')
  const { gzipSync } = await import('node:zlib')
  const dir = new URL('../.output/chrome-mv3/', import.meta.url)
  if (!existsSync(dir)) console.log('(no build: run `npx wxt build` first)')
  else {
    const files = ['content-scripts/inpage.js', 'content-scripts/content.js', 'background.js']
    for (const f of readdirSync(new URL('chunks/', dir))) if (f.endsWith('.js')) files.push(`chunks/${f}`)
    for (const f of files) {
      const bytes = readFileSync(new URL(f, dir))
      console.log(`${f.padEnd(48)} ${String(bytes.length).padStart(8)} B raw ${String(gzipSync(bytes).length).padStart(8)} B gzip`)
    }
  }
}
if (want('extension') && existsSync(new URL('./extension.ts', import.meta.url))) {
  console.log('\n## Extension\n')
  const path = './extension.js'
  const mod = await import(path)
  console.log(await mod.benchExtensionReport())
}
if (want('popup-balances')) {
  console.log('\n## Popup accounts screen with balances\n')
  const { benchPopupBalances, formatPopupBalances } = await import('./popupBalances.js')
  console.log(formatPopupBalances(await benchPopupBalances()))
}
