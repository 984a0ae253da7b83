/** Micro-USD amounts of gas sponsorship (src/service/sponsorship/usd.ts): the wire's decimals and fee conversion. */
import { describe, expect, it } from 'vitest'
import { formatUsd, nativeToMicroUsd, parseUsd } from '../../../../src/service/sponsorship/usd.js'

describe('parseUsd / formatUsd', () => {
  it.each([
    ['0', 0n, '0'],
    ['5', 5_000_000n, '5'],
    ['2.5', 2_500_000n, '2.5'],
    ['0.000001', 1n, '0.000001'],
    ['100.250000', 100_250_000n, '100.25'],
    ['999999999999.999999', 999_999_999_999_999_999n, '999999999999.999999'],
  ])('%s is %s micro-USD, written back as %s', (text, micro, back) => {
    expect(parseUsd(text)).toBe(micro)
    expect(formatUsd(micro)).toBe(back)
  })

  it.each(['-1', '1.0000001', 'ten', '', '01', '1e3', ' 1', '1.', '.5', '1000000000000'])('refuses %j', (text) => {
    expect(parseUsd(text)).toBeUndefined()
  })
})

describe('nativeToMicroUsd', () => {
  it('converts wei at the network price, rounding up', () => {
    expect(nativeToMicroUsd(10n ** 18n, 18, '2000')).toBe(2_000_000_000n)
    expect(nativeToMicroUsd(21_000n * 1_000_000_000n, 18, '2450.5')).toBe(51_461n) // 0.0514605 USD, up
    expect(nativeToMicroUsd(1n, 18, '2000')).toBe(1n)
    expect(nativeToMicroUsd(0n, 18, '2000')).toBe(0n)
    expect(nativeToMicroUsd(5_000n, 9, '150.123456789')).toBe(751n) // 5e-6 SOL × 150.12 USD = 0.00075 USD, up
  })

  it('refuses a price that is not a non-negative decimal', () => {
    expect(nativeToMicroUsd(1n, 18, '-1')).toBeUndefined()
    expect(nativeToMicroUsd(1n, 18, 'abc')).toBeUndefined()
  })
})
