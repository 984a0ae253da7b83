/**
 * What an address format is, in one place: each family file (ethereum.ts, bitcoin.ts, …) exports
 * the descriptors of its formats, index.ts gathers them (the compiler checks every format of
 * the interface's list has one), and the defaults and the popup's labels derive from them.
 */
import type { Curve } from '../types.js'

/** One address format. */
export type FormatDescriptor = {
  /** The curves it accepts; the first is its default account's. */
  curves: readonly Curve[]
  /**
   * The address of a public key as derived (33 or 32 bytes). `curve` matters only for
   * UNCOMPRESSED/COMPRESSED (secp256k1 vs P-256 points).
   */
  address(publicKey: Uint8Array, curve?: Curve): string
  /** Its default account path (address-formats.md "Default paths"); undefined where a path is required. */
  defaultPath: string | undefined
  /** The chain it belongs to, as a person names it (the popup groups accounts by it). */
  chain: string
  /** Its variant within the chain (`P2WPKH`, `V4R2`), empty when the chain has one. */
  variant: string
}

export const SECP: readonly Curve[] = ['CURVE_SECP256K1']
export const ED: readonly Curve[] = ['CURVE_ED25519']
