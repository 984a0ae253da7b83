/**
 * Key derivation and account addresses (address-formats.md "Sigil's choices"):
 * secp256k1 via BIP-32 (@scure/bip32), ed25519 and P-256 via SLIP-0010 (./slip10.ts).
 */
import { HDKey } from '@scure/bip32'
import { bytesToHex } from '../crypto/encoding.js'
import { chainError, chainError2 } from './errors.js'
import { FORMATS } from './formats/index.js'
import { isHardened, parsePath } from './path.js'
import { slip10DeriveKey } from './slip10.js'
import { type AddressFormat, type Curve, isAddressFormat, isCurve } from './types.js'

/** A derived key pair: public key is 33 bytes compressed (secp256k1, P-256) or 32 (ed25519). */
export type DerivedKey = { privateKey: Uint8Array; publicKey: Uint8Array }

/** A derived account: address per the format, public key as lowercase hex. */
export type DerivedAccount = { address: string; publicKey: string; privateKey: Uint8Array }

function assertCurve(curve: unknown): asserts curve is Curve {
  if (!isCurve(curve)) throw chainError('curve', 'unknown curve')
}

/**
 * BIP-32 derivation on secp256k1: the key at `indices` (hardened ones ≥ 2^31) below the master key
 * of `seed`, its public key compressed. The pure-JS `@scure/bip32` is the default everywhere (the
 * extension included); a host may install another implementation of the same function with
 * {@link useBip32Deriver} — the service installs one on libsecp256k1
 * (`src/service/chains/libsecp256k1.ts`), equal key for key and several times faster: the public
 * keys of a derivation were a third of a sign-up's CPU.
 */
export type Bip32Deriver = (seed: Uint8Array, indices: number[]) => DerivedKey

/** The pure-JS deriver (`@scure/bip32`). */
export const scureBip32Deriver: Bip32Deriver = (seed, indices) => {
  let node = HDKey.fromMasterSeed(seed)
  for (const i of indices) node = node.deriveChild(i)
  if (!node.privateKey || !node.publicKey) throw new Error('bip32 derivation produced no key')
  return { privateKey: node.privateKey, publicKey: node.publicKey }
}

let bip32Deriver: Bip32Deriver = scureBip32Deriver

/** Installs `next` for every later secp256k1 derivation in this process; returns the previous one. */
export function useBip32Deriver(next: Bip32Deriver): Bip32Deriver {
  const previous = bip32Deriver
  bip32Deriver = next
  return previous
}

/** Derives the key at `path` from a BIP-39 seed on `curve`; ed25519 refuses non-hardened segments. */
export function deriveKey(args: { seed: Uint8Array; curve: Curve; path: string }): DerivedKey {
  const { seed, curve, path } = args
  assertCurve(curve)
  const indices = parsePath(path)
  if (curve === 'CURVE_ED25519' && indices.some((i) => !isHardened(i))) {
    throw chainError('path', 'CURVE_ED25519 paths must use hardened segments only')
  }
  if (curve === 'CURVE_SECP256K1') return bip32Deriver(seed, indices)
  return slip10DeriveKey(curve === 'CURVE_ED25519' ? 'ed25519' : 'nist256p1', seed, indices)
}

/** Refuses an address format that does not fit the curve, naming both fields. */
export function assertFormatFitsCurve(curve: Curve, addressFormat: AddressFormat): void {
  assertCurve(curve)
  if (!isAddressFormat(addressFormat)) throw chainError('addressFormat', 'unknown address format')
  if (!FORMATS[addressFormat].curves.includes(curve)) {
    throw chainError2('curve', 'addressFormat', `${addressFormat} cannot be used with ${curve}`)
  }
}

/** The address of `publicKey` (bytes as derived) in `addressFormat`. */
export function addressFromPublicKey(curve: Curve, addressFormat: AddressFormat, publicKey: Uint8Array): string {
  assertFormatFitsCurve(curve, addressFormat)
  return FORMATS[addressFormat].address(publicKey, curve)
}

/** Derives key and address of one wallet account `(curve, path, addressFormat)`. */
export function deriveAccount(args: { seed: Uint8Array; curve: Curve; path: string; addressFormat: AddressFormat }): DerivedAccount {
  assertFormatFitsCurve(args.curve, args.addressFormat)
  const key = deriveKey(args)
  return {
    address: FORMATS[args.addressFormat].address(key.publicKey, args.curve),
    publicKey: bytesToHex(key.publicKey),
    privateKey: key.privateKey,
  }
}
