/**
 * SQL lives only in src/service/store/: outside it, the service calls typed store
 * functions and never runs a statement itself. This scans every TypeScript file of src/service
 * outside store/ (comments ignored, string and template literals read) and fails on a `.query(`
 * call, a database `.exec(` call or a string that reads as SQL.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const REPO = fileURLToPath(new URL('../../../', import.meta.url))
const SERVICE = join(REPO, 'src/service')
const STORE = join(SERVICE, 'store')

/** Shapes of SQL statements and clauses. */
const SQL_SHAPES: RegExp[] = [
  /\bSELECT\b[\s\S]*\bFROM\b/,
  /\bselect\s+(\*|[\w.]+(\s*,\s*[\w.*]+)*)\s+from\s+\w/i,
  /\bSELECT\s+(\d|\*|count\s*\(|pg_|exists\s*\(|\$\d)/i,
  /\binsert\s+into\s+\w+\s*(\(|values\b|select\b|default\b)/i,
  /\bupdate\s+\w+\s+set\s+\w+\s*=/i,
  /\bdelete\s+from\s+\w+(\s+\w+)?\s*(where\b|returning\b|using\b|;|$)/i,
  /\bwith\s+recursive\b/i,
  /\bon\s+conflict\s*(\(|do\b|on\b)/i,
  /\bRETURNING\s+(\*|\w+\s*(,|$))/,
  /\bFOR\s+(UPDATE|SHARE)\b/,
  /\b(SAVEPOINT|ROLLBACK|BEGIN|COMMIT|VACUUM|CHECKPOINT)\b/,
  /\b(create|alter|drop|truncate)\s+(table|index|database|schema|sequence)\b/i,
  /\bpg_[a-z_]+\s*\(/i,
  /\bWHERE\s+[\w.()]+\s*(=|<>|<|>|\bIN\b|\bANY\b|\bIS\b|\bLIKE\b)/i,
  /\$\d+::[a-z]+/i,
  /(=|<>|<|>|\bANY\s*\(|\bIN\s*\(|\blower\s*\()\s*\$\d+\b/i,
]

/** A receiver that is a database handle (`db`, `tx`, `rt.db`, `ctx.tx`, `pool`, …), not a RegExp. */
const DATABASE_RECEIVER = /(^|\.)(db|tx|sql|pg|pool|client|database|conn|connection)$/i

type Finding = { line: number; what: string }

/** What in this TypeScript source runs or spells SQL. */
function sqlFindings(fileName: string, source: string): Finding[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX)
  const findings: Finding[] = []
  const at = (node: ts.Node, what: string) =>
    findings.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, what })
  const checkText = (node: ts.Node, text: string) => {
    const shape = SQL_SHAPES.find((re) => re.test(text))
    if (shape) at(node, `SQL text ${JSON.stringify(text.trim().slice(0, 80))} (${shape})`)
  }
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text
      const receiver = node.expression.expression
      if (method === 'query') at(node, `.query( call on ${receiver.getText(file)}`)
      if (method === 'exec' && !ts.isRegularExpressionLiteral(receiver) && DATABASE_RECEIVER.test(receiver.getText(file))) {
        at(node, `.exec( call on ${receiver.getText(file)}`)
      }
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) checkText(node, node.text)
    if (ts.isTemplateExpression(node)) {
      // Each `${…}` reads as `1`: `$${n}` stays a parameter, `SELECT ${cols} FROM` a statement.
      checkText(node, [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('1'))
      for (const span of node.templateSpans) visit(span.expression)
      return
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return findings
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return tsFiles(path)
    return /\.tsx?$/.test(e.name) ? [path] : []
  })
}

describe('SQL only in src/service/store/', () => {
  it('no file of src/service outside store/ runs a query or spells SQL', () => {
    const outside = tsFiles(SERVICE).filter((f) => !f.startsWith(`${STORE}/`))
    expect(outside.length).toBeGreaterThan(50)
    const found = outside.flatMap((f) => sqlFindings(f, readFileSync(f, 'utf8')).map((x) => `${relative(REPO, f)}:${x.line}: ${x.what}`))
    expect(found, 'move these behind a typed function in src/service/store/<table>.ts').toEqual([])
  })

  it('the scan finds what it looks for (every store module with SQL trips it)', () => {
    const withSql = tsFiles(STORE).filter((f) => /\.query\(/.test(readFileSync(f, 'utf8')))
    expect(withSql.length).toBeGreaterThan(10)
    for (const f of withSql) expect(sqlFindings(f, readFileSync(f, 'utf8')).length, relative(REPO, f)).toBeGreaterThan(0)
  })

  it('tells SQL from code and prose', () => {
    const lines = (src: string) => sqlFindings('x.ts', src).map((f) => f.line)
    expect(lines("await ctx.tx.query('DELETE FROM users WHERE id = $1', [id])")).toEqual([1, 1])
    expect(lines('await rt.db.exec(script)')).toEqual([1])
    expect(lines('const q = `SELECT ${cols} FROM t`')).toEqual([1])
    expect(lines("const s = 'SAVEPOINT x'")).toEqual([1])
    expect(lines("const f = 'lower(o.name) = lower($2)'")).toEqual([1])
    expect(lines('const g = `status = ANY($${n}::text[])`')).toEqual([1])
    expect(lines("const w = 'EXISTS (SELECT 1 FROM users u WHERE u.id = $2)'")).toEqual([1])
    // Not SQL: a RegExp's exec, comments, error messages, transactions.
    expect(lines('const m = /^a(b)$/.exec(value)')).toEqual([])
    expect(lines('const m = PATTERN.exec(value)')).toEqual([])
    expect(lines('// SELECT * FROM users\n/* DELETE FROM users */')).toEqual([])
    expect(lines("throw invalidField('parameters.userId', 'select a user from the organization first')")).toEqual([])
    expect(lines("throw new Error('the update failed: the wallet is gone')")).toEqual([])
    expect(lines('await rt.db.transaction(async (tx) => handler(tx))')).toEqual([])
  })
})
