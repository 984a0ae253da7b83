/**
 * What a dApp's Solana transaction does, for the approval window: parsed with the shared wire
 * parser (src/chains/sign/solanaMessage.ts), System Program transfers and Compute Budget settings
 * decoded (from, to, SOL amount), every other instruction shown as its program, accounts and data.
 * The fee payer (first account key) must be the connected account: a dApp cannot make the user
 * sign for a transaction someone else pays for, or one where our key signs in another role.
 */
import { base58 } from '@scure/base'
import { type SolanaMessage, type SolanaTransaction, parseSolanaTransaction } from '../../../../chains/sign/solanaMessage'
import { bytesToHex } from '../../../../crypto/encoding'
import type { FieldRow, InstructionView, SolanaTransactionView } from '../../../protocol/approvalView'

/** Legacy and v0 transactions fit in one packet. */
export const MAX_SOLANA_TRANSACTION_BYTES = 1232

const SYSTEM_PROGRAM = '11111111111111111111111111111111'
const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111'

/** A parsed transaction with what the window shows of it. */
export type DecodedSolanaTransaction = {
  tx: SolanaTransaction
  feePayer: string
  signers: string[]
  instructions: InstructionView[]
  warnings: string[]
}

/** Lamports as SOL with up to 9 decimals, trailing zeros trimmed, e.g. `1.5 SOL (1500000000 lamports)`. */
export function solText(lamports: bigint): string {
  const whole = lamports / 1_000_000_000n
  const frac = (lamports % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '')
  return `${frac ? `${whole}.${frac}` : whole} SOL (${lamports} lamports)`
}

function keyAt(message: SolanaMessage, i: number | undefined): string {
  const k = i === undefined ? undefined : message.accountKeys[i]
  return k ? base58.encode(k) : `(account #${i} of an address lookup table)`
}

function u32(data: Uint8Array, at: number): number {
  return new DataView(data.buffer, data.byteOffset + at, 4).getUint32(0, true)
}

function u64(data: Uint8Array, at: number): bigint {
  return new DataView(data.buffer, data.byteOffset + at, 8).getBigUint64(0, true)
}

function describe(message: SolanaMessage, ix: SolanaMessage['instructions'][number]): InstructionView {
  const program = keyAt(message, ix.programIdIndex)
  const account = (n: number) => keyAt(message, ix.accountIndices[n])
  const { data } = ix
  if (program === SYSTEM_PROGRAM && data.length === 12 && u32(data, 0) === 2 && ix.accountIndices.length >= 2) {
    return {
      title: 'System Program: transfer SOL',
      rows: [
        ['From', account(0)],
        ['To', account(1)],
        ['Amount', solText(u64(data, 4))],
      ],
    }
  }
  if (program === COMPUTE_BUDGET_PROGRAM && data.length === 5 && data[0] === 2) {
    return { title: 'Compute Budget: set compute unit limit', rows: [['Units', String(u32(data, 1))]] }
  }
  if (program === COMPUTE_BUDGET_PROGRAM && data.length === 9 && data[0] === 3) {
    return { title: 'Compute Budget: set priority fee', rows: [['Price', `${u64(data, 1)} micro-lamports per compute unit`]] }
  }
  return {
    title: `Program ${program}`,
    rows: [
      ...ix.accountIndices.map((_, n): FieldRow => [`Account ${n + 1}`, account(n)]),
      ['Data', data.length === 0 ? '(none)' : `0x${bytesToHex(data)}`],
    ],
  }
}

/** Parse a serialized transaction (signature slots, then a legacy or v0 message) and describe it; a reason when it is not one. */
export function decodeSolanaTransaction(
  bytes: Uint8Array,
): { ok: true; decoded: DecodedSolanaTransaction } | { ok: false; reason: string } {
  if (bytes.length > MAX_SOLANA_TRANSACTION_BYTES) return { ok: false, reason: `transaction is over ${MAX_SOLANA_TRANSACTION_BYTES} bytes` }
  let tx: SolanaTransaction
  try {
    tx = parseSolanaTransaction(bytes)
  } catch {
    return { ok: false, reason: 'not a serialized Solana transaction (signature slots, then a legacy or v0 message)' }
  }
  const { message } = tx
  const signers = message.accountKeys.slice(0, message.numRequiredSignatures).map((k) => base58.encode(k))
  const warnings: string[] = []
  if (signers.length > 1) warnings.push(`Other accounts must sign this transaction too: ${signers.slice(1).join(', ')}`)
  const lookups = message.instructions.some((ix) => [ix.programIdIndex, ...ix.accountIndices].some((i) => i >= message.accountKeys.length))
  if (lookups) warnings.push('Some accounts come from address lookup tables and cannot be shown by address.')
  return {
    ok: true,
    decoded: {
      tx,
      feePayer: signers[0] as string,
      signers,
      instructions: message.instructions.map((ix) => describe(message, ix)),
      warnings,
    },
  }
}

/** Null when `address` pays the fee (is the first signer); else why the transaction is refused. */
export function feePayerProblem(decoded: Pick<DecodedSolanaTransaction, 'feePayer'>, address: string): string | null {
  return decoded.feePayer === address ? null : `the fee payer ${decoded.feePayer} is not the connected account ${address}`
}

/** The approval view of a decoded transaction. */
export function solanaTransactionView(
  decoded: DecodedSolanaTransaction,
  address: string,
  network: string,
  send: boolean,
): SolanaTransactionView {
  return {
    kind: 'solanaTransaction',
    address,
    network,
    feePayer: decoded.feePayer,
    version: decoded.tx.message.version === 0 ? '0' : 'legacy',
    instructions: decoded.instructions,
    warnings: decoded.warnings,
    send,
  }
}
