/**
 * The 36 address formats, one descriptor each (descriptor.ts: curves, address function, default
 * path, chain label), gathered from their family files in the order of the interface's list
 * (address-formats.md "Per-format address rules"). A new format is its family file's entry: the
 * compiler refuses this table until every format of src/api/enumLists.ts has one.
 */
import { ADDRESS_FORMATS, type AddressFormat } from '../types.js'
import { APTOS_FORMATS } from './aptos.js'
import { BITCOIN_FORMATS } from './bitcoin.js'
import { COSMOS_FORMATS } from './cosmos.js'
import type { FormatDescriptor } from './descriptor.js'
import { DOGE_FORMATS } from './doge.js'
import { ETHEREUM_FORMATS } from './ethereum.js'
import { RAW_FORMATS } from './raw.js'
import { SOLANA_FORMATS } from './solana.js'
import { STELLAR_FORMATS } from './stellar.js'
import { SUI_FORMATS } from './sui.js'
import { TON_FORMATS } from './ton.js'
import { TRON_FORMATS } from './tron.js'
import { XRP_FORMATS } from './xrp.js'

export type { FormatDescriptor } from './descriptor.js'

const DESCRIPTORS = {
  ...RAW_FORMATS,
  ...ETHEREUM_FORMATS,
  ...SOLANA_FORMATS,
  ...COSMOS_FORMATS,
  ...TRON_FORMATS,
  ...SUI_FORMATS,
  ...APTOS_FORMATS,
  ...STELLAR_FORMATS,
  ...XRP_FORMATS,
  ...BITCOIN_FORMATS,
  ...DOGE_FORMATS,
  ...TON_FORMATS,
} satisfies Record<AddressFormat, FormatDescriptor>

/** Every address format Sigil derives, in the interface's list order. */
export const FORMATS: Record<AddressFormat, FormatDescriptor> = Object.fromEntries(
  ADDRESS_FORMATS.map((f) => [f, DESCRIPTORS[f]]),
) as Record<AddressFormat, FormatDescriptor>

const descriptorOf = (format: string): FormatDescriptor | undefined =>
  Object.hasOwn(FORMATS, format) ? FORMATS[format as AddressFormat] : undefined

/** The chain an address format belongs to (a name nobody knows: itself without the prefix). */
export function chainOf(format: string): string {
  return descriptorOf(format)?.chain ?? format.replace(/^ADDRESS_FORMAT_/, '')
}

/** Short variant name within a chain (e.g. `P2WPKH`, `V4R2`), empty when the chain has one. */
export function variantOf(format: string): string {
  return descriptorOf(format)?.variant ?? ''
}

/** Label for a format in a list: its chain, and its variant when the chain has several. */
export function formatLabel(format: string): string {
  const v = variantOf(format)
  return v ? `${chainOf(format)} (${v})` : chainOf(format)
}
