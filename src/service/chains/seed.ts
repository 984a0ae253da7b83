/**
 * BIP-39 seeds in the service: the same seed as
 * `src/chains/mnemonic.ts#mnemonicToSeed` — PBKDF2-HMAC-SHA512 of the normalised mnemonic, salt
 * "mnemonic" (empty passphrase), 2048 iterations, 64 bytes — computed by Node's OpenSSL instead of
 * pure JS: the 2048 SHA-512 rounds were ~40% of a create_sub_organization's CPU time. The mnemonic is
 * validated (checksum) by the shared code first; the extension never derives seeds, so this stays here.
 */
import { pbkdf2Sync } from 'node:crypto'
import { validateMnemonic } from '../../chains/mnemonic.js'
import { chainError } from '../../chains/errors.js'

/** The 64-byte BIP-39 seed of `mnemonic` with an empty passphrase; refuses invalid mnemonics. */
export function mnemonicToSeed(mnemonic: string): Uint8Array {
  if (!validateMnemonic(mnemonic)) throw chainError('mnemonic', 'invalid mnemonic')
  const words = mnemonic.trim().split(/\s+/).join(' ').normalize('NFKD')
  const seed = pbkdf2Sync(Buffer.from(words, 'utf8'), Buffer.from('mnemonic', 'utf8'), 2048, 64, 'sha512')
  const out = new Uint8Array(seed)
  seed.fill(0)
  return out
}
