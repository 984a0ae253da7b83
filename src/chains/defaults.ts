/**
 * Default accounts per address format, from the formats' facts (address-formats.md "Default
 * paths"), and the next default path after existing accounts (account index = last segment).
 * It reads the facts alone: the browser extension imports this module, which must load no address builder.
 */
import { chainError } from './errors.js'
import { HARDENED, formatPath, isHardened, parsePath } from './path.js'
import { FORMAT_FACTS } from './formats/facts.js'
import { ADDRESS_FORMATS, type AddressFormat, type Curve, isAddressFormat } from './types.js'

/** A default account for a format. */
export type DefaultAccount = { curve: Curve; path: string }

/** Default `{curve, path}` per format, from its facts; `undefined` for UNCOMPRESSED/COMPRESSED (path required). */
export const DEFAULT_ACCOUNTS: Record<AddressFormat, DefaultAccount | undefined> = Object.fromEntries(
  ADDRESS_FORMATS.map((f) => {
    const { curves, defaultPath } = FORMAT_FACTS[f]
    const curve = curves[0]
    return [f, defaultPath === undefined || curve === undefined ? undefined : { curve, path: defaultPath }]
  }),
) as Record<AddressFormat, DefaultAccount | undefined>

/**
 * The default path for `addressFormat` with the account index (last segment) one past the highest
 * index among `existingPaths` that share the default's prefix; the default itself when none do.
 */
export function nextDefaultPath(addressFormat: AddressFormat, existingPaths: readonly string[]): string {
  if (!isAddressFormat(addressFormat)) throw chainError('addressFormat', 'unknown address format')
  const def = DEFAULT_ACCOUNTS[addressFormat]
  if (!def) throw chainError('path', `${addressFormat} has no default path; a path is required`)
  const base = parsePath(def.path)
  const prefix = base.slice(0, -1)
  const last = base[base.length - 1] ?? 0
  const hardened = isHardened(last)
  let max = -1
  for (const p of existingPaths) {
    let idx: number[]
    try {
      idx = parsePath(p)
    } catch {
      continue
    }
    if (idx.length !== base.length || !prefix.every((v, i) => idx[i] === v)) continue
    const tail = idx[idx.length - 1] ?? 0
    if (isHardened(tail) !== hardened) continue
    max = Math.max(max, hardened ? tail - HARDENED : tail)
  }
  const next = max + 1
  if (next > HARDENED - 1) throw chainError('path', 'no account index left')
  return formatPath([...prefix, hardened ? next + HARDENED : next])
}
