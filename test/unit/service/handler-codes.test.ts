import { readFileSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ERROR_TABLE } from '../../../src/api/errors.js'

/**
 * Each handler documents the codes it can fail with, one `@throws CODE when …` line per
 * code in the doc comment above its export. This reads each handler file's source: every code it
 * throws itself must have a `@throws` line in that file, and every `@throws` must name a code of
 * the one error table. Codes thrown by shared helpers cannot be read here; the lines document them
 * too, by hand.
 */

const ROOT = new URL('../../../', import.meta.url)

/** Handler folders and the files in them that are not handlers. */
const FOLDERS = [
  { dir: 'src/service/activities', notHandlers: ['engine.ts', 'index.ts', 'types.ts'] },
  { dir: 'src/service/queries', notHandlers: ['index.ts', 'types.ts'] },
]

/** The one error table. */
function errorTable(): Record<string, unknown> {
  return ERROR_TABLE
}

/** Throw sites whose code the source shows: the literal first argument, or the helper's fixed code. */
const THROW_SITES: ReadonlyArray<{ pattern: RegExp; code?: string }> = [
  { pattern: /\bSigilError\(\s*'([A-Z0-9_]+)'/g },
  { pattern: /\bfieldError\(\s*'([A-Z0-9_]+)'/g },
  { pattern: /\binvalidField\(/g, code: 'INVALID_ARGUMENT' },
  { pattern: /\bchainError2?\(/g, code: 'INVALID_ARGUMENT' },
]
/** A `SigilError(` or `fieldError(` whose code is not a string literal: this test cannot read it. */
const UNREADABLE_SITE = /\b(?:SigilError|fieldError)\((?!\s*')/g
const THROWS_LINE = /^\s*\* @throws\b.*$/gm
const THROWS_FORM = /^\s*\* @throws ([A-Z][A-Z0-9_]*) when \S/

/** The source without comments (block comments and whole-line `//` comments). */
function code(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
}

/** The codes the source throws itself, and the throw sites whose code it cannot read. */
function directCodes(source: string): { codes: Set<string>; unreadable: string[] } {
  const body = code(source)
  const codes = new Set<string>()
  for (const { pattern, code: fixed } of THROW_SITES) {
    for (const m of body.matchAll(pattern)) codes.add(fixed ?? (m[1] as string))
  }
  const unreadable = [...body.matchAll(UNREADABLE_SITE)].map((m) => body.slice(m.index, m.index + 60).split('\n')[0] as string)
  return { codes, unreadable }
}

/** The `@throws` lines of the source: each line's code, or the line itself when it is not `* @throws CODE when …`. */
function documentedCodes(source: string): { codes: Set<string>; malformed: string[] } {
  const codes = new Set<string>()
  const malformed: string[] = []
  for (const [line] of source.matchAll(THROWS_LINE)) {
    const m = THROWS_FORM.exec(line)
    if (m) codes.add(m[1] as string)
    else malformed.push(line.trim())
  }
  return { codes, malformed }
}

/** What is wrong with one handler file's `@throws` lines; empty when nothing is. */
function problems(file: string, source: string, table: Record<string, unknown>): string[] {
  const thrown = directCodes(source)
  const documented = documentedCodes(source)
  const out: string[] = []
  if (!/^export const handler\w*\b/m.test(source)) out.push(`${file}: exports no handler (add it to notHandlers if it is not one)`)
  for (const site of thrown.unreadable) out.push(`${file}: cannot read the code of \`${site}\`; pass the code as a string literal`)
  for (const line of documented.malformed) out.push(`${file}: malformed line \`${line}\`; write \` * @throws CODE when …\``)
  if (documented.codes.size === 0 && documented.malformed.length === 0 && thrown.codes.size > 0) {
    out.push(`${file}: throws ${[...thrown.codes].join(', ')} but has no @throws line`)
  } else {
    for (const c of thrown.codes) if (!documented.codes.has(c)) out.push(`${file}: throws ${c} but no @throws ${c} line documents it`)
  }
  for (const c of documented.codes)
    if (!(c in table)) out.push(`${file}: @throws ${c} is not a code of the error table (src/api/errors.ts)`)
  return out
}

const HANDLER_FILES = FOLDERS.flatMap(({ dir, notHandlers }) =>
  readdirSync(new URL(`${dir}/`, ROOT))
    .filter((f) => f.endsWith('.ts') && !notHandlers.includes(f))
    .sort()
    .map((f) => `${dir}/${f}`),
)

describe('handler @throws lines', () => {
  it('finds the handler files', () => {
    expect(HANDLER_FILES.filter((f) => f.startsWith('src/service/activities/')).length).toBeGreaterThan(30)
    expect(HANDLER_FILES.filter((f) => f.startsWith('src/service/queries/')).length).toBeGreaterThan(10)
  })

  it('reads throw sites and @throws lines (comments are not throw sites)', () => {
    const source = [
      "import { SigilError, fieldError, invalidField } from '../../api/errors.js'",
      '/**',
      " * Fails with `SigilError('BUNDLE_INVALID', …)` through a helper.",
      ' *',
      ' * @throws NOT_FOUND when parameters.walletId names no wallet of the organization',
      ' * @throws not a code',
      ' */',
      'export const handler = async () => {',
      "  // throw new SigilError('OTP_EXPIRED', 'commented out')",
      "  if (a) throw new SigilError('FAILED_PRECONDITION', 'x')",
      "  if (b) throw fieldError('NOT_FOUND', 'parameters.walletId', 'no such wallet')",
      "  if (c) throw invalidField('parameters.name', 'required')",
      '  throw new SigilError(code, message)',
      '}',
    ].join('\n')
    const thrown = directCodes(source)
    expect([...thrown.codes].sort()).toEqual(['FAILED_PRECONDITION', 'INVALID_ARGUMENT', 'NOT_FOUND'])
    expect(thrown.unreadable).toEqual(['SigilError(code, message)'])
    expect(documentedCodes(source)).toEqual({ codes: new Set(['NOT_FOUND']), malformed: ['* @throws not a code'] })
  })

  it.each(HANDLER_FILES)('%s documents every code it throws, with codes of the error table', (file) => {
    const source = readFileSync(new URL(file, ROOT), 'utf8')
    expect(problems(file, source, errorTable())).toEqual([])
  })
})
