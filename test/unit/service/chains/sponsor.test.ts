import { HDKey } from '@scure/bip32'
import { mnemonicToSeedSync } from '@scure/bip39'
import { describe, expect, it } from 'vitest'
import { DEV_SPONSOR, DEV_SPONSOR_PATH } from '../../../../src/chains/gasStation/dev.js'
import { DEV_EVM_CAIP2 } from '../../../../src/chains/networks.js'
import { DEV_MNEMONIC } from '../../../../src/devchain/evm.js'
import { parseSponsorKeys, sponsorAddressOf, sponsorKeyOf } from '../../../../src/service/chains/sponsor.js'

const KEY = `0x${'11'.repeat(32)}`

describe('gas sponsor keys', () => {
  it("outside production the dev chain's sponsor is DEV_SPONSOR, whose key is the dev mnemonic's at DEV_SPONSOR_PATH", () => {
    const keys = parseSponsorKeys(undefined, false)
    expect(sponsorAddressOf(keys, DEV_EVM_CAIP2)).toBe(DEV_SPONSOR.toLowerCase())
    const derived = HDKey.fromMasterSeed(mnemonicToSeedSync(DEV_MNEMONIC)).derive(DEV_SPONSOR_PATH).privateKey
    expect(sponsorKeyOf(keys, DEV_EVM_CAIP2)).toEqual(derived)
  })

  it('production has no sponsor unless configured; a configured one replaces the dev default', () => {
    expect(parseSponsorKeys(undefined, true)).toEqual({})
    const keys = parseSponsorKeys(`eip155:1=${KEY}, ${DEV_EVM_CAIP2}=${KEY.toUpperCase().replace('0X', '0x')}`, false)
    expect(Object.keys(keys).sort()).toEqual([DEV_EVM_CAIP2, 'eip155:1'].sort())
    expect(keys[DEV_EVM_CAIP2]).toBe(KEY)
    expect(sponsorAddressOf(keys, 'eip155:5')).toBeUndefined()
  })

  it('a malformed entry is refused naming the entry, never echoing the key', () => {
    const secret = `0x${'ab'.repeat(31)}`
    let message = ''
    try {
      parseSponsorKeys(`eip155:1=${secret}`, true)
    } catch (e) {
      message = (e as Error).message
    }
    expect(message).toContain('SIGIL_GAS_SPONSOR_KEYS entry 1 (eip155:1)')
    expect(message).not.toContain('ab'.repeat(31))
    expect(() => parseSponsorKeys(`solana:abc=${KEY}`, true)).toThrow(/entry 1: expected eip155/)
    // zero is not a valid secp256k1 key
    expect(() => parseSponsorKeys(`eip155:1=0x${'00'.repeat(32)}`, true)).toThrow(/not a 32-byte secp256k1 private key/)
  })

  it('sponsorKeyOf hands out a copy: zeroing it leaves the configured key intact', () => {
    const keys = parseSponsorKeys(`eip155:1=${KEY}`, true)
    sponsorKeyOf(keys, 'eip155:1')?.fill(0)
    expect(sponsorKeyOf(keys, 'eip155:1')).toEqual(new Uint8Array(32).fill(0x11))
  })
})
