import { describe, expect, it } from 'vitest'
import { balanceOfCalldata, decodeTransferCalldata, decodeUint256, transferCalldata } from '../../../src/chains/erc20'
import { DEV_GAS_STATION } from '../../../src/chains/gasStation/dev'
import {
  DEV_EVM_CAIP2,
  DEV_SOLANA_CAIP2,
  DEV_SOLANA_MINT,
  DEV_SOLANA_TOKEN,
  erc20AssetId,
  explorerTxUrl,
  isCaip2,
  parseTokens,
  resolveNetworks,
} from '../../../src/chains/networks'
import { resolveConfig } from '../../../src/service/config'
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

describe('SIGIL_TOKENS', () => {
  const usdc = '0xA0b86991c6218b36c1d19d4a2e9eB0cE3606eB48'
  const splMint = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'
  const otherMint = 'So11111111111111111111111111111111111111112'
  it('adds ERC-20 tokens to their EVM networks, address lowercased, name defaulting to the symbol', () => {
    const networks = resolveNetworks(
      'eip155:1=https://rpc.example',
      ` eip155:1=${usdc}:USDC:6:USD Coin:stable , eip155:31337=0x${'11'.repeat(20)}:TST:18`,
    )
    expect(networks.find((n) => n.caip2 === 'eip155:1')?.tokens).toEqual([
      { address: usdc.toLowerCase(), symbol: 'USDC', decimals: 6, name: 'USD Coin', stable: true },
    ])
    expect(networks.find((n) => n.caip2 === DEV_EVM_CAIP2)?.tokens).toEqual([
      { address: `0x${'11'.repeat(20)}`, symbol: 'TST', decimals: 18, name: 'TST', stable: false },
    ])
    expect(networks.find((n) => n.caip2 === DEV_SOLANA_CAIP2)?.tokens).toEqual([DEV_SOLANA_TOKEN])
    expect(resolveNetworks(undefined, '').find((n) => n.caip2 === DEV_EVM_CAIP2)?.tokens).toEqual([])
    // the defaults are not changed by a resolution that adds tokens
    expect(resolveNetworks(undefined).find((n) => n.caip2 === DEV_EVM_CAIP2)?.tokens).toEqual([])
  })

  it('adds SPL tokens to Solana networks, in the caip2= form or the CAIP-19 form, the mint kept as is', () => {
    const networks = resolveNetworks(
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp=https://rpc.example',
      `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp/token:${splMint}:USDC:6:USD Coin:stable, ${DEV_SOLANA_CAIP2}=${otherMint}:TST:9, eip155:31337/erc20:${usdc}:USDC:6`,
    )
    expect(networks.find((n) => n.caip2 === 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')?.tokens).toEqual([
      { address: splMint, symbol: 'USDC', decimals: 6, name: 'USD Coin', stable: true },
    ])
    expect(networks.find((n) => n.caip2 === DEV_SOLANA_CAIP2)?.tokens).toEqual([
      DEV_SOLANA_TOKEN,
      { address: otherMint, symbol: 'TST', decimals: 9, name: 'TST', stable: false },
    ])
    expect(networks.find((n) => n.caip2 === DEV_EVM_CAIP2)?.tokens.map((t) => t.address)).toEqual([usdc.toLowerCase()])
    expect(parseTokens(`${DEV_SOLANA_CAIP2}/token:${otherMint}:TST:9`)).toEqual([
      [DEV_SOLANA_CAIP2, { address: otherMint, symbol: 'TST', decimals: 9, name: 'TST', stable: false }],
    ])
  })

  it('the dev Solana network lists the dev mint: USDC "Dev USD Coin", 6 decimals, as CAIP-19 solana:…/token:<mint>', () => {
    const dev = resolveNetworks(undefined).find((n) => n.caip2 === DEV_SOLANA_CAIP2)
    expect(dev?.tokens).toEqual([{ address: DEV_SOLANA_MINT, symbol: 'USDC', decimals: 6, name: 'Dev USD Coin', stable: true }])
    expect(dev && erc20AssetId(dev, DEV_SOLANA_TOKEN)).toBe(`${DEV_SOLANA_CAIP2}/token:${DEV_SOLANA_MINT}`)
  })

  it('refuses malformed entries, naming them', () => {
    const bad: Array<[string, RegExp]> = [
      [`eip155:1=${usdc}:USDC:6`, /eip155:1 is not a configured network/],
      [`${DEV_SOLANA_CAIP2}=${usdc}:USDC:6`, /the mint is not a base58 Solana address/],
      [`${DEV_SOLANA_CAIP2}/token:${usdc}:USDC:6`, /the mint is not a base58 Solana address/],
      [`${DEV_SOLANA_CAIP2}/token:${'1'.repeat(31)}:USDC:6`, /the mint is not a base58 Solana address/],
      [`${DEV_SOLANA_CAIP2}/erc20:${splMint}:USDC:6`, /a Solana token is solana:…\/token:<mint>/],
      [`eip155:31337/token:${usdc}:USDC:6`, /an EVM token is eip155:…\/erc20:<address>/],
      [`${DEV_SOLANA_CAIP2}/token:${DEV_SOLANA_MINT}:USDC:6`, /listed twice/],
      [`${DEV_SOLANA_CAIP2}/token:${splMint}:USDC`, /decimals/],
      [`${usdc}:USDC:6`, /CAIP-2/],
      ['eip155:31337=0x1234:USDC:6', /address/],
      [`eip155:31337=${usdc}::6`, /symbol/],
      [`eip155:31337=${usdc}:USDC:six`, /decimals/],
      [`eip155:31337=${usdc}:USDC:256`, /decimals/],
      [`eip155:31337=${usdc}:USDC:06`, /decimals/],
      [`eip155:31337=${usdc}:USDC:6:USD Coin:yes`, /stable/],
      [`eip155:31337=${usdc}:USDC:6:USD Coin:stable:x`, /stable/],
      [`eip155:31337=${usdc}:USDC:6:`, /name/],
      [`eip155:31337=${usdc}:USDC:6,eip155:31337=${usdc.toLowerCase()}:USDC:6`, /listed twice/],
    ]
    for (const [spec, message] of bad) {
      expect(() => resolveNetworks(undefined, spec), spec).toThrow(message)
      expect(() => resolveNetworks(undefined, spec), spec).toThrow(/SIGIL_TOKENS/)
    }
  })

  it('is read from the environment by the service configuration', () => {
    const config = resolveConfig({ SIGIL_TOKENS: `eip155:31337=${usdc}:USDC:6` })
    expect(config.networks.find((n) => n.caip2 === DEV_EVM_CAIP2)?.tokens.map((t) => t.symbol)).toEqual(['USDC'])
    expect(() => resolveConfig({ SIGIL_TOKENS: 'eip155:31337=nope' })).toThrow(/invalid configuration: SIGIL_TOKENS/)
  })
})

describe('SIGIL_GAS_STATION and SIGIL_NATIVE_USD', () => {
  const station = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
  it('the dev EVM chain has its Gas Station and a native price; other networks have none until configured', () => {
    const dev = resolveNetworks(undefined).find((n) => n.caip2 === DEV_EVM_CAIP2)
    expect(dev).toMatchObject({ gasStation: DEV_GAS_STATION, nativeUsd: '2000' })
    expect(resolveNetworks(undefined).find((n) => n.caip2 === DEV_SOLANA_CAIP2)?.gasStation).toBeUndefined()
    const mainnet = resolveNetworks('eip155:1=https://rpc.example').find((n) => n.caip2 === 'eip155:1')
    expect(mainnet?.gasStation).toBeUndefined()
    expect(mainnet?.nativeUsd).toBeUndefined()
  })

  it('sets the Gas Station (lowercased) and the price of configured EVM networks, replacing the dev defaults', () => {
    const networks = resolveNetworks('eip155:1=https://rpc.example', undefined, {
      gasStations: ` eip155:1=${station} , eip155:31337=0x${'22'.repeat(20)}`,
      nativeUsd: 'eip155:1=2450.5,eip155:31337=0.000001',
    })
    expect(networks.find((n) => n.caip2 === 'eip155:1')).toMatchObject({ gasStation: station.toLowerCase(), nativeUsd: '2450.5' })
    expect(networks.find((n) => n.caip2 === DEV_EVM_CAIP2)).toMatchObject({ gasStation: `0x${'22'.repeat(20)}`, nativeUsd: '0.000001' })
    // the defaults are not changed by a resolution that overrides them
    expect(resolveNetworks(undefined).find((n) => n.caip2 === DEV_EVM_CAIP2)?.gasStation).toBe(DEV_GAS_STATION)
    // the two-argument call still works and keeps the defaults
    expect(resolveNetworks(undefined, '').find((n) => n.caip2 === DEV_EVM_CAIP2)?.nativeUsd).toBe('2000')
  })

  it('refuses malformed entries, naming the variable and the entry', () => {
    const rpc = 'eip155:1=https://rpc.example'
    const badStations: Array<[string, RegExp]> = [
      [`eip155:10=${station}`, /SIGIL_GAS_STATION: eip155:10 is not a configured network/],
      [`${DEV_SOLANA_CAIP2}=${station}`, /SIGIL_GAS_STATION: .* is not an EVM network/],
      [station, /SIGIL_GAS_STATION: ".*" does not start with a CAIP-2 id/],
      ['eip155:1=0x1234', /SIGIL_GAS_STATION: "eip155:1=0x1234": the address/],
      [`eip155:1=0x${'0'.repeat(40)}`, /SIGIL_GAS_STATION: .*zero address/],
      [`eip155:1=${station},eip155:1=${station}`, /SIGIL_GAS_STATION: eip155:1 is listed twice/],
    ]
    for (const [spec, message] of badStations) expect(() => resolveNetworks(rpc, undefined, { gasStations: spec }), spec).toThrow(message)
    const badPrices: Array<[string, RegExp]> = [
      ['eip155:1=0', /SIGIL_NATIVE_USD: "eip155:1=0": the price must be a positive/],
      ['eip155:1=0.000', /positive/],
      ['eip155:1=-5', /positive/],
      ['eip155:1=1e3', /positive/],
      ['eip155:1=', /positive/],
      ['eip155:1=12,50', /CAIP-2/],
      ['eip155:1=$2000', /positive/],
      ['eip155:10=2000', /SIGIL_NATIVE_USD: eip155:10 is not a configured network/],
      [`${DEV_SOLANA_CAIP2}=150`, /SIGIL_NATIVE_USD: .* is not an EVM network/],
      ['eip155:1=1,eip155:1=2', /SIGIL_NATIVE_USD: eip155:1 is listed twice/],
    ]
    for (const [spec, message] of badPrices) expect(() => resolveNetworks(rpc, undefined, { nativeUsd: spec }), spec).toThrow(message)
  })

  it('is read from the environment by the service configuration', () => {
    const config = resolveConfig({
      SIGIL_RPC: 'eip155:1=https://rpc.example',
      SIGIL_GAS_STATION: `eip155:1=${station}`,
      SIGIL_NATIVE_USD: 'eip155:1=3000',
    })
    expect(config.networks.find((n) => n.caip2 === 'eip155:1')).toMatchObject({ gasStation: station.toLowerCase(), nativeUsd: '3000' })
    expect(() => resolveConfig({ SIGIL_GAS_STATION: 'eip155:31337=nope' })).toThrow(/invalid configuration: SIGIL_GAS_STATION/)
    expect(() => resolveConfig({ SIGIL_NATIVE_USD: 'eip155:31337=0' })).toThrow(/invalid configuration: SIGIL_NATIVE_USD/)
  })
})

describe('SIGIL_EXPLORERS and explorer links', () => {
  const TX = `0x${'ab'.repeat(32)}`
  it('well-known networks link to their public explorer; dev chains have none until configured', () => {
    const nets = resolveNetworks('eip155:1=https://rpc.example,solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1=https://sol.example')
    expect(nets.find((n) => n.caip2 === 'eip155:1')?.explorerUrl).toBe('https://etherscan.io')
    expect(explorerTxUrl(nets.find((n) => n.caip2 === 'eip155:1')?.explorerUrl, TX)).toBe(`https://etherscan.io/tx/${TX}`)
    const devnet = nets.find((n) => n.caip2.startsWith('solana:EtWT'))?.explorerUrl
    expect(explorerTxUrl(devnet, '5VERv8')).toBe('https://explorer.solana.com/tx/5VERv8?cluster=devnet')
    expect(nets.find((n) => n.caip2 === DEV_EVM_CAIP2)?.explorerUrl).toBeUndefined()
    expect(explorerTxUrl(undefined, TX)).toBeUndefined()
  })

  it("an entry sets or replaces a network's explorer; {tx} is where the hash goes, else /tx/<hash>", () => {
    const nets = resolveNetworks('eip155:1=https://rpc.example', undefined, {
      explorers: `eip155:1=https://scan.example/,${DEV_EVM_CAIP2}=http://127.0.0.1:5100/transaction/{tx}`,
    })
    expect(explorerTxUrl(nets.find((n) => n.caip2 === 'eip155:1')?.explorerUrl, TX)).toBe(`https://scan.example/tx/${TX}`)
    expect(explorerTxUrl(nets.find((n) => n.caip2 === DEV_EVM_CAIP2)?.explorerUrl, TX)).toBe(`http://127.0.0.1:5100/transaction/${TX}`)
    expect(explorerTxUrl('javascript:alert(1)', TX)).toBeUndefined()
  })

  it('refuses entries naming the variable and the entry', () => {
    expect(() => resolveNetworks(undefined, undefined, { explorers: 'eip155:5=https://x.example' })).toThrow(
      'SIGIL_EXPLORERS: eip155:5 is not a configured network (add it to SIGIL_RPC)',
    )
    expect(() => resolveNetworks(undefined, undefined, { explorers: `${DEV_EVM_CAIP2}=ftp://x.example` })).toThrow(
      `SIGIL_EXPLORERS: "${DEV_EVM_CAIP2}" needs an http(s) URL after "="`,
    )
    expect(() => resolveNetworks(undefined, undefined, { explorers: 'nope=https://x.example' })).toThrow(
      'SIGIL_EXPLORERS: "nope=https://x.example" does not start with a CAIP-2 id',
    )
    expect(() =>
      resolveNetworks(undefined, undefined, { explorers: `${DEV_EVM_CAIP2}=https://a.example,${DEV_EVM_CAIP2}=https://b.example` }),
    ).toThrow(`SIGIL_EXPLORERS: ${DEV_EVM_CAIP2} is listed twice`)
  })

  it('resolveConfig reads SIGIL_EXPLORERS', () => {
    const config = resolveConfig({ SIGIL_EXPLORERS: `${DEV_EVM_CAIP2}=https://scan.example` })
    expect(config.networks.find((n) => n.caip2 === DEV_EVM_CAIP2)?.explorerUrl).toBe('https://scan.example')
  })
})

describe('ERC-20 calldata', () => {
  const to = '0x00000000000000000000000000000000000000aB'
  it('encodes balanceOf and transfer, and decodes transfer calldata and uint256 results', () => {
    expect(balanceOfCalldata(to)).toBe(`0x70a08231${'0'.repeat(62)}ab`)
    const data = transferCalldata(to, 1000n)
    expect(data).toBe(`0xa9059cbb${'0'.repeat(62)}ab${'0'.repeat(61)}3e8`)
    expect(decodeTransferCalldata(data)).toEqual({ to: to.toLowerCase(), amount: 1000n })
    expect(decodeTransferCalldata(data.toUpperCase().replace('0XA9059CBB', '0xa9059cbb'))).toEqual({ to: to.toLowerCase(), amount: 1000n })
    expect(decodeUint256(`0x${'0'.repeat(63)}7`)).toBe(7n)
    expect(decodeUint256(`0x${'0'.repeat(63)}7${'f'.repeat(64)}`)).toBe(7n)
  })

  it('recognizes nothing else as a transfer, and no short or garbled result as a uint256', () => {
    const data = transferCalldata(to, 1n)
    for (const other of [
      undefined,
      '0x',
      '0xa9059cbb',
      `${data}00`,
      data.slice(0, -2),
      `0x23b872dd${data.slice(10)}`,
      `0xa9059cbb${'f'.repeat(64)}${'0'.repeat(64)}`,
    ]) {
      expect(decodeTransferCalldata(other), String(other)).toBeUndefined()
    }
    for (const bad of ['0x', '0x1234', null, 7, `0x${'z'.repeat(64)}`]) expect(decodeUint256(bad), String(bad)).toBeUndefined()
    expect(() => transferCalldata(to, -1n)).toThrow()
    expect(() => balanceOfCalldata('0x12')).toThrow()
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
