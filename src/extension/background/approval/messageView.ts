/**
 * The approval window's view of a personal_sign message: the text when it is printable UTF-8,
 * always the hex, clipped for the window (the view types are in protocol/approvalView.ts).
 */
import { bytesToHex } from '../../../crypto/encoding'
import type { ApprovalView } from '../../protocol/approvalView'

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
