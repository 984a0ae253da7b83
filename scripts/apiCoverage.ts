/**
 * Which of the hosted service's public paths Sigil serves: the paths and the activity
 * `type` each submit method of `@turnkey/http` sends, read from its generated OpenAPI types with the
 * TypeScript parser, set beside Sigil's registry.
 *
 * `npm run coverage:api` prints the table and the count; `test/unit/api/clientCoverage.test.ts`
 * checks that every path Sigil serves accepts the type the official client sends on it.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import ts from 'typescript'
import { queryByPath, submitByPath } from '../src/api/registry.js'

/** One public path of the hosted service. */
export type HostedPath = {
  path: string
  kind: 'submit' | 'query' | 'other'
  /** The activity type the client's request body declares (submit paths). */
  type?: string
  /** The summary line of the OpenAPI document. */
  summary: string
}

/** Families Sigil leaves out on purpose (README "What Sigil does not serve"). */
export const OUT_OF_SCOPE: readonly { family: string; why: string; match: (path: string) => boolean }[] = [
  { family: 'billing', why: 'no billing in a self-hosted service', match: (p) => /billing|payment_method|subscription/.test(p) },
  { family: 'TVC', why: 'Turnkey Verifiable Cloud apps run on Turnkey enclaves', match: (p) => /tvc/.test(p) },
  { family: 'earn', why: 'a hosted yield product', match: (p) => /earn/.test(p) },
  { family: 'swap', why: 'a hosted swap product with third-party quotes', match: (p) => /swap/.test(p) },
  { family: 'spark', why: 'Spark (Bitcoin L2) signing is not a chain Sigil supports', match: (p) => /spark/.test(p) },
  { family: 'internal', why: "the hosted service's own code-generation and operations paths", match: (p) => p.startsWith('/tkhq/') },
]

function typesFile(): string {
  const require = createRequire(import.meta.url)
  // The package's main entry is dist/index.js; its exports map hides package.json.
  const dist = dirname(require.resolve('@turnkey/http'))
  return join(dist, '__generated__/services/coordinator/public/v1/public_api.types.d.ts')
}

/** The members of `export type <name> = { … }`, by property name. */
function typeMembers(sf: ts.SourceFile, name: string): Map<string, ts.PropertySignature> {
  const out = new Map<string, ts.PropertySignature>()
  for (const st of sf.statements) {
    if (!ts.isTypeAliasDeclaration(st) || st.name.text !== name || !ts.isTypeLiteralNode(st.type)) continue
    for (const m of st.type.members) if (ts.isPropertySignature(m) && m.name) out.set(propName(m.name), m)
  }
  return out
}

function propName(n: ts.PropertyName): string {
  return ts.isIdentifier(n) || ts.isStringLiteral(n) ? n.text : n.getText()
}

function literalMembers(t: ts.TypeNode | undefined): Map<string, ts.PropertySignature> {
  const out = new Map<string, ts.PropertySignature>()
  if (t && ts.isTypeLiteralNode(t)) for (const m of t.members) if (ts.isPropertySignature(m) && m.name) out.set(propName(m.name), m)
  return out
}

/** `X["key"]` → key. */
function indexKey(t: ts.TypeNode | undefined): string | undefined {
  if (!t || !ts.isIndexedAccessTypeNode(t) || !ts.isLiteralTypeNode(t.indexType)) return undefined
  const lit = t.indexType.literal
  return ts.isStringLiteral(lit) ? lit.text : undefined
}

/** Every public path of the hosted service, with the type its submit body declares. */
export function hostedPaths(file = typesFile()): HostedPath[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const paths = typeMembers(sf, 'paths')
  const operations = typeMembers(sf, 'operations')
  const definitions = typeMembers(sf, 'definitions')
  const out: HostedPath[] = []
  for (const [path, member] of paths) {
    const post = literalMembers(member.type).get('post')
    const opName = indexKey(post?.type)
    const summary = (post ? ts.getJSDocCommentsAndTags(post) : [])
      .map((d) => (typeof d.comment === 'string' ? d.comment : ''))
      .join(' ')
      .split('\n')[0] as string
    const kind = path.startsWith('/public/v1/submit/') ? 'submit' : path.startsWith('/public/v1/query/') ? 'query' : 'other'
    const entry: HostedPath = { path, kind, summary }
    if (opName) {
      const body = literalMembers(literalMembers(literalMembers(operations.get(opName)?.type).get('parameters')?.type).get('body')?.type)
      const defName = indexKey(body.get('body')?.type)
      const typeProp = defName ? literalMembers(definitions.get(defName)?.type).get('type') : undefined
      if (typeProp?.type && ts.isLiteralTypeNode(typeProp.type) && ts.isStringLiteral(typeProp.type.literal))
        entry.type = typeProp.type.literal.text
    }
    out.push(entry)
  }
  return out
}

/** One row of the coverage table. */
export type CoverageRow = HostedPath & {
  served: boolean
  /** For served submit paths: whether the type the client sends is accepted there. */
  typeAccepted?: boolean
  outOfScope?: string
}

export function coverage(hosted = hostedPaths()): CoverageRow[] {
  return hosted.map((h) => {
    const submit = submitByPath.get(h.path)
    const served = Boolean(submit) || queryByPath.has(h.path)
    const row: CoverageRow = { ...h, served }
    if (submit && h.type) row.typeAccepted = submit.some((d) => d.type === h.type)
    const family = OUT_OF_SCOPE.find((f) => f.match(h.path))
    if (family) row.outOfScope = family.family
    return row
  })
}

function main(): void {
  const rows = coverage()
  const served = rows.filter((r) => r.served)
  const mismatched = rows.filter((r) => r.typeAccepted === false)
  const outOfScope = rows.filter((r) => !r.served && r.outOfScope)
  const missing = rows.filter((r) => !r.served && !r.outOfScope)
  const verbose = process.argv.includes('--all')
  for (const r of rows) {
    if (!verbose && r.served && r.typeAccepted !== false) continue
    const mark = r.served ? (r.typeAccepted === false ? 'TYPE' : 'ok  ') : r.outOfScope ? 'skip' : '----'
    console.log(`${mark} ${r.path}${r.type ? ` (${r.type})` : ''}${r.outOfScope ? ` [${r.outOfScope}]` : ''}`)
  }
  console.log('')
  console.log(`hosted public paths: ${rows.length}`)
  console.log(`served by Sigil:     ${served.length}`)
  console.log(`  of which the client's activity type is refused: ${mismatched.length}`)
  console.log(`left out on purpose: ${outOfScope.length} (${OUT_OF_SCOPE.map((f) => f.family).join(', ')})`)
  console.log(`not served yet:      ${missing.length}`)
}

if (import.meta.url === `file://${process.argv[1]}`) main()
