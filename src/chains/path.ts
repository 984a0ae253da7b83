/**
 * Strict BIP-32 path parsing (address-formats.md: PATH_FORMAT_BIP32).
 * `m` followed by `/`-separated decimal indices, each optionally hardened with `'` or `h`.
 */
import { chainError } from './errors.js'

/** BIP-32 hardened offset 2^31. */
export const HARDENED = 0x80000000

const SEGMENT_RE = /^(0|[1-9][0-9]*)(['h])?$/

/** Parses `m/44'/60'/0'/0/0` into indices (hardened ones offset by 2^31); errors name `path`. */
export function parsePath(path: string): number[] {
  if (typeof path !== 'string') throw chainError('path', 'must be a string')
  const parts = path.split('/')
  if (parts[0] !== 'm') throw chainError('path', "must start with 'm'")
  if (parts.length > 256) throw chainError('path', 'too deep')
  const out: number[] = []
  for (const seg of parts.slice(1)) {
    const match = SEGMENT_RE.exec(seg)
    if (!match || match[1] === undefined) throw chainError('path', `invalid segment '${seg.slice(0, 16)}'`)
    if (match[1].length > 10) throw chainError('path', 'index out of range')
    const n = Number(match[1])
    if (n > HARDENED - 1) throw chainError('path', 'index out of range (max 2^31-1)')
    out.push(match[2] === undefined ? n : n + HARDENED)
  }
  return out
}

/** True when an index is hardened. */
export function isHardened(index: number): boolean {
  return index >= HARDENED
}

/** Formats indices back to `m/…` with `'` for hardened segments. */
export function formatPath(indices: readonly number[]): string {
  return ['m', ...indices.map((i) => (isHardened(i) ? `${i - HARDENED}'` : `${i}`))].join('/')
}
