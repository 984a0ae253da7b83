/**
 * The service's BIP-39 seed (src/service/chains/seed.ts, Node's PBKDF2) is byte-for-byte the shared
 * pure-JS one (src/chains/mnemonic.ts, @scure/bip39) and the published BIP-39 vector, and refuses
 * what the shared one refuses.
 */
import { describe, expect, it } from 'vitest'
import { generateMnemonic, mnemonicToSeed as sharedSeed } from '../../../src/chains/mnemonic.js'
import { bytesToHex } from '../../../src/crypto/encoding.js'
import { mnemonicToSeed } from '../../../src/service/chains/seed.js'

describe('service BIP-39 seed', () => {
  it('equals the shared seed for every length, and with odd whitespace', async () => {
    for (const length of [12, 15, 18, 21, 24] as const) {
      for (let i = 0; i < 5; i++) {
        const m = generateMnemonic(length)
        expect(bytesToHex(await mnemonicToSeed(m))).toBe(bytesToHex(sharedSeed(m)))
      }
    }
    const m = generateMnemonic(12)
    const spaced = `  ${m.split(' ').join('   ')}\n`
    expect(bytesToHex(await mnemonicToSeed(spaced))).toBe(bytesToHex(sharedSeed(m)))
  })

  it('matches the BIP-39 reference vector (empty passphrase) of "abandon … about"', async () => {
    // bip39 (bitcoinjs) test vector for the empty passphrase.
    const m = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'
    expect(bytesToHex(await mnemonicToSeed(m))).toBe(
      '5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc19a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4',
    )
  })

  it('refuses an invalid mnemonic like the shared code', async () => {
    const bad = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon'
    expect(() => sharedSeed(bad)).toThrow()
    await expect(mnemonicToSeed(bad)).rejects.toThrow(/mnemonic/)
  })
})
