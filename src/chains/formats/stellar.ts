/**
 * XLM: StrKey account id `G…` = base32(0x30 ‖ pk32 ‖ crc16_xmodem LE) (address-formats.md "XLM", SEP-0023).
 */
import { base32nopad } from '@scure/base'
import { concatBytes } from '../../crypto/encoding.js'
import { crc16Xmodem, ed25519Key } from './common.js'
import type { AddressBuilder } from './descriptor.js'

const VERSION_ACCOUNT_ID = 6 << 3

/** Stellar StrKey account id of an ed25519 public key. */
export function stellarAddress(publicKey: Uint8Array): string {
  const payload = concatBytes(new Uint8Array([VERSION_ACCOUNT_ID]), ed25519Key(publicKey))
  const crc = crc16Xmodem(payload)
  return base32nopad.encode(concatBytes(payload, new Uint8Array([crc & 0xff, crc >> 8])))
}

export const STELLAR_ADDRESSES = {
  ADDRESS_FORMAT_XLM: stellarAddress,
} satisfies Record<string, AddressBuilder>
