/**
 * The 36 address formats, each its facts (facts.ts: curves, default path, chain, variant) joined
 * to its address builder, gathered from the family files in the order of the interface's list
 * (address-formats.md "Per-format address rules"). A new format is two entries the compiler checks
 * against src/api/enumLists.ts: its line in facts.ts and its builder in its family file.
 *
 * This module loads every builder (@ton/core, @scure/btc-signer, …): service and dev code only.
 * The browser extension reads facts.ts alone.
 */
import { ADDRESS_FORMATS, type AddressFormat } from '../types.js'
import { APTOS_ADDRESSES } from './aptos.js'
import { BITCOIN_ADDRESSES } from './bitcoin.js'
import { COSMOS_ADDRESSES } from './cosmos.js'
import type { AddressBuilder, FormatDescriptor } from './descriptor.js'
import { DOGE_ADDRESSES } from './doge.js'
import { ETHEREUM_ADDRESSES } from './ethereum.js'
import { FORMAT_FACTS } from './facts.js'
import { RAW_ADDRESSES } from './raw.js'
import { SOLANA_ADDRESSES } from './solana.js'
import { STELLAR_ADDRESSES } from './stellar.js'
import { SUI_ADDRESSES } from './sui.js'
import { TON_ADDRESSES } from './ton.js'
import { TRON_ADDRESSES } from './tron.js'
import { XRP_ADDRESSES } from './xrp.js'

export type { AddressBuilder, FormatDescriptor } from './descriptor.js'

/** Every format's address builder. */
const ADDRESS_BUILDERS = {
  ...RAW_ADDRESSES,
  ...ETHEREUM_ADDRESSES,
  ...SOLANA_ADDRESSES,
  ...COSMOS_ADDRESSES,
  ...TRON_ADDRESSES,
  ...SUI_ADDRESSES,
  ...APTOS_ADDRESSES,
  ...STELLAR_ADDRESSES,
  ...XRP_ADDRESSES,
  ...BITCOIN_ADDRESSES,
  ...DOGE_ADDRESSES,
  ...TON_ADDRESSES,
} satisfies Record<AddressFormat, AddressBuilder>

/** Every address format Sigil derives, facts and address builder, in the interface's list order. */
export const FORMATS: Record<AddressFormat, FormatDescriptor> = Object.fromEntries(
  ADDRESS_FORMATS.map((f) => [f, { ...FORMAT_FACTS[f], address: ADDRESS_BUILDERS[f] }]),
) as Record<AddressFormat, FormatDescriptor>
