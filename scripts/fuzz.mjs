#!/usr/bin/env node
// Long fuzz runs: `npm run fuzz -- --minutes N [--seed S]` runs the fuzz suite (test/fuzz) with a
// time budget of N minutes instead of the default ~25 s it gets inside `npm test`.
// Set DATABASE_URL to fuzz against PostgreSQL.
import { spawnSync } from 'node:child_process'

const args = process.argv.slice(2)
function option(name) {
  const i = args.indexOf(`--${name}`)
  if (i >= 0) return args[i + 1]
  const eq = args.find((a) => a.startsWith(`--${name}=`))
  return eq?.slice(name.length + 3)
}

const minutes = Number(option('minutes') ?? 1)
if (!Number.isFinite(minutes) || minutes <= 0) {
  console.error('usage: npm run fuzz -- --minutes N [--seed S]')
  process.exit(2)
}
const env = { ...process.env, FUZZ_BUDGET_MS: String(Math.round(minutes * 60_000)) }
const seed = option('seed')
if (seed !== undefined) env.FUZZ_SEED = seed
console.log(`fuzz: ${minutes} minute(s)${seed !== undefined ? `, seed ${seed}` : ''}`)
const r = spawnSync('npx', ['vitest', 'run', '--project', 'fuzz'], { stdio: 'inherit', env })
process.exit(r.status ?? 1)
