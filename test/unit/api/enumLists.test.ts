/**
 * The one list of each enum (src/api/enumLists.ts) and what is derived from it: the zod
 * enums, the chains layer's lists and tables, and the popup's choices.
 */
import { describe, expect, it } from 'vitest'
import {
  ADDRESS_FORMATS,
  AddressFormat,
  BITCOIN_ADDRESS_FORMATS,
  BITCOIN_ADDRESS_TYPES,
  BITCOIN_NETWORKS,
  CURVES,
  Curve,
  ON_RAMP_CRYPTO_CURRENCIES,
  ON_RAMP_CURRENCY_NETWORKS,
  ON_RAMP_NETWORKS,
  ON_RAMP_PROVIDERS,
  onRampCurrenciesOn,
} from '../../../src/api/enums.js'
import * as lists from '../../../src/api/enumLists.js'
import { DEFAULT_ACCOUNTS } from '../../../src/chains/defaults.js'
import { FORMAT_FACTS } from '../../../src/chains/formats/facts.js'
import { FORMATS } from '../../../src/chains/formats/index.js'
import * as chainTypes from '../../../src/chains/types.js'
import { bitcoinFormatParts } from '../../../src/chains/types.js'
import { chainOf, variantOf } from '../../../src/extension/popup/chains.js'
import { NETWORKS, PROVIDERS } from '../../../src/extension/popup/onRampOptions.js'

describe('enum lists', () => {
  it('src/api/enums.ts re-exports the very same tuples, and src/chains/types.ts too', () => {
    expect(ADDRESS_FORMATS).toBe(lists.ADDRESS_FORMATS)
    expect(CURVES).toBe(lists.CURVES)
    expect(chainTypes.ADDRESS_FORMATS).toBe(lists.ADDRESS_FORMATS)
    expect(chainTypes.CURVES).toBe(lists.CURVES)
  })

  it('the zod enums accept exactly their list', () => {
    expect(Curve.options).toEqual([...CURVES])
    expect(AddressFormat.options).toEqual([...ADDRESS_FORMATS])
    expect(Curve.safeParse('CURVE_X').success).toBe(false)
  })

  it('36 distinct address formats; the 20 Bitcoin ones are networks × types, network-major', () => {
    expect(ADDRESS_FORMATS).toHaveLength(36)
    expect(new Set(ADDRESS_FORMATS).size).toBe(36)
    expect(BITCOIN_ADDRESS_FORMATS).toHaveLength(BITCOIN_NETWORKS.length * BITCOIN_ADDRESS_TYPES.length)
    expect(BITCOIN_ADDRESS_FORMATS.slice(0, 2)).toEqual(['ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH', 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH'])
    for (const f of BITCOIN_ADDRESS_FORMATS) expect(ADDRESS_FORMATS).toContain(f)
    expect(ADDRESS_FORMATS.slice(-3)).toEqual(['ADDRESS_FORMAT_TON_V3R2', 'ADDRESS_FORMAT_TON_V4R2', 'ADDRESS_FORMAT_TON_V5R1'])
  })

  it('bitcoinFormatParts splits exactly the Bitcoin formats', () => {
    expect(bitcoinFormatParts('ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH')).toEqual({ network: 'SIGNET', type: 'P2WSH' })
    expect(ADDRESS_FORMATS.filter((f) => bitcoinFormatParts(f))).toEqual(BITCOIN_ADDRESS_FORMATS)
    expect(bitcoinFormatParts('ADDRESS_FORMAT_BITCOIN_MAINNET_P2X')).toBeUndefined()
  })

  it('the chains tables cover every format, in list order', () => {
    expect(Object.keys(FORMATS)).toEqual([...ADDRESS_FORMATS])
    expect(Object.keys(FORMAT_FACTS)).toEqual([...ADDRESS_FORMATS])
    expect(FORMATS.ADDRESS_FORMAT_COMPRESSED.curves).toEqual([...CURVES])
    expect(DEFAULT_ACCOUNTS.ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH?.path).toBe("m/48'/0'/0'/2'/0/0")
    expect(DEFAULT_ACCOUNTS.ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR?.path).toBe("m/86'/1'/0'/0/0")
    expect(DEFAULT_ACCOUNTS.ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH?.path).toBe("m/44'/1'/0'/0/0")
  })

  it('the popup labels every format with a chain, and variants from the lists', () => {
    for (const f of ADDRESS_FORMATS) expect(chainOf(f)).not.toMatch(/ADDRESS_FORMAT|_/)
    expect(chainOf('ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR')).toBe('Bitcoin testnet')
    expect(variantOf('ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH')).toBe('P2WSH')
    expect(variantOf('ADDRESS_FORMAT_TON_V4R2')).toBe('V4R2')
    expect(variantOf('ADDRESS_FORMAT_ETHEREUM')).toBe('')
  })

  it('on-ramp: every currency carried somewhere; the popup offers every provider and network with the carried cryptos', () => {
    for (const c of ON_RAMP_CRYPTO_CURRENCIES) expect(ON_RAMP_CURRENCY_NETWORKS[c].length).toBeGreaterThan(0)
    expect(PROVIDERS.map(([p]) => p)).toEqual([...ON_RAMP_PROVIDERS])
    expect(NETWORKS.map((n) => n.network).sort()).toEqual([...ON_RAMP_NETWORKS].sort())
    expect(NETWORKS.find((n) => n.network === 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE')?.cryptos).toEqual([
      'FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH',
      'FIAT_ON_RAMP_CRYPTO_CURRENCY_USDC',
    ])
    expect(onRampCurrenciesOn('FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BITCOIN')).toEqual(['FIAT_ON_RAMP_CRYPTO_CURRENCY_BTC'])
  })
})
