/**
 * The gas sponsors of EVM networks: the account whose key signs (and pays for) a sponsored
 * batch's outer transaction. Keys come from `SIGIL_GAS_SPONSOR_KEYS` (`caip2=0x<32-byte hex>,…`);
 * outside production the dev EVM chain's sponsor is the dev mnemonic's account #8
 * (DEV_SPONSOR, funded by anvil). The keys stay in this process's memory: never logged, stored or
 * returned.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { hexToBytes } from '@noble/hashes/utils.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { DEV_EVM_CAIP2, normalizeCaip2 } from '../../chains/networks.js'

/**
 * The private key of DEV_SPONSOR: m/44'/60'/0'/0/8 of the public dev mnemonic ("test … junk"),
 * as anvil funds it (a unit test derives it). Only used outside production.
 */
const DEV_SPONSOR_KEY = '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97'

/** Sponsor keys by CAIP-2 id (0x-hex private keys). */
export type SponsorKeys = Readonly<Record<string, string>>

/**
 * Parses `SIGIL_GAS_SPONSOR_KEYS`; outside production the dev EVM chain gets the dev sponsor
 * unless the operator named another. Throws naming the entry (never the key) when malformed.
 */
export function parseSponsorKeys(spec: string | undefined, production: boolean): SponsorKeys {
  const out: Record<string, string> = production ? {} : { [DEV_EVM_CAIP2]: DEV_SPONSOR_KEY }
  for (const [i, entry] of (spec ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .entries()) {
    const eq = entry.indexOf('=')
    const caip2 = eq > 0 ? normalizeCaip2(entry.slice(0, eq).trim()) : ''
    const key = eq > 0 ? entry.slice(eq + 1).trim() : ''
    if (!/^eip155:[0-9]{1,20}$/.test(caip2))
      throw new Error(`SIGIL_GAS_SPONSOR_KEYS entry ${i + 1}: expected eip155:<chain id>=0x<32-byte hex key>`)
    if (!/^0x[0-9a-fA-F]{64}$/.test(key) || !secp256k1.utils.isValidSecretKey(hexToBytes(key.slice(2))))
      throw new Error(`SIGIL_GAS_SPONSOR_KEYS entry ${i + 1} (${caip2}): the key is not a 32-byte secp256k1 private key in 0x-hex`)
    out[caip2] = key.toLowerCase()
  }
  return out
}

/** A copy of the network's sponsor key (the caller zeroes it after use), or undefined when it has none. */
export function sponsorKeyOf(keys: SponsorKeys, caip2: string): Uint8Array | undefined {
  const hex = keys[caip2]
  return hex === undefined ? undefined : hexToBytes(hex.slice(2))
}

/** The (lowercase) address of the network's sponsor, or undefined when it has none. */
export function sponsorAddressOf(keys: SponsorKeys, caip2: string): string | undefined {
  const key = sponsorKeyOf(keys, caip2)
  if (!key) return undefined
  const pub = secp256k1.getPublicKey(key, false)
  key.fill(0)
  return `0x${Buffer.from(keccak_256(pub.slice(1)).slice(-20)).toString('hex')}`
}
