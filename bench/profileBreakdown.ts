/**
 * Where the service's CPU time goes: reads a V8 `.cpuprofile` written by the bench's
 * service process (`SIGIL_BENCH_PROFILE=<dir> npx tsx bench/service-sign.ts`) and prints self time by
 * category — HTTP, stamp verification, zod, policy, the handler's crypto, SQL (PGlite's WASM or `pg`),
 * JSON, logging, GC and idle — as shares of the busy time. A category is the first rule in `RULES`
 * that matches a frame of the sample's stack (priority order). Samples before the first activity
 * (module loading, migrations) are left out.
 *
 * Run: `npx tsx bench/profileBreakdown.ts /tmp/prof/CPU.*.cpuprofile`
 */
import { readFileSync } from 'node:fs'

type Node = { id: number; callFrame: { functionName: string; url: string }; children?: number[] }
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] }

/**
 * [category, test on "functionName url"] in priority order: a sample belongs to the first rule that
 * matches any frame of its stack (so P-256 math under the stamp check counts as stamp verification,
 * and the HTTP layer only gets what nothing more specific claims).
 */
const RULES: Array<[string, RegExp]> = [
  ['(idle)', /^\(idle\) /],
  ['(gc)', /^\(garbage collector\) /],
  ['(program: V8/native, unattributed)', /^\(program\) /],
  ['SQL: PGlite (WASM + its JS)', /@electric-sql\/pglite|wasm:\/\//],
  ['SQL: pg driver', /node_modules\/(pg|pg-protocol|pg-pool)\//],
  ['zod validation', /node_modules\/zod\//],
  ['stamp verification (P-256)', /src\/crypto\/(verifyStamp|verifyStampAsync|ecdsa)\.ts|src\/service\/auth\/authenticate\.ts/],
  [
    'handler crypto (keys, derive, sign)',
    /src\/chains\/|src\/service\/chains\/seed|src\/service\/keys\.ts|src\/service\/store\/secrets\.ts|src\/crypto\/appProof/,
  ],
  ['policy engine', /src\/service\/policy\//],
  ['webhooks', /src\/service\/webhooks\//],
  ['logging', /src\/service\/logger\.ts/],
  ['store (SQL text, rows → wire)', /src\/service\/store\//],
  ['activity engine + handlers', /src\/service\/activities\//],
  ['response building (queries, wire)', /src\/service\/queries\/|src\/service\/http\/(dispatch|respond|errors)/],
  ['HTTP (node:http, hono, body)', /node:_http|node:http|node:net|node:stream|@hono\/|node_modules\/hono\/|src\/service\/http\//],
]

const files = process.argv.slice(2)
if (files.length === 0) {
  console.error('usage: npx tsx bench/profileBreakdown.ts <file.cpuprofile>…')
  process.exit(2)
}
const totals = new Map<string, number>()
let all = 0
for (const file of files) {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const category = new Map<number, string>()
  const stackOf = (id: number): string[] => {
    const out: string[] = []
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = (byId.get(cur) as Node).callFrame
      out.push(`${f.functionName} ${f.url}`)
    }
    return out
  }
  const classify = (id: number): string => {
    const known = category.get(id)
    if (known) return known
    const stack = stackOf(id)
    const rule = RULES.find(([, re]) => stack.some((k) => re.test(k)))
    const found = rule ? rule[0] : 'other (timers, promises, tsx, node internals)'
    category.set(id, found)
    return found
  }
  // Start-up (module loading, migrations) is not the request path: count from the first activity on.
  const first = p.samples.findIndex((id) => stackOf(id).some((k) => k.includes('src/service/activities/engine.ts')))
  p.samples.forEach((id, i) => {
    if (i < first) return
    const dt = p.timeDeltas[i] ?? 0
    const c = classify(id)
    totals.set(c, (totals.get(c) ?? 0) + dt)
    all += dt
  })
}
const busy = all - (totals.get('(idle)') ?? 0)
console.log(`profile: ${(all / 1e6).toFixed(2)} s sampled, ${(busy / 1e6).toFixed(2)} s busy\n`)
console.log('category                              busy share   ms')
for (const [c, us] of [...totals].sort((a, b) => b[1] - a[1])) {
  if (c === '(idle)') continue
  console.log(`${c.padEnd(38)} ${((us / busy) * 100).toFixed(1).padStart(9)}%  ${(us / 1000).toFixed(0).padStart(6)}`)
}
