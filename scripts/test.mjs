#!/usr/bin/env node
// The one test command (README): type check, lint and format (Biome), both extension builds, unit and
// integration tests on the default embedded PostgreSQL (the engine-dependent part again on PGlite, the
// whole suite again on an external PostgreSQL when SIGIL_TEST_DATABASE_URL is set),
// then the Chromium end-to-end suite and the Firefox one (web-ext lint included). Ends with one line `N passed, N failed`
// totalling every runner, so CI can tell a run that tested nothing.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'

const tmp = '.tmp'
mkdirSync(tmp, { recursive: true })
const totals = { passed: 0, failed: 0, skipped: 0 }
const rows = []
/** Failed tests by runner, repeated at the end so the last lines of a long log name them. */
const failures = []

function run(cmd, args, env = {}) {
  const started = Date.now()
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  return { ok: r.status === 0, ms: Date.now() - started }
}

/** A step that is one check: it passes or fails as a whole. */
function check(name, cmd, args) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`)
  const { ok, ms } = run(cmd, args)
  totals[ok ? 'passed' : 'failed'] += 1
  rows.push([name, ok ? 1 : 0, ok ? 0 : 1, 0, ms])
}

/** A vitest run: counts come from its JSON report. */
function vitest(name, projects, env = {}, files = []) {
  const out = `${tmp}/vitest-${name}.json`
  rmSync(out, { force: true })
  const args = [
    'vitest',
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
    ...files,
  ]
  console.log(`\n=== ${name}: npx ${args.join(' ')}`)
  const { ok, ms } = run('npx', args, env)
  let passed = 0,
    failed = 0,
    skipped = 0
  try {
    const report = JSON.parse(readFileSync(out, 'utf8'))
    passed = report.numPassedTests
    failed = report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0)
    skipped = report.numPendingTests + report.numTodoTests
    if (!ok && failed === 0) failed = 1 // a crash outside any test still fails the run
    for (const file of report.testResults ?? []) {
      const where = String(file.name ?? '').replace(`${process.cwd()}/`, '')
      for (const t of file.assertionResults ?? []) {
        if (t.status !== 'failed') continue
        const why = String(t.failureMessages?.[0] ?? '')
          .split('\n')[0]
          .slice(0, 300)
        failures.push(`${name}: ${where} > ${t.fullName ?? t.title}\n    ${why}`)
      }
      if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed')) {
        failures.push(
          `${name}: ${where} (the file failed outside its tests)\n    ${String(file.message ?? '')
            .split('\n')[0]
            .slice(0, 300)}`,
        )
      }
    }
  } catch {
    failed = 1 // no report: the runner itself failed
  }
  totals.passed += passed
  totals.failed += failed
  totals.skipped += skipped
  rows.push([name, passed, failed, skipped, ms])
}

check('typecheck', 'npx', ['tsc', '--noEmit'])
check('lint', 'npx', ['biome', 'ci', '.'])
check('build-chrome', 'npx', ['wxt', 'build'])
check('build-firefox', 'npx', ['wxt', 'build', '-b', 'firefox'])
vitest('unit+integration', ['unit', 'integration'])
// Again on PGlite (SIGIL_DATABASE=pglite), the embedded engine that is not the default: the tests of what
// differs by engine (its driver, statement cache and worker, storage, backup, crash and restart) and
// one pass through each main path (activities, consensus, signing, sends, webhooks, policies, auth).
// The SQL is the same PostgreSQL, so the rest of the suite would repeat the default run (it took 19 min).
const PGLITE_FILES = [
  'store.',
  'backup',
  'service.',
  'wallets',
  'security.',
  'sends.crash',
  'sends.test',
  'webhooks.crash',
  'webhooks.test',
  'policies.test',
  'auth.otp',
  'pagination',
  'versions',
].map((f) => `test/integration/${f}`)
vitest('integration-pglite', ['integration'], { SIGIL_DATABASE: 'pglite' }, PGLITE_FILES)
vitest('fuzz', ['fuzz'])
if (process.env.SIGIL_TEST_DATABASE_URL) {
  vitest('integration-postgres', ['integration'], { DATABASE_URL: process.env.SIGIL_TEST_DATABASE_URL })
  vitest('fuzz-postgres', ['fuzz'], { DATABASE_URL: process.env.SIGIL_TEST_DATABASE_URL })
}
vitest('e2e', ['e2e'])
vitest('e2e-firefox', ['e2e-firefox'])

if (failures.length) {
  console.log('\nfailed tests:')
  for (const f of failures) console.log(`  ${f}`)
}
console.log('\nrunner                 passed  failed  skipped  seconds')
for (const [name, p, f, s, ms] of rows) {
  console.log(
    `${name.padEnd(22)} ${String(p).padStart(6)}  ${String(f).padStart(6)}  ${String(s).padStart(7)}  ${(ms / 1000).toFixed(1).padStart(7)}`,
  )
}
console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`)
process.exit(totals.failed === 0 ? 0 : 1)
