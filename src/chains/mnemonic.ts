/**
 * BIP-39 mnemonics and seeds (address-formats.md "Sigil's choices": English wordlist,
 * lengths 12/15/18/21/24, empty passphrase).
 */
import { generateMnemonic as scureGenerate, mnemonicToSeedSync, validateMnemonic as scureValidate } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { chainError } from './errors.js'

/** Allowed mnemonic lengths in words (wire-formats.md B7). */
export const MNEMONIC_LENGTHS = [12, 15, 18, 21, 24] as const
export type MnemonicLength = (typeof MNEMONIC_LENGTHS)[number]

/** A fresh English BIP-39 mnemonic of `length` words (entropy = length × 32 / 3 bits). */
export function generateMnemonic(length: MnemonicLength = 12): string {
  if (!(MNEMONIC_LENGTHS as readonly number[]).includes(length)) {
    throw chainError('mnemonicLength', 'must be one of 12, 15, 18, 21, 24')
  }
  return scureGenerate(wordlist, (length / 3) * 32)
}

/** True when `m` is a valid English BIP-39 mnemonic (checksum included). */
export function validateMnemonic(m: string): boolean {
  if (typeof m !== 'string') return false
  return scureValidate(normalize(m), wordlist)
}

/** The 64-byte BIP-39 seed of `m` with an empty passphrase; refuses invalid mnemonics. */
export function mnemonicToSeed(m: string): Uint8Array {
  if (!validateMnemonic(m)) throw chainError('mnemonic', 'invalid mnemonic')
  return mnemonicToSeedSync(normalize(m), '')
}

function normalize(m: string): string {
  return m.trim().split(/\s+/).join(' ')
}
