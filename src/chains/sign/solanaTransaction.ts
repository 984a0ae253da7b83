/**
 * sign_transaction TRANSACTION_TYPE_SOLANA (wire-formats.md B4 `signTransaction`).
 *
 * Accepts a full unsigned (or partly signed) transaction `[compact-u16 n][n sigs][message]` or a
 * bare message (legacy or v0). Signs the message bytes with ed25519 and writes the signature into
 * the slot of our public key among the message's required signers; returns the whole signed
 * transaction as hex (no `0x`). Other signers' slots are kept (zeroed when the input was a bare message).
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { bytesToHex, concatBytes, hexToBytes } from '../../crypto/encoding.js'
import { chainError } from '../errors.js'
import { type SolanaTransaction, encodeCompactU16, parseSolanaTransactionOrMessage } from './solanaMessage.js'

/** Arguments of {@link signSolanaTransaction}; `publicKey` is the 32-byte ed25519 key of `privateKey`. */
export type SignSolanaTransactionArgs = { privateKey: Uint8Array; publicKey: Uint8Array; unsignedTransaction: string }

function parse(bytes: Uint8Array): SolanaTransaction {
  try {
    return parseSolanaTransactionOrMessage(bytes)
  } catch {
    throw chainError('unsignedTransaction', 'not a Solana transaction or message')
  }
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}

/** Signs a Solana transaction or message (hex) for the signer `publicKey`; returns the signed transaction hex. */
export function signSolanaTransaction(args: SignSolanaTransactionArgs): string {
  const bytes = hexToBytes(args.unsignedTransaction, 'unsignedTransaction')
  const tx = parse(bytes)
  const signers = tx.message.accountKeys.slice(0, tx.message.numRequiredSignatures)
  const slot = signers.findIndex((k) => equal(k, args.publicKey))
  if (slot < 0) throw chainError('unsignedTransaction', 'signWith is not a required signer of this transaction')
  const signature = ed25519.sign(tx.messageBytes, args.privateKey)
  const sigs = tx.signatures.map((s, i) => (i === slot ? signature : s))
  return bytesToHex(concatBytes(encodeCompactU16(sigs.length), ...sigs, tx.messageBytes))
}
