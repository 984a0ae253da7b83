/**
 * What the approval window shows for each request kind: plain, human-readable data built in
 * the background (the page renders text only, never HTML from a dApp).
 */
import { bytesToHex } from '../../crypto/encoding'
import type { DecodedCall } from './calldata'
import type { SolanaTransactionView } from './solanaTransaction'
import type { TypedDataSummary } from './typedDataSummary'

/** One `[label or path, text]` row of the window. */
export type FieldRow = [label: string, text: string]

/** A chain as shown to the user. */
export type ChainLabel = { chainId: `0x${string}`; name: string }

/** The approval window's content, by kind. */
export type ApprovalView =
  | { kind: 'connect'; address: string; chain: ChainLabel }
  | { kind: 'message'; address: string; text: string | null; hex: string; byteLength: number }
  | {
      kind: 'typedData'
      address: string
      primaryType: string
      /** Warnings shown first (domain without chainId / verifyingContract, unlimited approvals, foreign recipients). */
      warnings: string[]
      /** A readable summary for permits, Permit2 and Seaport orders; null otherwise. */
      summary: TypedDataSummary | null
      /** Every domain and message row, in `types` order, never truncated (typedData.ts). */
      domain: FieldRow[]
      message: FieldRow[]
    }
  | {
      /** eth_signTransaction: Sigil signs, the site broadcasts. */
      kind: 'transaction'
      address: string
      to: string | null
      valueWei: string
      /** The value in the network's native unit, e.g. "1.5 ETH". */
      value: string
      data: string
      /** The decoded token call (approve, transfer, transferFrom, setApprovalForAll), or null. */
      call: DecodedCall | null
      chain: ChainLabel
      nonce: string
      /** Fee rows: per-gas prices in gwei, gas limit, max network fee and total in the native unit (feeRows). */
      fees: FieldRow[]
      /** The fields the dApp left out and Sigil filled from the network (ethFill.ts). */
      filled: string[]
      /** The simulation's verdict when Sigil estimated the gas: "This transaction will fail: <reason>". */
      warnings: string[]
    }
  | { kind: 'switchChain'; from: ChainLabel; to: ChainLabel }
  | { kind: 'solanaConnect'; address: string; networks: string[] }
  | SolanaTransactionView
  | {
      /** eth_sendTransaction: simulated before the window opened; Sigil's service signs and broadcasts. */
      kind: 'sendTransaction'
      address: string
      to: string
      valueWei: string
      /** The value in the network's native unit, e.g. "1.5 ETH". */
      value: string
      data: string
      /** The decoded token call, or null. */
      call: DecodedCall | null
      /** The 4-byte selector when the call is not decoded (null for a plain transfer). */
      selector: string | null
      chain: ChainLabel
      /** Fee rows: per-gas prices in gwei, gas limit, estimated and max fee, total in the native unit (feeRows). */
      fees: FieldRow[]
      /** The simulation's verdict: "This transaction will fail: <reason>", shown as a warning. */
      warnings: string[]
    }
  | {
      /** wallet_addEthereumChain (EIP-3085): the chain id was checked against the RPC before the window opened. */
      kind: 'addChain'
      chain: ChainLabel
      rpcUrl: string
      nativeSymbol: string
      nativeDecimals: number
      explorerUrl: string | null
    }
  | {
      /** wallet_watchAsset (EIP-747), ERC-20. */
      kind: 'watchAsset'
      address: string
      token: string
      symbol: string
      decimals: number
      chain: ChainLabel
    }

const MAX_TEXT = 4000

/** Text when `bytes` is valid UTF-8 without control characters (tabs and newlines allowed); else null. */
export function printableUtf8(bytes: Uint8Array): string | null {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return null
  }
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/.test(text) ? null : text
}

/** The view of a personal_sign message. */
export function messageView(address: string, bytes: Uint8Array): ApprovalView {
  const text = printableUtf8(bytes)
  const hex = `0x${bytesToHex(bytes)}`
  return {
    kind: 'message',
    address,
    text: text === null ? null : clip(text),
    hex: clip(hex),
    byteLength: bytes.length,
  }
}

function clip(s: string): string {
  return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}… (${s.length - MAX_TEXT} more characters)` : s
}
