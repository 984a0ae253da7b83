/**
 * What the approval window shows for each request kind: plain, human-readable data built in
 * the background (the page renders text only, never HTML from a dApp).
 */
import { bytesToHex } from '../../crypto/encoding'

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
      domain: Array<[string, string]>
      message: Array<[string, string]>
    }
  | {
      kind: 'transaction'
      address: string
      to: string | null
      valueWei: string
      data: string
      chain: ChainLabel
      nonce: string
      gas: string
      fee: string
    }
  | { kind: 'switchChain'; from: ChainLabel; to: ChainLabel }

const MAX_TEXT = 4000
const MAX_FIELDS = 64

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

/** Flatten a JSON value into `[path, text]` rows (bounded, for display only). */
export function flattenFields(value: unknown, prefix = '', out: Array<[string, string]> = []): Array<[string, string]> {
  if (out.length >= MAX_FIELDS) return out
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value)
    if (entries.length === 0) out.push([prefix || '(root)', Array.isArray(value) ? '[]' : '{}'])
    for (const [k, v] of entries) {
      if (out.length >= MAX_FIELDS) {
        if (out[out.length - 1]?.[0] !== '…') out.push(['…', 'more fields not shown'])
        break
      }
      flattenFields(v, prefix ? `${prefix}.${k}` : k, out)
    }
    return out
  }
  out.push([prefix || '(root)', clip(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)))])
  return out
}
