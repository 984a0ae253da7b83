/**
 * How an address format's address is MADE, beside what it IS (facts.ts): each family file
 * (ethereum.ts, bitcoin.ts, …) exports the builders of its formats, index.ts gathers them (the
 * compiler checks every format of the interface's list has one) and joins them to the facts.
 */
import type { Curve } from '../types.js'
import type { FormatFacts } from './facts.js'

/**
 * The address of a public key as derived (33 or 32 bytes). `curve` matters only for
 * UNCOMPRESSED/COMPRESSED (secp256k1 vs P-256 points).
 */
export type AddressBuilder = (publicKey: Uint8Array, curve?: Curve) => string

/** One address format: its facts and its address builder. */
export type FormatDescriptor = FormatFacts & { address: AddressBuilder }
