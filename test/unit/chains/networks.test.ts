import { describe, expect, it } from 'vitest'
import { DEV_EVM_CAIP2, DEV_SOLANA_CAIP2, isCaip2, resolveNetworks } from '../../../src/chains/networks'
import { parseUnits } from '../../../src/devchain/faucet'

describe('networks registry', () => {
  it('defaults to the two dev chains', () => {
    const networks = resolveNetworks(undefined)
    expect(networks.map((n) => [n.caip2, n.rpcUrl, n.nativeSymbol, n.nativeDecimals, n.dev])).toEqual([
      [DEV_EVM_CAIP2, 'http://127.0.0.1:8545', 'ETH', 18, true],
      [DEV_SOLANA_CAIP2, 'http://127.0.0.1:8899', 'SOL', 9, true],
    ])
    expect(DEV_SOLANA_CAIP2).toBe('solana:E68UWHA4en9MhqdLvfjX2mjacgWkEZpf')
  })

  it('SIGIL_RPC overrides a known id and adds others, named when well known', () => {
    const networks = resolveNetworks(
      ' eip155:31337=http://127.0.0.1:9545 , eip155:1=https://rpc.example/v1?key=x,eip155:424242=http://10.0.0.1:8545',
    )
    expect(networks.find((n) => n.caip2 === DEV_EVM_CAIP2)?.rpcUrl).toBe('http://127.0.0.1:9545')
    expect(networks.find((n) => n.caip2 === 'eip155:1')).toMatchObject({ name: 'Ethereum', dev: false, family: 'evm' })
    expect(networks.find((n) => n.caip2 === 'eip155:424242')?.name).toBe('EVM chain 424242')
  })

  it('refuses entries that are not caip2=http(s)-url, naming them', () => {
    expect(() => resolveNetworks('eip155:0=http://x')).toThrow(/eip155:0=http:\/\/x/)
    expect(() => resolveNetworks('bitcoin:000=http://x')).toThrow(/CAIP-2/)
    expect(() => resolveNetworks('eip155:1=ftp://x')).toThrow(/eip155:1.*http\(s\) URL/)
    expect(() => resolveNetworks('eip155:1')).toThrow(/CAIP-2/)
    expect(isCaip2('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')).toBe(true)
    expect(isCaip2('solana:short')).toBe(false)
  })
})

describe('faucet amounts', () => {
  it('reads whole units as base units', () => {
    expect(parseUnits('1', 18)).toBe(10n ** 18n)
    expect(parseUnits('0.000000001', 9)).toBe(1n)
    expect(parseUnits('2.5', 9)).toBe(2_500_000_000n)
  })

  it('refuses zero, negatives, exponents, too many decimals and more than the cap', () => {
    for (const bad of ['0', '0.0', '-1', '1e3', ' 1', '1.', '.5', '0x10', '1001', '1.0000000001']) {
      expect(() => parseUnits(bad, 9), bad).toThrow()
    }
  })
})
