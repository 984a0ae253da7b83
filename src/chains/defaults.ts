/**
 * Default account paths per address format (address-formats.md "Default paths"), and the
 * next default path after existing accounts (account index = last segment).
 */
import { chainError } from './errors.js'
import { HARDENED, formatPath, isHardened, parsePath } from './path.js'
import { ADDRESS_FORMATS, type AddressFormat, type BitcoinAddressType, type Curve, bitcoinFormatParts, isAddressFormat } from './types.js'

/** A default account for a format. */
export type DefaultAccount = { curve: Curve; path: string }

const S: Curve = 'CURVE_SECP256K1'
const E: Curve = 'CURVE_ED25519'

/** Default path per Bitcoin address type, for coin type `coin` (0' mainnet, 1' the test networks). */
const BITCOIN_PATHS: Record<BitcoinAddressType, (coin: string) => string> = {
  P2PKH: (coin) => `m/44'/${coin}/0'/0/0`,
  P2SH: (coin) => `m/44'/${coin}/0'/0/0`,
  P2WPKH: (coin) => `m/84'/${coin}/0'/0/0`,
  P2WSH: (coin) => `m/48'/${coin}/0'/2'/0/0`,
  P2TR: (coin) => `m/86'/${coin}/0'/0/0`,
}

function bitcoinDefault(format: string): DefaultAccount | undefined {
  const parts = bitcoinFormatParts(format)
  if (!parts) return undefined
  return { curve: S, path: BITCOIN_PATHS[parts.type](parts.network === 'MAINNET' ? "0'" : "1'") }
}

const FIXED: Partial<Record<AddressFormat, DefaultAccount>> = {
  ADDRESS_FORMAT_ETHEREUM: { curve: S, path: "m/44'/60'/0'/0/0" },
  ADDRESS_FORMAT_COSMOS: { curve: S, path: "m/44'/118'/0'/0/0" },
  ADDRESS_FORMAT_SOLANA: { curve: E, path: "m/44'/501'/0'/0'" },
  ADDRESS_FORMAT_TRON: { curve: S, path: "m/44'/195'/0'" },
  ADDRESS_FORMAT_SUI: { curve: E, path: "m/44'/784'/0'/0'/0'" },
  ADDRESS_FORMAT_APTOS: { curve: E, path: "m/44'/637'/0'/0'/0'" },
  ADDRESS_FORMAT_DOGE_MAINNET: { curve: S, path: "m/44'/3'/0'/0/0" },
  ADDRESS_FORMAT_DOGE_TESTNET: { curve: S, path: "m/44'/3'/0'/0/0" },
  ADDRESS_FORMAT_SEI: { curve: S, path: "m/44'/118'/0'/0'/0'" },
  ADDRESS_FORMAT_XLM: { curve: E, path: "m/44'/148'/0'" },
  ADDRESS_FORMAT_TON_V3R2: { curve: E, path: "m/44'/607'/0'/0'/0'" },
  ADDRESS_FORMAT_TON_V4R2: { curve: E, path: "m/44'/607'/0'/0'/0'" },
  ADDRESS_FORMAT_TON_V5R1: { curve: E, path: "m/44'/607'/0'/0'/0'" },
  ADDRESS_FORMAT_XRP: { curve: S, path: "m/44'/144'/0'/0'/0'" },
}

/** Default `{curve, path}` per format; `undefined` for UNCOMPRESSED/COMPRESSED (path required). */
export const DEFAULT_ACCOUNTS: Record<AddressFormat, DefaultAccount | undefined> = Object.fromEntries(
  ADDRESS_FORMATS.map((f) => [f, FIXED[f] ?? bitcoinDefault(f)]),
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
