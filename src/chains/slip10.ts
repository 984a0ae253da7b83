/**
 * SLIP-0010 private derivation for ed25519 and nist256p1 (address-formats.md "Sigil's choices").
 *
 * No audited package covers SLIP-10 for nist256p1 (@scure/bip32 is secp256k1 BIP-32 only), so
 * this is the short HMAC-SHA512 recipe of satoshilabs/slips slip-0010.md, built on @noble/hashes
 * and @noble/curves, including both P-256 retry rules (master-seed retry and child retry).
 * Checked against every slip-0010 vector in shared/vectors/derivation-vectors.json.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { p256 } from '@noble/curves/nist.js'
import { hmac } from '@noble/hashes/hmac.js'
import { ripemd160 } from '@noble/hashes/legacy.js'
import { sha256, sha512 } from '@noble/hashes/sha2.js'
import { utf8ToBytes } from '@noble/hashes/utils.js'
import { bytesToNumberBE, numberToBytesBE } from '@noble/curves/utils.js'
import { concatBytes } from '../crypto/encoding.js'
import { chainError } from './errors.js'
import { HARDENED } from './path.js'

/** SLIP-10 curves implemented here. */
export type Slip10Curve = 'ed25519' | 'nist256p1'

/** One node of a SLIP-10 tree. `publicKey` is 32 bytes (ed25519) or 33 compressed (P-256). */
export type Slip10Node = {
  privateKey: Uint8Array
  chainCode: Uint8Array
  publicKey: Uint8Array
  /** First 4 bytes of HASH160(serP(parent)), 0 for the master node. */
  parentFingerprint: number
}

const SEED_KEY: Record<Slip10Curve, Uint8Array> = {
  ed25519: utf8ToBytes('ed25519 seed'),
  nist256p1: utf8ToBytes('Nist256p1 seed'),
}

const P256_N = p256.Point.CURVE().n

function ser32(i: number): Uint8Array {
  const out = new Uint8Array(4)
  new DataView(out.buffer).setUint32(0, i >>> 0, false)
  return out
}

function publicKeyOf(curve: Slip10Curve, privateKey: Uint8Array): Uint8Array {
  return curve === 'ed25519' ? ed25519.getPublicKey(privateKey) : p256.getPublicKey(privateKey, true)
}

/** serP as SLIP-10 fingerprints it: ed25519 keys get a 0x00 prefix to 33 bytes. */
function serP(curve: Slip10Curve, publicKey: Uint8Array): Uint8Array {
  return curve === 'ed25519' ? concatBytes(new Uint8Array([0]), publicKey) : publicKey
}

function fingerprint(curve: Slip10Curve, publicKey: Uint8Array): number {
  const h = ripemd160(sha256(serP(curve, publicKey)))
  return new DataView(h.buffer, h.byteOffset, 4).getUint32(0, false)
}

/** Private part of a node; public keys are computed only where needed (they cost a scalar mult). */
type PrivNode = { privateKey: Uint8Array; chainCode: Uint8Array }

/** Master node from a seed (slip-0010 "Master key generation", with the P-256 retry loop). */
function masterPriv(curve: Slip10Curve, seed: Uint8Array): PrivNode {
  let data = seed
  for (;;) {
    const I = hmac(sha512, SEED_KEY[curve], data)
    const IL = I.slice(0, 32)
    const IR = I.slice(32)
    if (curve === 'nist256p1') {
      const k = bytesToNumberBE(IL)
      if (k === 0n || k >= P256_N) {
        data = I
        continue
      }
    }
    return { privateKey: IL, chainCode: IR }
  }
}

/** Child private derivation (slip-0010 "Private parent key → private child key"). */
function childPriv(curve: Slip10Curve, parent: PrivNode, index: number): PrivNode {
  const hardened = index >= HARDENED
  if (curve === 'ed25519' && !hardened) {
    throw chainError('path', 'ed25519 derivation supports hardened segments only')
  }
  let data = hardened
    ? concatBytes(new Uint8Array([0]), parent.privateKey, ser32(index))
    : concatBytes(publicKeyOf(curve, parent.privateKey), ser32(index))
  for (;;) {
    const I = hmac(sha512, parent.chainCode, data)
    const IL = I.slice(0, 32)
    const IR = I.slice(32)
    if (curve === 'ed25519') return { privateKey: IL, chainCode: IR }
    const il = bytesToNumberBE(IL)
    const k = (il + bytesToNumberBE(parent.privateKey)) % P256_N
    if (il >= P256_N || k === 0n) {
      data = concatBytes(new Uint8Array([1]), IR, ser32(index))
      continue
    }
    return { privateKey: numberToBytesBE(k, 32), chainCode: IR }
  }
}

/** Derives the private key and public key at `indices` (hardened ones offset by 2^31) from `seed`. */
export function slip10DeriveKey(
  curve: Slip10Curve,
  seed: Uint8Array,
  indices: readonly number[],
): { privateKey: Uint8Array; publicKey: Uint8Array } {
  let node = masterPriv(curve, seed)
  for (const i of indices) node = childPriv(curve, node, i)
  return { privateKey: node.privateKey, publicKey: publicKeyOf(curve, node.privateKey) }
}

/** Derives the full node at `indices` (with chain code and parent fingerprint) from `seed`. */
export function slip10Derive(curve: Slip10Curve, seed: Uint8Array, indices: readonly number[]): Slip10Node {
  let parent: PrivNode | undefined
  let node = masterPriv(curve, seed)
  for (const i of indices) {
    parent = node
    node = childPriv(curve, node, i)
  }
  return {
    privateKey: node.privateKey,
    chainCode: node.chainCode,
    publicKey: publicKeyOf(curve, node.privateKey),
    parentFingerprint: parent ? fingerprint(curve, publicKeyOf(curve, parent.privateKey)) : 0,
  }
}
