/**
 * What a transaction moves, read from the transaction itself (no node): the native value of an
 * EVM call and the token transfer of ERC-20 `transfer(address,uint256)` calldata; the lamports of
 * each System Program `Transfer` instruction of a Solana message. Nothing else is recognized
 * (`transferFrom`, SPL tokens, inner instructions, addresses from v0 lookup tables).
 */
import { base58 } from '@scure/base'
import { addr } from 'micro-eth-signer'
import { decodeTransferCalldata } from './erc20.js'
import type { SolanaMessage } from './sign/solanaMessage.js'

/** One movement of value: the native asset, or an ERC-20 token (its contract address, lowercase). */
export type DecodedTransfer = { token?: string; from: string; to: string; amount: bigint }

/** The EIP-55 form of an EVM address. */
export const checksummed = (address: string) => addr.addChecksum(address.toLowerCase())

/** What an EVM call moves: its value (when not zero) and an ERC-20 `transfer` (addresses EIP-55). */
export function evmTransfers(call: { from: string; to?: string | undefined; value: bigint; data?: string | undefined }): DecodedTransfer[] {
  if (!call.to) return []
  const from = checksummed(call.from)
  const to = checksummed(call.to)
  const out: DecodedTransfer[] = []
  if (call.value > 0n) out.push({ from, to, amount: call.value })
  const token = decodeTransferCalldata(call.data)
  if (token) out.push({ token: call.to.toLowerCase(), from, to: checksummed(token.to), amount: token.amount })
  return out
}

/** The addresses (lowercase) besides the sender an EVM call involves: its `to`, and an ERC-20 transfer's recipient. */
export function evmParties(to: string | undefined, data: string | undefined): string[] {
  if (!to) return []
  const recipient = decodeTransferCalldata(data)?.to
  return [...new Set([to.toLowerCase(), ...(recipient ? [recipient] : [])])]
}

/** The System Program's id: 32 zero bytes. */
const SYSTEM_PROGRAM = '11111111111111111111111111111111'
/** SystemInstruction::Transfer: u32 index 2, then the lamports as u64, little-endian. */
const TRANSFER_INDEX = 2

/**
 * The System Program transfers of a Solana message. `addressAt` names the account at an index; by
 * default only static keys have one, so a transfer with an end in a v0 lookup table is skipped.
 */
export function solanaTransfers(message: SolanaMessage, addressAt?: (i: number) => string | undefined): DecodedTransfer[] {
  const key = (i: number | undefined) => {
    if (i === undefined) return undefined
    if (addressAt) return addressAt(i)
    const k = message.accountKeys[i]
    return k ? base58.encode(k) : undefined
  }
  const out: DecodedTransfer[] = []
  for (const ix of message.instructions) {
    if (key(ix.programIdIndex) !== SYSTEM_PROGRAM || ix.data.length !== 12) continue
    const view = new DataView(ix.data.buffer, ix.data.byteOffset, 12)
    if (view.getUint32(0, true) !== TRANSFER_INDEX) continue
    const from = key(ix.accountIndices[0])
    const to = key(ix.accountIndices[1])
    if (from && to) out.push({ from, to, amount: view.getBigUint64(4, true) })
  }
  return out
}

/** The signers of a Solana message, in message order, and whether each is writable. */
export function solanaSigners(message: SolanaMessage): Array<{ address: string; writable: boolean }> {
  const writableSigners = message.numRequiredSignatures - message.numReadonlySigned
  return message.accountKeys
    .slice(0, message.numRequiredSignatures)
    .map((k, i) => ({ address: base58.encode(k), writable: i < writableSigners }))
}

/** The addresses a Solana message involves: its signers and both ends of each system transfer. */
export function solanaParties(message: SolanaMessage): string[] {
  return [...new Set([...solanaSigners(message).map((s) => s.address), ...solanaTransfers(message).flatMap((t) => [t.from, t.to])])]
}
