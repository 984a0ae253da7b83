/**
 * Fiat values (issue 36): get_wallet_address_balances sets `display.usd` only where the operator's
 * price source (`SIGIL_PRICE_URL`) gives the asset's price, through the official client; none is
 * configured by default, and a source that is down or answers garbage gives no USD value, never a
 * wrong one.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveNetworks } from '../../src/chains/networks.js'
import { type RunningDevChains, startDevChains } from '../../src/devchain/index.js'
import { forgetPrices } from '../../src/service/chains/prices.js'
import { deployTestToken } from './helpers/devchain.js'
import { freePort } from './helpers/process.js'
import { adminTurnkeyClient, startTestService, type TestService } from './helpers/service.js'

const CAIP2 = 'eip155:31337'
const ETH = `${CAIP2}/slip44:60`

let chains: RunningDevChains
let prices: Server
let priceUrl: string
/** What the price source answers next, and the `assets` query of each read. */
let answer: { status: number; body: string }
const asked: string[] = []
let token: string
const services: TestService[] = []

async function walletOn(svc: TestService): Promise<{ client: TurnkeyClient; org: string; address: string }> {
  const client = adminTurnkeyClient(svc)
  const org = svc.admin.organizationId
  const wallet = await client.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: String(Date.now()),
    organizationId: org,
    parameters: {
      walletName: 'prices',
      accounts: [
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
      ],
    },
  })
  const [address] = wallet.activity.result.createWalletResult?.addresses as [string]
  expect((await svc.post('/dev/faucet', { caip2: CAIP2, address, amount: '1.5' }, null)).status).toBe(200)
  return { client, org, address }
}

beforeAll(async () => {
  chains = await startDevChains({ evmPort: await freePort(), solanaPort: 0 })
  token = (await deployTestToken(chains.evm.url, 'Sigil Test Token', 'TST')).toLowerCase()
  prices = createServer((req, res) => {
    asked.push(new URL(req.url ?? '/', 'http://x').searchParams.get('assets') ?? '')
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body)
  })
  await new Promise<void>((r) => prices.listen(0, '127.0.0.1', r))
  priceUrl = `http://127.0.0.1:${(prices.address() as AddressInfo).port}/prices`
}, 120_000)

afterAll(async () => {
  for (const s of services) await s.stop()
  await new Promise((r) => prices?.close(r))
  await chains?.close()
})

describe('display.usd from the operator price source', () => {
  it('none configured (the default): balances carry no USD value and nothing is asked', async () => {
    const svc = await startTestService({ networks: resolveNetworks(`${CAIP2}=${chains.evm.url}`) })
    services.push(svc)
    const { client, org, address } = await walletOn(svc)
    const { balances } = await client.getWalletAddressBalances({ organizationId: org, address, caip2: CAIP2 as any })
    expect(balances?.[0]).toMatchObject({ caip19: ETH, balance: '1500000000000000000', display: { crypto: '1.5' } })
    expect(balances?.[0]?.display?.usd).toBeUndefined()
    expect(asked).toEqual([])
  })

  it('configured: each asset with a price gets its USD value (rounded down to cents), the others none; a bad answer gives none', async () => {
    forgetPrices()
    answer = { status: 200, body: JSON.stringify({ prices: { [ETH]: '2450.333' } }) }
    const svc = await startTestService({
      networks: resolveNetworks(`${CAIP2}=${chains.evm.url}`, `${CAIP2}=${token}:TST:18:Sigil Test Token`),
      priceUrl,
    })
    services.push(svc)
    const { client, org, address } = await walletOn(svc)
    const read = async () => (await client.getWalletAddressBalances({ organizationId: org, address, caip2: CAIP2 as any })).balances
    const first = await read()
    expect(first?.[0]).toMatchObject({ caip19: ETH, display: { crypto: '1.5', usd: '3675.49' } })
    expect(first?.[1]?.caip19).toBe(`${CAIP2}/erc20:${token}`)
    expect(first?.[1]?.display?.usd).toBeUndefined()
    expect(asked.at(-1)?.split(',').sort()).toEqual([ETH, `${CAIP2}/erc20:${token}`].sort())
    // read again within the minute: no new request to the source
    const count = asked.length
    expect((await read())?.[0]?.display?.usd).toBe('3675.49')
    expect(asked.length).toBe(count)

    // a source that answers garbage or fails: no USD value, the balances still answer
    for (const bad of [
      { status: 200, body: '{"prices":{"eip155:31337/slip44:60":"-1"}}' },
      { status: 500, body: 'oops' },
    ]) {
      forgetPrices()
      answer = bad
      const balances = await read()
      expect(balances?.[0]).toMatchObject({ caip19: ETH, balance: '1500000000000000000' })
      expect(balances?.[0]?.display?.usd).toBeUndefined()
    }
  })
})
