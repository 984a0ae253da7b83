import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { DumpEvent } from '../../../src/service/store/copy.js'
import { readDump } from '../../../src/service/store/dumpFile.js'

const dump = (text: string) => new Uint8Array(gzipSync(Buffer.from(text, 'utf8')))
async function events(bytes: Uint8Array): Promise<DumpEvent[]> {
  const out: DumpEvent[] = []
  for await (const e of readDump(bytes)) out.push(e)
  return out
}

describe('dump files (backup format 2)', () => {
  it('reads rows as the exact text written (64-bit values keep every digit), batched per table', async () => {
    const big = '{"id":"a","n":9007199254740993,"b":"\\\\x00ff"}'
    const text = `{"kind":"schema","version":17}\nT\tusers\nR\t${big}\nR\t{"id":"b","n":1,"b":null}\nE\tusers\t2\nT\tempty\nE\tempty\t0\nS\t[{"name":"s","last":"42","called":true}]\n`
    expect(await events(dump(text))).toEqual([
      { kind: 'schema', version: 17 },
      { kind: 'table', name: 'users' },
      { kind: 'rows', name: 'users', rows: [big, '{"id":"b","n":1,"b":null}'] },
      { kind: 'end-table', name: 'users', count: 2 },
      { kind: 'table', name: 'empty' },
      { kind: 'end-table', name: 'empty', count: 0 },
      { kind: 'sequences', sequences: [{ name: 's', last: '42', called: true }] },
    ])
  })

  it('splits a large table into batches of 1,000 rows', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => `R\t{"i":${i}}`).join('\n')
    const got = await events(dump(`{"kind":"schema","version":1}\nT\tt\n${rows}\nE\tt\t2500\nS\t[]\n`))
    expect(got.filter((e) => e.kind === 'rows').map((e) => (e.kind === 'rows' ? e.rows.length : 0))).toEqual([1000, 1000, 500])
  })

  it.each([
    ['not gzip', new Uint8Array([1, 2, 3]), /not gzip data/],
    ['no schema line', dump('T\tusers\n'), /line 1: expected the schema version/],
    ['a row outside any table', dump('{"kind":"schema","version":1}\nR\t{}\n'), /line 2: a row outside any table/],
    ['an unknown line', dump('{"kind":"schema","version":1}\nX\tboom\n'), /line 2: unknown line kind "X"/],
    ['a table end naming another table', dump('{"kind":"schema","version":1}\nT\ta\nE\tb\t0\n'), /line 3: a malformed table end/],
    ['a table inside a table', dump('{"kind":"schema","version":1}\nT\ta\nT\tb\n'), /line 3: table b starts before a ends/],
    ['malformed sequences', dump('{"kind":"schema","version":1}\nS\t[{"name":1}]\n'), /line 2: malformed sequences/],
  ])('refuses %s with the line it found', async (_, bytes, message) => {
    await expect(events(bytes)).rejects.toThrow(message)
  })
})
