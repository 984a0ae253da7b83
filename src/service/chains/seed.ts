/**
 * BIP-39 seeds in the service: the same seed as
 * `src/chains/mnemonic.ts#mnemonicToSeed` — PBKDF2-HMAC-SHA512 of the normalised mnemonic, salt
 * "mnemonic" (empty passphrase), 2048 iterations, 64 bytes — computed by Node's OpenSSL instead of
 * pure JS: the 2048 SHA-512 rounds were ~40% of a create_sub_organization's CPU time. The mnemonic is
 * validated (checksum) by the shared code first; the extension never derives seeds, so this stays here.
 * The 2048 rounds (≈ 1.3 ms) run on libuv's thread pool, not on the thread that serves requests.
 */
import { pbkdf2 } from 'node:crypto'
import { promisify } from 'node:util'
import { validateMnemonic } from '../../chains/mnemonic.js'
import { chainError } from '../../chains/errors.js'

const pbkdf2Async = promisify(pbkdf2)

/** The 64-byte BIP-39 seed of `mnemonic` with an empty passphrase; refuses invalid mnemonics. */
export async function mnemonicToSeed(mnemonic: string): Promise<Uint8Array> {
  if (!validateMnemonic(mnemonic)) throw chainError('mnemonic', 'invalid mnemonic')
  const words = mnemonic.trim().split(/\s+/).join(' ').normalize('NFKD')
  const seed = await pbkdf2Async(Buffer.from(words, 'utf8'), Buffer.from('mnemonic', 'utf8'), 2048, 64, 'sha512')
  const out = new Uint8Array(seed)
  seed.fill(0)
  return out
}
