/**
 * Every one of the 36 address formats against a value from an independent published source or an
 * independent library (the source is named on each case). derivation-vectors.json entries are
 * checked again in vectors.test.ts; this file guarantees per-format coverage.
 */
import { deriveEd25519Path } from '@ton/crypto'
import { bech32 } from '@scure/base'
import { privateKeyToAddress } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { bytesToHex, hexToBytes } from '../../../src/crypto/encoding.js'
import { addressFromPublicKey, deriveAccount, deriveKey } from '../../../src/chains/derive.js'
import { FORMATS } from '../../../src/chains/formats/index.js'
import { mnemonicToSeed } from '../../../src/chains/mnemonic.js'
import { ADDRESS_FORMATS, type AddressFormat, type Curve } from '../../../src/chains/types.js'

const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'
const seed = mnemonicToSeed(ABANDON)

/** secp256k1 generator G (SEC 2 §2.4.1), the key behind BIP-173's example addresses. */
const SECP_G_COMPRESSED = '0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798'
const SECP_G_UNCOMPRESSED =
  '0479be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8'
/** P-256 generator G (SEC 2 §2.4.2 / FIPS 186-4 D.1.2.3). */
const P256_G_COMPRESSED = '036b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296'
const P256_G_UNCOMPRESSED =
  '046b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c2964fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5'
/** SLIP-0010 "Test vector 1 for ed25519", chain m: public key. */
const SLIP10_ED25519_M = 'a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed'

type Case =
  | { format: AddressFormat; source: string; curve: Curve; path: string; expected: string }
  | { format: AddressFormat; source: string; curve: Curve; publicKey: string; expected: string }

// BIP-173 example P2WSH program (witness script <G> OP_CHECKSIG), decoded to re-encode for regtest.
const BIP173_P2WSH_MAIN = 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3'
const BIP173_P2WSH_TEST = 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7'
const p2wshRegtest = bech32.encode('bcrt', bech32.decode(BIP173_P2WSH_MAIN as `${string}1${string}`).words)
// SEI: same HASH160 as the published COSMOS address (bip_utils COSMOS vector), hrp "sei".
const COSMOS_ABANDON = 'cosmos19rl4cm2hmr8afy4kldpxz3fka4jguq0auqdal4'
const seiFromCosmos = bech32.encode('sei', bech32.decode(COSMOS_ABANDON as `${string}1${string}`).words)

const CASES: Case[] = [
  {
    format: 'ADDRESS_FORMAT_UNCOMPRESSED',
    source: 'SEC 2 secp256k1 G',
    curve: 'CURVE_SECP256K1',
    publicKey: SECP_G_COMPRESSED,
    expected: SECP_G_UNCOMPRESSED,
  },
  {
    format: 'ADDRESS_FORMAT_UNCOMPRESSED',
    source: 'SEC 2 P-256 G',
    curve: 'CURVE_P256',
    publicKey: P256_G_COMPRESSED,
    expected: P256_G_UNCOMPRESSED,
  },
  {
    format: 'ADDRESS_FORMAT_COMPRESSED',
    source: 'BIP-84 test vectors (pubkey m/84h/0h/0h/0/0)',
    curve: 'CURVE_SECP256K1',
    path: "m/84'/0'/0'/0/0",
    expected: '0330d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c',
  },
  {
    format: 'ADDRESS_FORMAT_COMPRESSED',
    source: 'SLIP-0010 ed25519 vector 1 m',
    curve: 'CURVE_ED25519',
    publicKey: SLIP10_ED25519_M,
    expected: SLIP10_ED25519_M,
  },
  {
    format: 'ADDRESS_FORMAT_COMPRESSED',
    source: 'SEC 2 P-256 G',
    curve: 'CURVE_P256',
    publicKey: P256_G_UNCOMPRESSED,
    expected: P256_G_COMPRESSED,
  },
  {
    format: 'ADDRESS_FORMAT_ETHEREUM',
    source: 'bip_utils BIP-44 ETHEREUM',
    curve: 'CURVE_SECP256K1',
    path: "m/44'/60'/0'/0/0",
    expected: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
  },
  {
    format: 'ADDRESS_FORMAT_ETHEREUM',
    source: 'well-known address of private key 1 (G)',
    curve: 'CURVE_SECP256K1',
    publicKey: SECP_G_COMPRESSED,
    expected: '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf',
  },
  {
    format: 'ADDRESS_FORMAT_SOLANA',
    source: 'bip_utils BIP-44 SOLANA',
    curve: 'CURVE_ED25519',
    path: "m/44'/501'/0'/0'/0'",
    expected: 'B9sVeu4rJU12oUrUtzjc6BSNuEXdfvurZkdcaTVkP2LY',
  },
  {
    format: 'ADDRESS_FORMAT_SOLANA',
    source: 'Solana System Program id = base58(32 zero bytes)',
    curve: 'CURVE_ED25519',
    publicKey: '00'.repeat(32),
    expected: '11111111111111111111111111111111',
  },
  {
    format: 'ADDRESS_FORMAT_COSMOS',
    source: 'bip_utils BIP-44 COSMOS',
    curve: 'CURVE_SECP256K1',
    path: "m/44'/118'/0'/0/0",
    expected: COSMOS_ABANDON,
  },
  {
    format: 'ADDRESS_FORMAT_TRON',
    source: 'bip_utils BIP-44 TRON',
    curve: 'CURVE_SECP256K1',
    path: "m/44'/195'/0'/0/0",
    expected: 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
  },
  {
    format: 'ADDRESS_FORMAT_SUI',
    source: 'bip_utils BIP-44 SUI',
    curve: 'CURVE_ED25519',
    path: "m/44'/784'/0'/0'/0'",
    expected: '0x5e93a736d04fbb25737aa40bee40171ef79f65fae833749e3c089fe7cc2161f1',
  },
  {
    format: 'ADDRESS_FORMAT_APTOS',
    source: 'bip_utils BIP-44 APTOS',
    curve: 'CURVE_ED25519',
    path: "m/44'/637'/0'/0'/0'",
    expected: '0xeb663b681209e7087d681c5d3eed12aaa8e1915e7c87794542c3f96e94b3d3bf',
  },
  {
    format: 'ADDRESS_FORMAT_SEI',
    source: 'bip_utils COSMOS address re-encoded with hrp sei (@scure/base bech32)',
    curve: 'CURVE_SECP256K1',
    path: "m/44'/118'/0'/0/0",
    expected: seiFromCosmos,
  },
  {
    format: 'ADDRESS_FORMAT_XLM',
    source: 'SEP-0005 test 5 (m/44h/148h/0h)',
    curve: 'CURVE_ED25519',
    path: "m/44'/148'/0'",
    expected: 'GB3JDWCQJCWMJ3IILWIGDTQJJC5567PGVEVXSCVPEQOTDN64VJBDQBYX',
  },
  {
    format: 'ADDRESS_FORMAT_XRP',
    source: 'bip_utils BIP-44 RIPPLE',
    curve: 'CURVE_SECP256K1',
    path: "m/44'/144'/0'/0/0",
    expected: 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3',
  },
  // Bitcoin P2PKH
  {
    format: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH',
    source: 'SLIP-0132 / bip_utils BIP-44',
    curve: 'CURVE_SECP256K1',
    path: "m/44'/0'/0'/0/0",
    expected: '1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA',
  },
  {
    format: 'ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH',
    source: 'bip_utils BIP-44 BITCOIN_TESTNET',
    curve: 'CURVE_SECP256K1',
    path: "m/44'/1'/0'/0/0",
    expected: 'mkpZhYtJu2r87Js3pDiWJDmPte2NRZ8bJV',
  },
  {
    format: 'ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH',
    source: 'bip_utils BIP-44 BITCOIN_TESTNET (signet = testnet version bytes)',
    curve: 'CURVE_SECP256K1',
    path: "m/44'/1'/0'/0/0",
    expected: 'mkpZhYtJu2r87Js3pDiWJDmPte2NRZ8bJV',
  },
  {
    format: 'ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH',
    source: 'bip_utils BIP-44 BITCOIN_REGTEST (= testnet version bytes)',
    curve: 'CURVE_SECP256K1',
    path: "m/44'/1'/0'/0/0",
    expected: 'mkpZhYtJu2r87Js3pDiWJDmPte2NRZ8bJV',
  },
  // Bitcoin P2SH-P2WPKH (BIP-49)
  {
    format: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH',
    source: 'SLIP-0132 / bip_utils BIP-49 BITCOIN',
    curve: 'CURVE_SECP256K1',
    path: "m/49'/0'/0'/0/0",
    expected: '37VucYSaXLCAsxYyAPfbSi9eh4iEcbShgf',
  },
  {
    format: 'ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH',
    source: 'BIP-49 test vectors (account0recvAddress)',
    curve: 'CURVE_SECP256K1',
    path: "m/49'/1'/0'/0/0",
    expected: '2Mww8dCYPUpKHofjgcXcBCEGmniw9CoaiD2',
  },
  {
    format: 'ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH',
    source: 'BIP-49 test vectors (signet = testnet version bytes)',
    curve: 'CURVE_SECP256K1',
    path: "m/49'/1'/0'/0/0",
    expected: '2Mww8dCYPUpKHofjgcXcBCEGmniw9CoaiD2',
  },
  {
    format: 'ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH',
    source: 'BIP-49 test vectors (regtest = testnet version bytes)',
    curve: 'CURVE_SECP256K1',
    path: "m/49'/1'/0'/0/0",
    expected: '2Mww8dCYPUpKHofjgcXcBCEGmniw9CoaiD2',
  },
  // Bitcoin P2WPKH
  {
    format: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH',
    source: 'BIP-84 test vectors',
    curve: 'CURVE_SECP256K1',
    path: "m/84'/0'/0'/0/0",
    expected: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
  },
  {
    format: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH',
    source: 'BIP-173 example P2WPKH of G',
    curve: 'CURVE_SECP256K1',
    publicKey: SECP_G_COMPRESSED,
    expected: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
  },
  {
    format: 'ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH',
    source: 'BIP-173 example testnet P2WPKH of G',
    curve: 'CURVE_SECP256K1',
    publicKey: SECP_G_COMPRESSED,
    expected: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
  },
  {
    format: 'ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH',
    source: 'bip_utils BIP-84 BITCOIN_TESTNET (signet hrp tb)',
    curve: 'CURVE_SECP256K1',
    path: "m/84'/1'/0'/0/0",
    expected: 'tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl',
  },
  {
    format: 'ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH',
    source: 'bip_utils BIP-84 BITCOIN_REGTEST',
    curve: 'CURVE_SECP256K1',
    path: "m/84'/1'/0'/0/0",
    expected: 'bcrt1q6rz28mcfaxtmd6v789l9rrlrusdprr9pz3cppk',
  },
  // Bitcoin P2WSH of <pk> OP_CHECKSIG
  {
    format: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH',
    source: 'BIP-173 example P2WSH (<G> OP_CHECKSIG)',
    curve: 'CURVE_SECP256K1',
    publicKey: SECP_G_COMPRESSED,
    expected: BIP173_P2WSH_MAIN,
  },
  {
    format: 'ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH',
    source: 'BIP-173 example testnet P2WSH',
    curve: 'CURVE_SECP256K1',
    publicKey: SECP_G_COMPRESSED,
    expected: BIP173_P2WSH_TEST,
  },
  {
    format: 'ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH',
    source: 'BIP-173 example testnet P2WSH (signet hrp tb)',
    curve: 'CURVE_SECP256K1',
    publicKey: SECP_G_COMPRESSED,
    expected: BIP173_P2WSH_TEST,
  },
  {
    format: 'ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH',
    source: 'BIP-173 P2WSH program re-encoded with hrp bcrt (@scure/base)',
    curve: 'CURVE_SECP256K1',
    publicKey: SECP_G_COMPRESSED,
    expected: p2wshRegtest,
  },
  // Bitcoin P2TR (BIP-86)
  {
    format: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR',
    source: 'BIP-86 test vectors',
    curve: 'CURVE_SECP256K1',
    path: "m/86'/0'/0'/0/0",
    expected: 'bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr',
  },
  {
    format: 'ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR',
    source: 'bip_utils BIP-86 BITCOIN_TESTNET',
    curve: 'CURVE_SECP256K1',
    path: "m/86'/1'/0'/0/0",
    expected: 'tb1p8wpt9v4frpf3tkn0srd97pksgsxc5hs52lafxwru9kgeephvs7rqlqt9zj',
  },
  {
    format: 'ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR',
    source: 'bip_utils BIP-86 BITCOIN_TESTNET (signet hrp tb)',
    curve: 'CURVE_SECP256K1',
    path: "m/86'/1'/0'/0/0",
    expected: 'tb1p8wpt9v4frpf3tkn0srd97pksgsxc5hs52lafxwru9kgeephvs7rqlqt9zj',
  },
  {
    format: 'ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR',
    source: 'bip_utils BIP-86 BITCOIN_REGTEST',
    curve: 'CURVE_SECP256K1',
    path: "m/86'/1'/0'/0/0",
    expected: 'bcrt1p8wpt9v4frpf3tkn0srd97pksgsxc5hs52lafxwru9kgeephvs7rqjeprhg',
  },
  // Dogecoin
  {
    format: 'ADDRESS_FORMAT_DOGE_MAINNET',
    source: 'bip_utils BIP-44 DOGECOIN; ledger-live abandon seed',
    curve: 'CURVE_SECP256K1',
    path: "m/44'/3'/0'/0/0",
    expected: 'DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC',
  },
  {
    format: 'ADDRESS_FORMAT_DOGE_TESTNET',
    source: 'bip_utils BIP-44 DOGECOIN_TESTNET',
    curve: 'CURVE_SECP256K1',
    path: "m/44'/1'/0'/0/0",
    expected: 'nZVmfmUtKPmskB9Ds4P9GUJy9eYFqPKHqH',
  },
  // TON: expected strings computed with the official @ton/ton 16.3.0
  // (WalletContractV3R2/WalletContractV4/WalletContractV5R1.create({workchain:0, publicKey}).address
  //  .toString({bounceable:false, urlSafe:true, testOnly:false})), for the SLIP-10 ed25519 vector-1 key.
  {
    format: 'ADDRESS_FORMAT_TON_V3R2',
    source: '@ton/ton 16.3.0 WalletContractV3R2',
    curve: 'CURVE_ED25519',
    publicKey: SLIP10_ED25519_M,
    expected: 'UQCyIQkWixHgAYc3d2rWBBgzWDhRmOibTPDzbHMkL516NJPF',
  },
  {
    format: 'ADDRESS_FORMAT_TON_V4R2',
    source: '@ton/ton 16.3.0 WalletContractV4',
    curve: 'CURVE_ED25519',
    publicKey: SLIP10_ED25519_M,
    expected: 'UQC9dKQPVpgY3UOXk0J5p35-lZXy0U5JRHhJRkRH1PqZrXwH',
  },
  {
    format: 'ADDRESS_FORMAT_TON_V5R1',
    source: '@ton/ton 16.3.0 WalletContractV5R1',
    curve: 'CURVE_ED25519',
    publicKey: SLIP10_ED25519_M,
    expected: 'UQAMKjnEhR5m3_xwrwRS5KB0ZAjbNEXOrkNaP7x5hxP5F-oC',
  },
  // ... and for the abandon mnemonic at the default TON path m/44'/607'/0'/0'/0'.
  {
    format: 'ADDRESS_FORMAT_TON_V3R2',
    source: '@ton/ton 16.3.0 + @ton/crypto deriveEd25519Path',
    curve: 'CURVE_ED25519',
    path: "m/44'/607'/0'/0'/0'",
    expected: 'UQC4_unJ-jlbLt-3UO46cvKkyYI2-5LT9ZI3OpAvda2MpioL',
  },
  {
    format: 'ADDRESS_FORMAT_TON_V4R2',
    source: '@ton/ton 16.3.0 + @ton/crypto deriveEd25519Path',
    curve: 'CURVE_ED25519',
    path: "m/44'/607'/0'/0'/0'",
    expected: 'UQDxAUFadQXDd3EXGa3TLF_EF66gMc9h3_aZ0j0zXNoIYUCc',
  },
  {
    format: 'ADDRESS_FORMAT_TON_V5R1',
    source: '@ton/ton 16.3.0 + @ton/crypto deriveEd25519Path',
    curve: 'CURVE_ED25519',
    path: "m/44'/607'/0'/0'/0'",
    expected: 'UQDirP22rbgIZLzppawr2lJt42Xf3P9uJJtnbK-CnlqgiQFL',
  },
]

describe('address formats against independent sources', () => {
  it('covers all 36 formats', () => {
    expect(ADDRESS_FORMATS.length).toBe(36)
    expect(Object.keys(FORMATS).sort()).toEqual([...ADDRESS_FORMATS].sort())
    const covered = new Set(CASES.map((c) => c.format))
    expect(ADDRESS_FORMATS.filter((f) => !covered.has(f))).toEqual([])
  })

  it.each(CASES.map((c) => [`${c.format} (${c.source})`, c] as const))('%s', (_name, c) => {
    const address =
      'path' in c
        ? deriveAccount({ seed, curve: c.curve, path: c.path, addressFormat: c.format }).address
        : addressFromPublicKey(c.curve, c.format, hexToBytes(c.publicKey))
    expect(address).toBe(c.expected)
  })
})

describe('cross-checks with independent libraries', () => {
  it('ETHEREUM matches viem privateKeyToAddress for several derived keys', () => {
    for (let i = 0; i < 5; i++) {
      const path = `m/44'/60'/0'/0/${i}`
      const acct = deriveAccount({ seed, curve: 'CURVE_SECP256K1', path, addressFormat: 'ADDRESS_FORMAT_ETHEREUM' })
      expect(acct.address).toBe(privateKeyToAddress(`0x${bytesToHex(acct.privateKey)}`))
    }
  })

  it('ed25519 SLIP-10 derivation matches @ton/crypto deriveEd25519Path', async () => {
    for (const path of [
      [44, 607, 0, 0, 0],
      [44, 501, 0, 0],
      [44, 148, 7],
    ]) {
      const expected = await deriveEd25519Path(Buffer.from(seed), path)
      const ours = deriveKey({ seed, curve: 'CURVE_ED25519', path: `m/${path.map((p) => `${p}'`).join('/')}` })
      expect(bytesToHex(ours.privateKey)).toBe(bytesToHex(expected))
    }
  })
})
