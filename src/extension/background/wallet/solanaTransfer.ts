/**
 * A System Program transfer as an unsigned legacy Solana transaction: one signature slot (zeroes),
 * then the message `[1, 0, 1]` header, keys `[from, to, System Program]`, the recent blockhash
 * (zeroes: sol_send_transaction sets a fresh one) and one `Transfer` instruction
 * (u32 LE 2, then the lamports as u64 LE). Read back by src/chains/transfers.ts.
 */
import { base58 } from '@scure/base'
import { encodeCompactU16 } from '../../../chains/sign/solanaMessage'

const SYSTEM_PROGRAM = new Uint8Array(32)
const U64_MAX = 2n ** 64n - 1n

/** The message bytes of a transfer of `lamports` from `from` to `to` (base58 addresses). */
export function solTransferMessage(from: string, to: string, lamports: bigint, blockhash?: string): Uint8Array {
  if (lamports < 0n || lamports > U64_MAX) throw new RangeError('lamports out of range')
  const fromKey = base58.decode(from)
  const toKey = base58.decode(to)
  if (fromKey.length !== 32 || toKey.length !== 32) throw new RangeError('a Solana address is 32 bytes')
  const hash = blockhash === undefined ? new Uint8Array(32) : base58.decode(blockhash)
  if (hash.length !== 32) throw new RangeError('a blockhash is 32 bytes')
  const data = new Uint8Array(12)
  const view = new DataView(data.buffer)
  view.setUint32(0, 2, true)
  view.setBigUint64(4, lamports, true)
  const parts = [
    Uint8Array.of(1, 0, 1),
    encodeCompactU16(3),
    fromKey,
    toKey,
    SYSTEM_PROGRAM,
    hash,
    encodeCompactU16(1),
    Uint8Array.of(2),
    encodeCompactU16(2),
    Uint8Array.of(0, 1),
    encodeCompactU16(data.length),
    data,
  ]
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** The unsigned transaction (one zeroed signature slot, then the message) as hex. */
export function solTransferTransactionHex(message: Uint8Array): string {
  const tx = new Uint8Array(1 + 64 + message.length)
  tx[0] = 1
  tx.set(message, 65)
  return Array.from(tx, (b) => b.toString(16).padStart(2, '0')).join('')
}
