/**
 * sign_transaction TRANSACTION_TYPE_ETHEREUM (wire-formats.md B4 `signTransaction`): parses an
 * unsigned RLP/EIP-2718 transaction and returns the signed serialization (hex, no `0x`).
 *
 * Types: legacy (pre-EIP-155 6 fields, or EIP-155 `[nonce, gasPrice, gas, to, value, data, chainId, 0, 0]`),
 * EIP-2930 (0x01), EIP-1559 (0x02), EIP-4844 (0x03, the payload body only) and EIP-7702 (0x04,
 * with its signed authorization list carried as given: signing the transaction does not sign the
 * authorizations; each is signed by its authority, see eip7702.ts). micro-eth-signer parses and
 * serialises type 0x04 byte for byte as viem does (test/unit/chains/eip7702.test.ts).
 * Signatures are deterministic (RFC 6979) and low-S.
 */
import { Transaction } from 'micro-eth-signer'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, hexToBytes } from '../../crypto/encoding.js'
import { chainError } from '../errors.js'
import { signSecp256k1Digest } from './secp256k1.js'

/** Arguments of {@link signEthereumTransaction}. */
export type SignEthereumTransactionArgs = { privateKey: Uint8Array; unsignedTransaction: string }

/** Signs an unsigned Ethereum transaction (hex, `0x` optional) and returns the signed one (hex, no `0x`). */
export function signEthereumTransaction(args: SignEthereumTransactionArgs): string {
  const bytes = hexToBytes(args.unsignedTransaction, 'unsignedTransaction')
  if (bytes.length === 0) throw chainError('unsignedTransaction', 'empty transaction')
  let tx: ReturnType<typeof Transaction.fromBytes>
  try {
    tx = Transaction.fromBytes(bytes)
  } catch (e) {
    throw chainError('unsignedTransaction', `not a valid Ethereum transaction: ${reason(e)}`)
  }
  if (tx.isSigned) throw chainError('unsignedTransaction', 'transaction is already signed')
  let signed: typeof tx
  try {
    // As micro-eth-signer's `signBy(key, false)`, with the installed secp256k1 signer (./secp256k1.ts):
    // the signature over keccak256 of the unsigned serialization, as r, s and the y parity.
    const sig = signSecp256k1Digest(keccak_256(tx.toBytes({ includeSignature: false })), args.privateKey)
    const raw = {
      ...structuredClone(tx.raw),
      r: bytesToBigInt(sig.subarray(1, 33)),
      s: bytesToBigInt(sig.subarray(33, 65)),
      yParity: sig[0],
    }
    signed = new Transaction(tx.type, raw as typeof tx.raw, { strict: false })
  } catch (e) {
    throw chainError('unsignedTransaction', `cannot sign transaction: ${reason(e)}`)
  }
  return signed.toHex().replace(/^0x/, '')
}

const bytesToBigInt = (b: Uint8Array) => BigInt(`0x${bytesToHex(b)}`)

function reason(e: unknown): string {
  return e instanceof Error ? e.message.slice(0, 120) : 'unknown'
}
