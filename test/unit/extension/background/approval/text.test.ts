import { describe, expect, it } from 'vitest'
import { significantText } from '@/src/extension/amounts'
import { feeRows, gweiText } from '@/src/extension/background/approval/text'

const ETH = { symbol: 'ETH', decimals: 18 }

describe('fee text', () => {
  it('rounds to 4 significant digits: to the nearest, or up for an "at most" figure; whole units are never cut', () => {
    expect(significantText(75_600_123_456_789n, 18)).toBe('0.0000756')
    expect(significantText(75_650_000_000_000n, 18)).toBe('0.00007565')
    expect(significantText(75_655_000_000_000n, 18)).toBe('0.00007566')
    expect(significantText(75_654_999_999_999n, 18)).toBe('0.00007565')
    expect(significantText(75_600_000_000_001n, 18, 4, true)).toBe('0.00007561')
    expect(significantText(75_600_000_000_000n, 18, 4, true)).toBe('0.0000756')
    expect(significantText(99_996n, 9)).toBe('0.0001')
    expect(significantText(123_456n, 1)).toBe('12346')
    expect(significantText(0n, 18)).toBe('0')
    expect(significantText(7n, 18)).toBe('0.000000000000000007')
  })

  it('gwei per gas with at most 4 significant digits', () => {
    expect(gweiText(1_500_000_000n)).toBe('1.5 gwei')
    expect(gweiText(2_000_000_007n)).toBe('2 gwei')
    expect(gweiText(123_456_789n)).toBe('0.1235 gwei')
    expect(gweiText(7n)).toBe('0.000000007 gwei')
  })

  it('fee rows carry the native unit; the maximum is rounded up and the total is the value plus the maximum as shown', () => {
    const rows = feeRows({
      valueWei: 10n ** 18n,
      gasLimit: 21_000n,
      price: { maxFeePerGas: 3_600_000_001n, maxPriorityFeePerGas: 1_000_000_000n },
      estimatedWei: 52_500_123_456_789n,
      native: ETH,
    })
    expect(rows).toEqual([
      ['Max fee per gas', '3.6 gwei'],
      ['Priority fee per gas', '1 gwei'],
      ['Gas limit', '21000'],
      ['Estimated fee', '≈ 0.0000525 ETH'],
      ['Max network fee', 'at most 0.00007561 ETH'],
      ['Total (at most)', '1.00007561 ETH (value + max network fee)'],
    ])
  })

  it('a legacy gas price, and an unknown gas limit, keep the unit', () => {
    const rows = feeRows({ valueWei: 0n, gasLimit: null, price: { gasPrice: 1_234_567_890n }, native: { symbol: 'POL', decimals: 18 } })
    expect(rows).toEqual([
      ['Gas price', '1.235 gwei'],
      ['Gas limit', 'unknown (the gas could not be estimated)'],
      ['Total', '0 POL + the network fee (unknown)'],
    ])
  })
})
