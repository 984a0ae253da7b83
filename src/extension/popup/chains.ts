/** Chain labels for address formats (address-formats.md), for grouping accounts in the popup. */
import { type AddressFormat, BITCOIN_ADDRESS_TYPES, BITCOIN_NETWORKS, TON_WALLET_VERSIONS } from '../../api/enumLists'

const BITCOIN_TEST_NETWORKS = BITCOIN_NETWORKS.filter((n) => n !== 'MAINNET')

const LABELS: Array<[RegExp, string]> = [
  [/^ADDRESS_FORMAT_ETHEREUM$/, 'Ethereum'],
  [/^ADDRESS_FORMAT_BITCOIN_MAINNET_/, 'Bitcoin'],
  [new RegExp(`^ADDRESS_FORMAT_BITCOIN_(${BITCOIN_TEST_NETWORKS.join('|')})_`), 'Bitcoin testnet'],
  [/^ADDRESS_FORMAT_SOLANA$/, 'Solana'],
  [/^ADDRESS_FORMAT_COSMOS$/, 'Cosmos'],
  [/^ADDRESS_FORMAT_TRON$/, 'Tron'],
  [/^ADDRESS_FORMAT_SUI$/, 'Sui'],
  [/^ADDRESS_FORMAT_APTOS$/, 'Aptos'],
  [/^ADDRESS_FORMAT_DOGE_MAINNET$/, 'Dogecoin'],
  [/^ADDRESS_FORMAT_DOGE_TESTNET$/, 'Dogecoin testnet'],
  [/^ADDRESS_FORMAT_SEI$/, 'Sei'],
  [/^ADDRESS_FORMAT_XLM$/, 'Stellar'],
  [/^ADDRESS_FORMAT_TON_/, 'TON'],
  [/^ADDRESS_FORMAT_XRP$/, 'XRP Ledger'],
  [/^ADDRESS_FORMAT_(UNCOMPRESSED|COMPRESSED)$/, 'Public keys'],
]

/** The chain an address format belongs to. */
export function chainOf(format: string): string {
  for (const [re, label] of LABELS) if (re.test(format)) return label
  return format.replace(/^ADDRESS_FORMAT_/, '')
}

const VARIANT = new RegExp(`_(${[...BITCOIN_ADDRESS_TYPES, ...TON_WALLET_VERSIONS].join('|')})$`)

/** Short variant name within a chain (e.g. `P2WPKH`, `V4R2`), empty when the chain has one. */
export function variantOf(format: string): string {
  const m = VARIANT.exec(format)
  return m?.[1] ?? ''
}

/** Formats offered by "Add account" (each has a default path). */
export const ADDABLE_FORMATS = [
  'ADDRESS_FORMAT_ETHEREUM',
  'ADDRESS_FORMAT_SOLANA',
  'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH',
  'ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR',
  'ADDRESS_FORMAT_COSMOS',
  'ADDRESS_FORMAT_TRON',
  'ADDRESS_FORMAT_SUI',
  'ADDRESS_FORMAT_APTOS',
  'ADDRESS_FORMAT_DOGE_MAINNET',
  'ADDRESS_FORMAT_XLM',
  'ADDRESS_FORMAT_TON_V5R1',
  'ADDRESS_FORMAT_XRP',
] as const satisfies readonly AddressFormat[]

/** Label for a format in a list. */
export function formatLabel(format: string): string {
  const v = variantOf(format)
  return v ? `${chainOf(format)} (${v})` : chainOf(format)
}
