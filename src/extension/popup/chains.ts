/**
 * Chain labels for address formats in the popup: read from each format's facts
 * (src/chains/formats/facts.ts, data only, so the popup loads no address builder). "Add account"
 * offers no format choice: it adds the next Ethereum and Solana address together (wallet/walletKeys.ts).
 */
import type { AddressFormat } from '../../api/enumLists'
import { FORMAT_FACTS, type FormatFacts } from '../../chains/formats/facts'

const factsOf = (format: string): FormatFacts | undefined =>
  Object.hasOwn(FORMAT_FACTS, format) ? FORMAT_FACTS[format as AddressFormat] : undefined

/** The chain an address format belongs to (a name nobody knows: itself without the prefix). */
export function chainOf(format: string): string {
  return factsOf(format)?.chain ?? format.replace(/^ADDRESS_FORMAT_/, '')
}

/** Short variant name within a chain (e.g. `P2WPKH`, `V4R2`), empty when the chain has one. */
export function variantOf(format: string): string {
  return factsOf(format)?.variant ?? ''
}

/** Label for a format in a list: its chain, and its variant when the chain has several. */
export function formatLabel(format: string): string {
  const v = variantOf(format)
  return v ? `${chainOf(format)} (${v})` : chainOf(format)
}
