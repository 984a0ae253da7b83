/**
 * Mnemonics, paths, defaults and the refusal cases (address-formats.md "Sigil's choices").
 */
import { mnemonicToSeedSync } from '@scure/bip39'
import { describe, expect, it } from 'vitest'
import { SigilError } from '../../../src/api/errors.js'
import { bytesToHex } from '../../../src/crypto/encoding.js'
import { DEFAULT_ACCOUNTS, nextDefaultPath } from '../../../src/chains/defaults.js'
import { addressFromPublicKey, assertFormatFitsCurve, deriveAccount, deriveKey } from '../../../src/chains/derive.js'
import { generateMnemonic, mnemonicToSeed, validateMnemonic } from '../../../src/chains/mnemonic.js'
import { HARDENED, parsePath } from '../../../src/chains/path.js'
import { ADDRESS_FORMATS, type AddressFormat } from '../../../src/chains/types.js'

const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'
const seed = mnemonicToSeed(ABANDON)

/** Asserts `fn` throws a 400 SigilError whose field violations include every name in `fields`. */
function expectFieldError(fn: () => unknown, ...fields: string[]): SigilError {
  let err: unknown
  try {
    fn()
  } catch (e) {
    err = e
  }
  expect(err).toBeInstanceOf(SigilError)
  const e = err as SigilError
  expect(e.httpStatus).toBe(400)
  expect(e.code).toBe('INVALID_ARGUMENT')
  for (const f of fields) expect(e.fieldViolations.map((v) => v.field)).toContain(f)
  return e
}

describe('mnemonic', () => {
  it('generates valid mnemonics of every allowed length', () => {
    for (const n of [12, 15, 18, 21, 24] as const) {
      const m = generateMnemonic(n)
      expect(m.split(' ')).toHaveLength(n)
      expect(validateMnemonic(m)).toBe(true)
    }
    expect(generateMnemonic().split(' ')).toHaveLength(12)
    expect(generateMnemonic()).not.toBe(generateMnemonic())
  })

  it('BIP-39 seed of "abandon … about" (BIP-39 / Trezor vectors, empty passphrase) is 5eb00bbd…', () => {
    expect(bytesToHex(seed).slice(0, 16)).toBe('5eb00bbddcf06908')
    expect(bytesToHex(seed)).toBe(bytesToHex(mnemonicToSeedSync(ABANDON, '')))
  })

  it('refuses a bad checksum, unknown words and bad lengths', () => {
    expect(validateMnemonic(ABANDON.replace(/about$/, 'abandon'))).toBe(false)
    expect(validateMnemonic('hello world')).toBe(false)
    const e = expectFieldError(() => mnemonicToSeed('abandon abandon abandon'), 'mnemonic')
    expect(e.message).toContain('invalid mnemonic')
    expectFieldError(() => generateMnemonic(13 as 12), 'mnemonicLength')
  })
})

describe('parsePath', () => {
  it('parses hardened markers and plain indices', () => {
    expect(parsePath('m')).toEqual([])
    expect(parsePath("m/44'/60h/0'/0/7")).toEqual([44 + HARDENED, 60 + HARDENED, HARDENED, 0, 7])
    expect(parsePath("m/2147483647'")).toEqual([2 ** 32 - 1])
  })

  it.each(['', 'M/0', '44/0', 'm/', 'm//0', 'm/0/', 'm/-1', 'm/2147483648', 'm/0x10', "m/1''", 'm/01', 'm/1 ', 'm/a', "m/0'/1H", 'n/0'])(
    'refuses %j naming path',
    (p) => {
      expectFieldError(() => parsePath(p), 'path')
    },
  )
})

describe('deriveKey / deriveAccount refusals', () => {
  it('refuses non-hardened segments on ed25519 naming path', () => {
    expectFieldError(() => deriveKey({ seed, curve: 'CURVE_ED25519', path: "m/44'/501'/0'/0" }), 'path')
  })

  it('refuses a malformed path naming path', () => {
    expectFieldError(() => deriveKey({ seed, curve: 'CURVE_SECP256K1', path: "m/44'/x" }), 'path')
  })

  it('refuses a curve/format mismatch naming both', () => {
    const e = expectFieldError(
      () => deriveAccount({ seed, curve: 'CURVE_ED25519', path: "m/44'/60'/0'/0'/0'", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }),
      'curve',
      'addressFormat',
    )
    expect(e.message).toContain('ADDRESS_FORMAT_ETHEREUM')
    expect(e.message).toContain('CURVE_ED25519')
    expectFieldError(() => assertFormatFitsCurve('CURVE_SECP256K1', 'ADDRESS_FORMAT_SOLANA'), 'curve', 'addressFormat')
    expectFieldError(() => assertFormatFitsCurve('CURVE_P256', 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR'), 'curve', 'addressFormat')
    expectFieldError(() => assertFormatFitsCurve('CURVE_ED25519', 'ADDRESS_FORMAT_UNCOMPRESSED'), 'curve', 'addressFormat')
  })

  it('refuses unknown curve and format names', () => {
    expectFieldError(() => assertFormatFitsCurve('CURVE_X' as 'CURVE_P256', 'ADDRESS_FORMAT_COMPRESSED'), 'curve')
    expectFieldError(() => assertFormatFitsCurve('CURVE_P256', 'ADDRESS_FORMAT_NOPE' as AddressFormat), 'addressFormat')
  })

  it('refuses an invalid public key', () => {
    expectFieldError(() => addressFromPublicKey('CURVE_SECP256K1', 'ADDRESS_FORMAT_ETHEREUM', new Uint8Array(33)), 'publicKey')
    expectFieldError(() => addressFromPublicKey('CURVE_ED25519', 'ADDRESS_FORMAT_SOLANA', new Uint8Array(31)), 'publicKey')
  })

  it('returns 33-byte keys for secp256k1/P-256 and 32-byte keys for ed25519', () => {
    expect(deriveKey({ seed, curve: 'CURVE_SECP256K1', path: 'm/0' }).publicKey).toHaveLength(33)
    expect(deriveKey({ seed, curve: 'CURVE_P256', path: "m/0/1'" }).publicKey).toHaveLength(33)
    expect(deriveKey({ seed, curve: 'CURVE_ED25519', path: "m/0'" }).publicKey).toHaveLength(32)
  })
})

describe('defaults', () => {
  it('matches the address-formats.md table', () => {
    expect(DEFAULT_ACCOUNTS.ADDRESS_FORMAT_ETHEREUM).toEqual({ curve: 'CURVE_SECP256K1', path: "m/44'/60'/0'/0/0" })
    expect(DEFAULT_ACCOUNTS.ADDRESS_FORMAT_SOLANA).toEqual({ curve: 'CURVE_ED25519', path: "m/44'/501'/0'/0'" })
    expect(DEFAULT_ACCOUNTS.ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH?.path).toBe("m/48'/0'/0'/2'/0/0")
    expect(DEFAULT_ACCOUNTS.ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR?.path).toBe("m/86'/1'/0'/0/0")
    expect(DEFAULT_ACCOUNTS.ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH?.path).toBe("m/44'/1'/0'/0/0")
    expect(DEFAULT_ACCOUNTS.ADDRESS_FORMAT_TON_V5R1?.path).toBe("m/44'/607'/0'/0'/0'")
    expect(DEFAULT_ACCOUNTS.ADDRESS_FORMAT_UNCOMPRESSED).toBeUndefined()
    expect(DEFAULT_ACCOUNTS.ADDRESS_FORMAT_COMPRESSED).toBeUndefined()
  })

  it('every default derives an address on its curve', () => {
    for (const f of ADDRESS_FORMATS) {
      const d = DEFAULT_ACCOUNTS[f]
      if (!d) continue
      const a = deriveAccount({ seed, curve: d.curve, path: d.path, addressFormat: f })
      expect(a.address.length).toBeGreaterThan(20)
    }
  })

  it('nextDefaultPath bumps the last segment past existing accounts', () => {
    expect(nextDefaultPath('ADDRESS_FORMAT_ETHEREUM', [])).toBe("m/44'/60'/0'/0/0")
    expect(nextDefaultPath('ADDRESS_FORMAT_ETHEREUM', ["m/44'/60'/0'/0/0", 'm/44h/60h/0h/0/3', "m/44'/501'/0'/0'"])).toBe(
      "m/44'/60'/0'/0/4",
    )
    expect(nextDefaultPath('ADDRESS_FORMAT_SOLANA', ["m/44'/501'/0'/0'", "m/44'/501'/1'/0'"])).toBe("m/44'/501'/0'/1'")
    expect(nextDefaultPath('ADDRESS_FORMAT_TRON', ["m/44'/195'/0'"])).toBe("m/44'/195'/1'")
    expect(nextDefaultPath('ADDRESS_FORMAT_XLM', ['garbage', "m/44'/148'/0'"])).toBe("m/44'/148'/1'")
    expectFieldError(() => nextDefaultPath('ADDRESS_FORMAT_COMPRESSED', []), 'path')
  })
})
