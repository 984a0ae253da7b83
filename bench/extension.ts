/**
 * Extension benchmarks: popup time to interactive (warm and stopped
 * service worker), popup JS and inpage script sizes, and stamp / bundle-decrypt time inside the
 * service worker. Builds what it needs (`wxt build`, and `wxt build --mode bench` whose
 * background exposes `globalThis.__sigilBench`, see src/extension/background/benchHooks.ts),
 * launches Debian Chromium through test/e2e/helpers/browser.ts and cleans up after itself.
 * Run directly: `npx tsx bench/extension.ts`; `npm run bench extension` runs it from bench/run.ts.
 *
 * "Interactive" = the popup's first commit after the background answered `getStatus` (its
 * controls are in the DOM with handlers attached): `performance.mark('sigil-interactive')` in
 * src/extension/popup/App.tsx; its `startTime` is ms since the popup's navigation start.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, rm } from 'node:fs/promises'
import { cpus, loadavg } from 'node:os'
import { join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'
import type { Page } from 'playwright-core'
import { EXTENSION_DIR, launchExtension, type LaunchedExtension } from '../test/e2e/helpers/browser.js'
import type { SigilBenchHooks } from '../src/extension/background/benchHooks.js'
import { percentile } from './load.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** Output of `wxt build --mode bench` (WXT appends `-<mode>` to the output dir). */
const BENCH_DIR = join(ROOT, '.output', 'chrome-mv3-bench')
const WXT = join(ROOT, 'node_modules', '.bin', 'wxt')
const MARK = 'sigil-interactive'
const BENCH_GLOBAL = '__sigilBench'

/** The extension's performance targets. */
export const TARGETS = { popupWarmMs: 100, popupJsGzipBytes: 100_000, inpageBytes: 15_000 }

/** Repetition counts (each ≥ 20). */
export type BenchExtensionOptions = { warm?: number; cold?: number; swSamples?: number; swBatch?: number; build?: boolean }

/** One timed row: samples in ms. */
export type TimingRow = { name: string; samples: number[]; target?: number }

/** One size row in bytes. */
export type SizeRow = { name: string; files: string[]; raw: number; gzip: number; target?: { bytes: number; of: 'raw' | 'gzip' } }

/** Everything measured. */
export type ExtensionBench = {
  timings: TimingRow[]
  sizes: SizeRow[]
  coldRestarts: number
  coldRuns: number /** 1-min load average before the popup timings and at the end. */
  loadAvg: number[]
  cpus: number
}

const run = promisify(execFile)

async function build(): Promise<void> {
  await run(WXT, ['build'], { cwd: ROOT })
  await run(WXT, ['build', '--mode', 'bench'], { cwd: ROOT })
  const prod = await readFile(join(EXTENSION_DIR, 'background.js'), 'utf8')
  const bench = await readFile(join(BENCH_DIR, 'background.js'), 'utf8')
  if (prod.includes(BENCH_GLOBAL))
    throw new Error(`production background.js contains ${BENCH_GLOBAL}: the bench hooks were not tree-shaken`)
  if (!bench.includes(BENCH_GLOBAL)) throw new Error(`bench background.js lacks ${BENCH_GLOBAL}: the bench build flag did not apply`)
}

const gz = (b: Uint8Array) => gzipSync(b, { level: 9 }).length

/** Static imports of an ES module chunk (`import"./x.js"`, `from"./x.js"`), dynamic ones excluded. */
function staticImports(code: string): string[] {
  const out: string[] = []
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*)["']([^"']+\.js)["']/g)) if (m[1]) out.push(m[1])
  return out
}

/** The JS files popup.html loads: its module scripts and modulepreloads, plus their static imports. */
export async function popupJsFiles(dir: string): Promise<string[]> {
  const html = await readFile(join(dir, 'popup.html'), 'utf8')
  const queue: string[] = []
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) if (m[1]) queue.push(m[1])
  for (const m of html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) if (m[1]) queue.push(m[1])
  const seen = new Set<string>()
  while (queue.length > 0) {
    const ref = queue.shift()!
    const path = posix.normalize(ref.startsWith('/') ? ref : `/${ref}`)
    if (seen.has(path)) continue
    seen.add(path)
    const code = await readFile(join(dir, path), 'utf8')
    for (const imp of staticImports(code)) queue.push(imp.startsWith('/') ? imp : posix.join(posix.dirname(path), imp))
  }
  return [...seen]
}

async function sizeOf(dir: string, name: string, files: string[], target?: SizeRow['target']): Promise<SizeRow> {
  let raw = 0
  let gzip = 0
  for (const f of files) {
    const bytes = await readFile(join(dir, f))
    raw += bytes.length
    gzip += gz(bytes)
  }
  return { name, files, raw, gzip, ...(target ? { target } : {}) }
}

/** Open the popup in a new tab; its `sigil-interactive` mark and DOMContentLoaded end (ms since navigation start). */
async function openPopupTimed(ext: LaunchedExtension): Promise<PopupSample> {
  const page: Page = await ext.context.newPage()
  try {
    await page.setViewportSize({ width: 380, height: 600 })
    await page.goto(`chrome-extension://${ext.extensionId}/popup.html`)
    const handle = await page.waitForFunction((name) => performance.getEntriesByName(name, 'mark')[0]?.startTime, MARK, { timeout: 15_000 })
    const interactive = (await handle.jsonValue()) as number
    const state = await page.locator('#status').getAttribute('data-state')
    if (state !== 'ready') throw new Error(`popup became interactive in state ${state}, expected ready`)
    const domContentLoaded = await page.evaluate(
      () =>
        (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.domContentLoadedEventEnd ?? Number.NaN,
    )
    return { interactive, domContentLoaded }
  } finally {
    await page.close()
  }
}

type PopupSample = { interactive: number; domContentLoaded: number }

async function popupTimings(warmN: number, coldN: number): Promise<{ warm: PopupSample[]; cold: PopupSample[]; restarts: number }> {
  const ext = await launchExtension()
  try {
    await openPopupTimed(ext) // first open: compiles code, fills caches; not counted
    const warm: PopupSample[] = []
    for (let i = 0; i < warmN; i++) warm.push(await openPopupTimed(ext))

    // Playwright keeps its Worker object across a CDP stop, so follow the worker through CDP.
    const control = await ext.context.newPage()
    const cdp = await ext.context.newCDPSession(control)
    const running = new Map<string, string>()
    let restarts = 0
    cdp.on('ServiceWorker.workerVersionUpdated', (e) => {
      for (const v of e.versions) {
        if (!v.scriptURL.startsWith('chrome-extension://')) continue
        const before = running.get(v.versionId)
        if (before !== undefined && before !== 'running' && v.runningStatus === 'running') restarts++
        running.set(v.versionId, v.runningStatus)
      }
    })
    await cdp.send('ServiceWorker.enable')
    const allStopped = () => running.size > 0 && [...running.values()].every((st) => st === 'stopped')
    const cold: PopupSample[] = []
    for (let i = 0; i < coldN; i++) {
      await cdp.send('ServiceWorker.stopAllWorkers')
      const deadline = Date.now() + 5_000
      while (!allStopped()) {
        if (Date.now() > deadline) throw new Error('the service worker did not stop')
        await new Promise((r) => setTimeout(r, 5))
      }
      cold.push(await openPopupTimed(ext))
    }
    await cdp.detach()
    await control.close()
    return { warm, cold, restarts }
  } finally {
    await ext.close()
  }
}

async function workerTimings(samples: number, batch: number): Promise<{ stamp: number[]; decrypt: number[]; decryptImport: number[] }> {
  const ext = await launchExtension(BENCH_DIR)
  try {
    const call = (op: keyof SigilBenchHooks) =>
      ext.serviceWorker.evaluate(
        async ([o, n, b, g]) => {
          const hooks = (globalThis as unknown as Record<string, SigilBenchHooks | undefined>)[g]
          if (!hooks) throw new Error('bench hooks missing in the service worker')
          return (await hooks[o](n, b)).ms
        },
        [op, samples, batch, BENCH_GLOBAL] as const,
      )
    return { stamp: await call('stamp'), decrypt: await call('decrypt'), decryptImport: await call('decryptImport') }
  } finally {
    await ext.close()
  }
}

/** Build, launch, measure. */
export async function benchExtension(opts: BenchExtensionOptions = {}): Promise<ExtensionBench> {
  const warmN = Math.max(20, opts.warm ?? 30)
  const coldN = Math.max(20, opts.cold ?? 20)
  const swSamples = Math.max(20, opts.swSamples ?? 50)
  const swBatch = Math.max(1, opts.swBatch ?? 10)
  if (opts.build !== false) await build()
  try {
    if (!existsSync(join(BENCH_DIR, 'manifest.json'))) throw new Error(`bench build missing at ${BENCH_DIR}`)
    const sizes = [
      await sizeOf(EXTENSION_DIR, 'popup JS (files popup.html loads)', await popupJsFiles(EXTENSION_DIR), {
        bytes: TARGETS.popupJsGzipBytes,
        of: 'gzip',
      }),
      await sizeOf(EXTENSION_DIR, 'inpage script', ['/content-scripts/inpage.js'], { bytes: TARGETS.inpageBytes, of: 'raw' }),
    ]
    const loadBefore = loadavg()[0] ?? Number.NaN
    const popup = await popupTimings(warmN, coldN)
    const sw = await workerTimings(swSamples, swBatch)
    return {
      sizes,
      loadAvg: [loadBefore, loadavg()[0] ?? Number.NaN],
      cpus: cpus().length,
      coldRestarts: popup.restarts,
      coldRuns: coldN,
      timings: [
        { name: 'popup interactive, warm SW', samples: popup.warm.map((p) => p.interactive), target: TARGETS.popupWarmMs },
        { name: '  (of which DOMContentLoaded, warm)', samples: popup.warm.map((p) => p.domContentLoaded) },
        { name: 'popup interactive, stopped SW', samples: popup.cold.map((p) => p.interactive) },
        { name: '  (of which DOMContentLoaded, stopped)', samples: popup.cold.map((p) => p.domContentLoaded) },
        { name: `stamp in SW (WebCrypto, non-extractable), per op in batches of ${swBatch}`, samples: sw.stamp },
        { name: `bundle decrypt in SW (HPKE, non-extractable ECDH), per op in batches of ${swBatch}`, samples: sw.decrypt },
        { name: `bundle decrypt + key import in SW (login path), per op in batches of ${swBatch}`, samples: sw.decryptImport },
      ],
    }
  } finally {
    await rm(BENCH_DIR, { recursive: true, force: true })
  }
}

const kB = (b: number) => `${(b / 1000).toFixed(1)} kB`
const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED')

/** Format {@link benchExtension}'s results as text tables. */
export function formatExtensionBench(r: ExtensionBench): string {
  const tw = Math.max(4, ...r.timings.map((t) => t.name.length))
  const th = `${'timing'.padEnd(tw)}    n  median ms  p95 ms  target`
  const trows = r.timings.map((t) => {
    const s = [...t.samples].sort((a, b) => a - b)
    const med = percentile(s, 50)
    const p95 = percentile(s, 95)
    const target = t.target === undefined ? '' : `≤ ${t.target} ms (median ${verdict(med <= t.target)}, p95 ${verdict(p95 <= t.target)})`
    return `${t.name.padEnd(tw)}  ${String(s.length).padStart(3)}  ${med.toFixed(2).padStart(9)}  ${p95.toFixed(2).padStart(6)}  ${target}`
  })
  const sw = Math.max(4, ...r.sizes.map((s) => s.name.length))
  const sh = `${'size'.padEnd(sw)}  files       raw  gzip -9  target`
  const srows = r.sizes.map((s) => {
    const t = s.target
    const target = t ? `≤ ${kB(t.bytes)} ${t.of} (${verdict((t.of === 'raw' ? s.raw : s.gzip) <= t.bytes)})` : ''
    return `${s.name.padEnd(sw)}  ${String(s.files.length).padStart(5)}  ${kB(s.raw).padStart(8)}  ${kB(s.gzip).padStart(7)}  ${target}`
  })
  return [
    th,
    '-'.repeat(th.length),
    ...trows,
    '',
    sh,
    '-'.repeat(sh.length),
    ...srows,
    '',
    `interactive = first popup commit after the background's getStatus reply (mark '${MARK}', ms since navigation start; logged-out popup, production build).`,
    `stopped SW: ServiceWorker.stopAllWorkers, wait for 'stopped', then open; the worker restarted ${r.coldRestarts} times in ${r.coldRuns} cold opens.`,
    `machine: ${r.cpus} CPUs, 1-min load average ${r.loadAvg.map((l) => l.toFixed(2)).join(' → ')} over the run (other work on the machine inflates the popup timings).`,
    'SW crypto runs our src/crypto code in the `wxt build --mode bench` background (globalThis.__sigilBench; absent from the production build); performance.now() in the SW has ~0.1 ms resolution, hence batches; n counts batches.',
    `popup JS files: ${r.sizes[0]?.files.join(', ') ?? ''}`,
  ].join('\n')
}

/** What bench/run.ts prints for the `extension` section. */
export async function benchExtensionReport(opts: BenchExtensionOptions = {}): Promise<string> {
  return formatExtensionBench(await benchExtension(opts))
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchExtensionReport())
}
