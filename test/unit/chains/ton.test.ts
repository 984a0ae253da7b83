/**
 * TON code cells and StateInit (address-formats.md "TON_*"): code-cell hashes/depths from the spec,
 * v5r1 wallet id, and an independent recomputation of the StateInit representation hash with
 * plain SHA-256 per the spec's cell-hash formula (no @ton/core hashing).
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { Address } from '@ton/core'
import { describe, expect, it } from 'vitest'
import { bytesToHex, concatBytes, hexToBytes } from '../../../src/crypto/encoding.js'
import { TON_V5R1_WALLET_ID, tonAddress, tonWalletCode, tonWalletData } from '../../../src/chains/formats/ton.js'
import { WALLET_CODE_HASHES } from '../../../src/chains/ton/codeCells.js'

const PK = hexToBytes('a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed')

describe('TON wallet code cells', () => {
  it('match the spec hashes and depths', () => {
    const spec = { v3r2: ['84dafa44', 'd599', 0], v4r2: ['feb5ff68', 'd5c0', 7], v5r1: ['20834b7b', 'b72f', 6] } as const
    for (const v of ['v3r2', 'v4r2', 'v5r1'] as const) {
      const cell = tonWalletCode(v)
      const h = bytesToHex(cell.hash())
      expect(h).toBe(WALLET_CODE_HASHES[v])
      expect(h.startsWith(spec[v][0]) && h.endsWith(spec[v][1])).toBe(true)
      expect(cell.depth()).toBe(spec[v][2])
    }
  })

  it('v5r1 wallet id is 2147483409 (−239 XOR 1<<31)', () => {
    expect(TON_V5R1_WALLET_ID).toBe(2147483409)
  })

  it('address hash equals SHA-256 of the StateInit cell built by the spec formula', () => {
    for (const v of ['v3r2', 'v4r2', 'v5r1'] as const) {
      const code = tonWalletCode(v)
      const data = tonWalletData(v, PK)
      // StateInit bits `00110` (5 bits): d1 = 2 refs, d2 = ceil(5/8)+floor(5/8) = 1, data = 0b00110_100 (padded)
      const depth = Math.max(code.depth(), data.depth()) + 1
      expect(depth).toBeGreaterThan(0)
      const u16 = (n: number) => new Uint8Array([n >> 8, n & 0xff])
      const repr = concatBytes(new Uint8Array([2, 1, 0b00110100]), u16(code.depth()), u16(data.depth()), code.hash(), data.hash())
      const expectedHash = bytesToHex(sha256(repr))
      const addr = Address.parse(tonAddress(v, PK))
      expect(addr.workChain).toBe(0)
      expect(bytesToHex(addr.hash)).toBe(expectedHash)
      expect(Address.isFriendly(tonAddress(v, PK))).toBe(true)
      expect(Address.parseFriendly(tonAddress(v, PK)).isBounceable).toBe(false)
      expect(Address.parseFriendly(tonAddress(v, PK)).isTestOnly).toBe(false)
      expect(tonAddress(v, PK).startsWith('UQ')).toBe(true)
    }
  })

  it('data cells carry the public key and spec layout', () => {
    const v3 = tonWalletData('v3r2', PK)
    expect(v3.bits.length).toBe(32 + 32 + 256)
    expect(tonWalletData('v4r2', PK).bits.length).toBe(32 + 32 + 256 + 1)
    expect(tonWalletData('v5r1', PK).bits.length).toBe(1 + 32 + 32 + 256 + 1)
    const s = v3.beginParse()
    expect(s.loadUint(32)).toBe(0)
    expect(s.loadUint(32)).toBe(698983191)
    expect(bytesToHex(s.loadBuffer(32))).toBe(bytesToHex(PK))
  })
})
