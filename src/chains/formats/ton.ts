/**
 * TON_V3R2 / TON_V4R2 / TON_V5R1: address of the wallet's StateInit{code, data}, workchain 0,
 * mainnet, standard wallet ids, user-friendly non-bounceable base64url `UQ…`
 * (address-formats.md "TON_*"), built with @ton/core.
 */
import { type Cell, Cell as TonCell, beginCell, contractAddress } from '@ton/core'
import { base64, hex } from '@scure/base'
import { bytesToHex } from '../../crypto/encoding.js'
import { WALLET_V3R2_CODE_BOC_BASE64, WALLET_V4R2_CODE_BOC_BASE64, WALLET_V5R1_CODE_BOC_HEX } from '../ton/codeCells.js'
import { ed25519Key } from './common.js'
import type { AddressBuilder } from './descriptor.js'

/** The TON wallet versions Sigil derives. */
export type TonWalletVersion = 'v3r2' | 'v4r2' | 'v5r1'

/** v3/v4 default subwallet id: 698983191 + workchain (0). */
export const TON_V3_V4_WALLET_ID = 698983191
/** v5r1 wallet id: network_global_id(−239) XOR context(1<<31 | wc<<23 | version 0<<15 | subwallet 0). */
export const TON_V5R1_WALLET_ID = (-239 ^ (1 << 31)) >>> 0

const codeCache = new Map<TonWalletVersion, Cell>()

/** The wallet contract code cell for `version` (parsed once). */
export function tonWalletCode(version: TonWalletVersion): Cell {
  let cell = codeCache.get(version)
  if (!cell) {
    const b64 =
      version === 'v3r2'
        ? WALLET_V3R2_CODE_BOC_BASE64
        : version === 'v4r2'
          ? WALLET_V4R2_CODE_BOC_BASE64
          : base64.encode(hex.decode(WALLET_V5R1_CODE_BOC_HEX))
    cell = TonCell.fromBase64(b64)
    codeCache.set(version, cell)
  }
  return cell
}

/** The initial data cell of a fresh wallet (seqno 0, standard wallet id, empty dicts). */
export function tonWalletData(version: TonWalletVersion, publicKey: Uint8Array): Cell {
  const pk = BigInt('0x' + bytesToHex(ed25519Key(publicKey)))
  if (version === 'v5r1') {
    return beginCell()
      .storeUint(1, 1) // is_signature_allowed
      .storeUint(0, 32) // seqno
      .storeUint(TON_V5R1_WALLET_ID, 32)
      .storeUint(pk, 256)
      .storeBit(0) // empty extensions dict
      .endCell()
  }
  const b = beginCell().storeUint(0, 32).storeUint(TON_V3_V4_WALLET_ID, 32).storeUint(pk, 256)
  if (version === 'v4r2') b.storeBit(0) // empty plugins dict
  return b.endCell()
}

/** Non-bounceable mainnet user-friendly address (`UQ…`) of the wallet for an ed25519 key. */
export function tonAddress(version: TonWalletVersion, publicKey: Uint8Array): string {
  const address = contractAddress(0, { code: tonWalletCode(version), data: tonWalletData(version, publicKey) })
  return address.toString({ bounceable: false, urlSafe: true, testOnly: false })
}

export const TON_ADDRESSES = {
  ADDRESS_FORMAT_TON_V3R2: (pk: Uint8Array) => tonAddress('v3r2', pk),
  ADDRESS_FORMAT_TON_V4R2: (pk: Uint8Array) => tonAddress('v4r2', pk),
  ADDRESS_FORMAT_TON_V5R1: (pk: Uint8Array) => tonAddress('v5r1', pk),
} satisfies Record<string, AddressBuilder>
