/**
 * Watched tokens on the home screen (wallet/balances.ts withWatched), "Import token" checked on
 * chain (wallet/importToken.ts), the network list asked again for a token it lacks
 * (chains/popupNetwork.ts), and fees in significant digits (amounts.ts).
 */
import { describe, expect, it } from 'vitest'
import { encodeAbiParameters, stringToHex } from 'viem'
import type { NetworkInfo } from '@/src/api/serviceIdentity'
import { significantText } from '@/src/extension/amounts'
import { requirePopupNetwork } from '@/src/extension/background/chains/popupNetwork'
import type { Core } from '@/src/extension/background/core'
import { watchedAssets } from '@/src/extension/background/dapp/evm/watchAsset'
import { ExtensionError } from '@/src/extension/background/failures'
import { type BalanceView, withWatched } from '@/src/extension/background/wallet/balances'
import { decodeSymbol } from '@/src/extension/background/wallet/erc20'
import { importToken, previewToken } from '@/src/extension/background/wallet/importToken'
import { memoryArea } from '../../fakeDeps'

const CONFIGURED = '0x1111111111111111111111111111111111111111'
const WATCHED = '0x2222222222222222222222222222222222222222'
const BROKEN = '0x3333333333333333333333333333333333333333'
const NOT_TOKEN = '0x4444444444444444444444444444444444444444'
const EOA = '0x5555555555555555555555555555555555555555'
const NEW_TOKEN = '0x6666666666666666666666666666666666666666'

const network = (tokens: NetworkInfo['tokens'] = []): NetworkInfo => ({
  caip2: 'eip155:31337',
  family: 'evm',
  name: 'Anvil',
  rpcUrl: 'http://127.0.0.1:1/rpc',
  nativeSymbol: 'ETH',
  nativeDecimals: 18,
  dev: true,
  tokens,
})
const configured = { address: CONFIGURED, symbol: 'USDC', decimals: 6, name: 'USD Coin', stable: true }
const watched = (address: string, symbol: string, chainId = '0x7a69') => ({ chainId, address, symbol, decimals: 18, addedAt: 1 })
const native: BalanceView = { caip19: 'eip155:31337/slip44:60', symbol: 'ETH', name: 'ETH', decimals: 18, balance: '5' }
const usdc: BalanceView = {
  caip19: `eip155:31337/erc20:${CONFIGURED}`,
  symbol: 'USDC',
  name: 'USD Coin',
  decimals: 6,
  balance: '7',
  token: CONFIGURED,
}

describe('withWatched: the user’s tokens follow the network’s', () => {
  it('adds each watched token of this network once, skips configured ones and other chains, keeps one whose read fails', async () => {
    const reads: string[] = []
    const out = await withWatched(
      [native, usdc],
      network(),
      [
        watched(CONFIGURED.toUpperCase().replace('0X', '0x'), 'DUP'),
        watched(WATCHED, 'WTK'),
        watched(WATCHED, 'WTK'),
        watched(BROKEN, 'BRK'),
        watched(NEW_TOKEN, 'OTHER', '0x1'),
      ],
      async (token) => {
        reads.push(token)
        if (token === BROKEN) throw new ExtensionError('NODE_UNAVAILABLE', 'The Anvil node is not answering.')
        return 1_500_000_000_000_000_000n
      },
    )
    expect(reads).toEqual([WATCHED, BROKEN])
    expect(out).toEqual([
      native,
      usdc,
      {
        caip19: `eip155:31337/erc20:${WATCHED}`,
        symbol: 'WTK',
        name: 'WTK',
        decimals: 18,
        token: WATCHED,
        watched: true,
        balance: '1500000000000000000',
      },
      {
        caip19: `eip155:31337/erc20:${BROKEN}`,
        symbol: 'BRK',
        name: 'BRK',
        decimals: 18,
        token: BROKEN,
        watched: true,
        balance: '0',
        unavailable: true,
      },
    ])
  })

  it('adds nothing on a Solana network', async () => {
    const sol = { ...network(), caip2: 'solana:dev', family: 'solana' as const }
    expect(await withWatched([native], sol, [watched(WATCHED, 'WTK')], async () => 1n)).toEqual([native])
  })
})

/** A node answering `eth_call` / `eth_getCode` per contract, counting requests. */
function node() {
  const calls: Array<{ method: string; to?: string }> = []
  const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`
  const fetchFn = (async (_url: string, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { id: number; method: string; params: [{ to: string; data: string }] }
    const to = body.method === 'eth_getCode' ? (body.params[0] as unknown as string) : body.params[0].to
    calls.push({ method: body.method, to })
    const answer = (result: unknown) => new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, result }))
    if (body.method === 'eth_getCode') return answer(to === EOA ? '0x' : '0x6080')
    const selector = body.params[0].data.slice(0, 10)
    if (to === NOT_TOKEN)
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: 3, message: 'execution reverted' } }))
    if (selector === '0x313ce567') return answer(word(18n))
    if (selector === '0x95d89b41') return answer(encodeAbiParameters([{ type: 'string' }], ['WTK']))
    return answer(word(0n))
  }) as typeof fetch
  return { calls, fetchFn }
}

function fakeCore(fetchFn: typeof fetch, lists: NetworkInfo[][]) {
  let verified: NetworkInfo[] | undefined
  let reads = 0
  const core = {
    deps: { fetch: fetchFn, local: memoryArea() },
    now: () => 42,
    forgetService: () => {
      verified = undefined
    },
    service: async () => {
      if (!verified) {
        verified = lists[Math.min(reads, lists.length - 1)] ?? []
        reads++
      }
      return { networks: verified }
    },
  }
  return { core: core as unknown as Core, reads: () => reads, local: core.deps.local }
}
const session = { record: { organizationId: 'org-1', userId: 'user-1' } } as Parameters<typeof previewToken>[1]

describe('Import token: checked on chain', () => {
  it('reads symbol and decimals, then stores the token once in the user’s watched list', async () => {
    const { fetchFn } = node()
    const { core, local } = fakeCore(fetchFn, [[network([configured])]])
    const preview = await previewToken(core, session, { caip2: 'eip155:31337', address: WATCHED.toUpperCase().replace('0X', '0x') })
    expect(preview).toEqual({ caip2: 'eip155:31337', address: WATCHED, symbol: 'WTK', decimals: 18, alreadyListed: false })
    expect(await watchedAssets(local, 'org-1', 'user-1')).toEqual([])
    await importToken(core, session, { caip2: 'eip155:31337', address: WATCHED })
    await importToken(core, session, { caip2: 'eip155:31337', address: WATCHED })
    expect(await watchedAssets(local, 'org-1', 'user-1')).toEqual([watched(WATCHED, 'WTK')].map((w) => ({ ...w, addedAt: 42 })))
    expect(await watchedAssets(local, 'org-1', 'user-2')).toEqual([])
    expect((await previewToken(core, session, { caip2: 'eip155:31337', address: CONFIGURED })).alreadyListed).toBe(true)
  })

  it.each([
    ['an address with no code', EOA],
    ['a contract that reverts decimals() and symbol()', NOT_TOKEN],
  ])('refuses %s naming the address field', async (_what, address) => {
    const { fetchFn } = node()
    const { core, local } = fakeCore(fetchFn, [[network()]])
    const err = await importToken(core, session, { caip2: 'eip155:31337', address }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ExtensionError)
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'address' })
    expect((err as Error).message).toBe(`address: ${address} is not an ERC-20 token on Anvil (it has no decimals and symbol)`)
    expect(await watchedAssets(local, 'org-1', 'user-1')).toEqual([])
  })

  it('refuses a Solana network naming caip2', async () => {
    const { fetchFn, calls } = node()
    const { core } = fakeCore(fetchFn, [[{ ...network(), caip2: 'solana:dev', family: 'solana' }]])
    await expect(previewToken(core, session, { caip2: 'solana:dev', address: WATCHED })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      field: 'caip2',
    })
    expect(calls).toEqual([])
  })
})

describe('a token the operator adds appears without restarting the worker', () => {
  it('asks the service again when the cached list lacks the token, and not when it has it', async () => {
    const { fetchFn } = node()
    const later = { ...configured, address: NEW_TOKEN, symbol: 'NEW' }
    const { core, reads } = fakeCore(fetchFn, [[network([configured])], [network([configured, later])]])
    expect((await requirePopupNetwork(core, 'eip155:31337', CONFIGURED)).tokens).toHaveLength(1)
    expect(reads()).toBe(1)
    const fresh = await requirePopupNetwork(core, 'eip155:31337', NEW_TOKEN.toUpperCase().replace('0X', '0x'))
    expect(fresh.tokens.map((t) => t.symbol)).toEqual(['USDC', 'NEW'])
    expect(reads()).toBe(2)
  })
})

describe('decodeSymbol', () => {
  it('reads ABI strings and bytes32 symbols, refuses unprintable ones', () => {
    expect(decodeSymbol(encodeAbiParameters([{ type: 'string' }], ['DAI']))).toBe('DAI')
    expect(decodeSymbol(stringToHex('MKR', { size: 32 }))).toBe('MKR')
    expect(decodeSymbol('0x')).toBeUndefined()
    expect(decodeSymbol(encodeAbiParameters([{ type: 'string' }], ['a b\n']))).toBeUndefined()
  })
})

describe('significantText: fees in significant digits', () => {
  it('rounds to 4 significant digits, up for an “at most” figure, never cutting whole units', () => {
    expect(significantText(75_612_345_678_901n, 18)).toBe('0.00007561')
    expect(significantText(75_600_000_000_001n, 18, 4, true)).toBe('0.00007561')
    expect(significantText(75_600_000_000_000n, 18, 4, true)).toBe('0.0000756')
    expect(significantText(21_000_000_000_000n, 18)).toBe('0.000021')
    expect(significantText(123_456_000_000_000_000_000n, 18)).toBe('123.5')
    expect(significantText(123_456n, 0)).toBe('123456')
    expect(significantText(0n, 18)).toBe('0')
  })
})
