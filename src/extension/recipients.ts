/**
 * Recipient checks for the Send screen, per network family: an EVM address is 20 bytes of hex and,
 * when it mixes cases, must carry a valid EIP-55 checksum (a wrong one is a typo: refused); a
 * Solana address is the base58 form of 32 bytes. Shared by the popup and the background.
 */
import { keccak_256 } from '@noble/hashes/sha3.js'
import { base58 } from '@scure/base'

/** The result of {@link checkRecipient}: the address to send to, or why it cannot be. */
export type RecipientCheck = { ok: true; address: string } | { ok: false; reason: string }

/** The EIP-55 checksummed form of a 0x-prefixed 20-byte hex address. */
export function toChecksumAddress(address: string): string {
  const lower = address.slice(2).toLowerCase()
  const hash = keccak_256(new TextEncoder().encode(lower))
  let out = '0x'
  for (let i = 0; i < 40; i++) {
    const nibble = ((hash[i >> 1] ?? 0) >> (i % 2 === 0 ? 4 : 0)) & 0xf
    const c = lower[i] ?? ''
    out += nibble >= 8 ? c.toUpperCase() : c
  }
  return out
}

function checkEvm(s: string): RecipientCheck {
  if (!/^0x[0-9a-fA-F]{40}$/.test(s)) return { ok: false, reason: 'An Ethereum address is 0x followed by 40 hex characters' }
  const body = s.slice(2)
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase()
  const sum = toChecksumAddress(s)
  if (mixed && sum !== s) return { ok: false, reason: 'The address checksum (EIP-55) is wrong: check for a typo' }
  if (/^0x0{40}$/.test(s)) return { ok: false, reason: 'Sending to the zero address burns the funds' }
  return { ok: true, address: sum }
}

function checkSolana(s: string): RecipientCheck {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(s)) return { ok: false, reason: 'A Solana address is 32 to 44 base58 characters' }
  let bytes: Uint8Array
  try {
    bytes = base58.decode(s)
  } catch {
    return { ok: false, reason: 'A Solana address is 32 to 44 base58 characters' }
  }
  if (bytes.length !== 32) return { ok: false, reason: 'A Solana address encodes 32 bytes' }
  return { ok: true, address: s }
}

/** Check a typed recipient for a network family (`evm` or `solana`). */
export function checkRecipient(family: 'evm' | 'solana', text: string): RecipientCheck {
  const s = text.trim()
  if (s === '') return { ok: false, reason: 'Enter the recipient address' }
  return family === 'evm' ? checkEvm(s) : checkSolana(s)
}
