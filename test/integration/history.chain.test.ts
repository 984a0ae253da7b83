import { TurnkeyClient } from '@turnkey/http'
import { getAddress, type Hex, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { transferCalldata } from '../../src/chains/erc20.js'
import { resolveNetworks } from '../../src/chains/networks.js'
import { DEV_FUNDER } from '../../src/devchain/evm.js'
import { type RunningDevChains, startDevChains } from '../../src/devchain/index.js'
import { freePort } from './helpers/process.js'
import { deployTestToken, sendFromDevFunder } from './helpers/devchain.js'
import { adminTurnkeyClient, startTestService, type TestService } from './helpers/service.js'

const CAIP2 = 'eip155:31337'
/** A token the service is not configured with: its symbol and decimals are read on chain. */
const UNLISTED = 'Unlisted Token'
/** Anvil's account #1: another wallet that pays the user a token. */
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

let chains: RunningDevChains
let svc: TestService
let client: TurnkeyClient
let org: string
let token: Hex
let unlisted: Hex
let alice: string
let bob: string
let offline: TestService | undefined

const history = (address: string) => client.listEthTransactionHistory({ organizationId: org, address, caip2: CAIP2 as any })

beforeAll(async () => {
  chains = await startDevChains({ evmPort: await freePort(), solanaPort: 0 })
  token = await deployTestToken(chains.evm.url, 'Sigil Test Token', 'TST')
  unlisted = await deployTestToken(chains.evm.url, UNLISTED, 'UNL')
  svc = await startTestService({
    networks: resolveNetworks(`${CAIP2}=${chains.evm.url}`, `${CAIP2}=${token}:TST:18:Sigil Test Token`),
  })
  org = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
  const wallet = await client.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: String(Date.now()),
    organizationId: org,
    parameters: {
      walletName: 'history',
      accounts: [
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/1", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
      ],
    },
  })
  ;[alice, bob] = wallet.activity.result.createWalletResult?.addresses as [string, string]
})
afterAll(async () => {
  await offline?.stop()
  await svc?.stop()
  await chains?.close()
})

describe('list_eth_transaction_history: what came in from the chain', () => {
  it('lists the faucet deposit and an ERC-20 transfer from another account, newest first, and nothing unrelated', async () => {
    expect((await svc.post('/dev/faucet', { caip2: CAIP2, address: alice, amount: '1' }, null)).status).toBe(200)
    // another account (anvil #1) gets tokens from the funder, then pays alice 12.5 TST itself
    await sendFromDevFunder(chains.evm.url, { gas: '0x300000', to: token, data: transferCalldata(OTHER, parseUnits('100', 18)) })
    const paid = await sendFromDevFunder(chains.evm.url, {
      from: OTHER,
      gas: '0x300000',
      to: token,
      data: transferCalldata(alice, parseUnits('12.5', 18)),
    })
    expect(paid.status).toBe('success')
    // a token the service does not list, and transfers alice is no party of
    const unl = await sendFromDevFunder(chains.evm.url, {
      gas: '0x300000',
      to: unlisted,
      data: transferCalldata(alice, parseUnits('3', 18)),
    })
    const unrelated = await sendFromDevFunder(chains.evm.url, { to: bob, value: `0x${parseEther('2').toString(16)}` })
    await sendFromDevFunder(chains.evm.url, { gas: '0x300000', to: token, data: transferCalldata(bob, 7n) })

    const { transactions } = await history(alice)
    expect(transactions.map((t) => t.transactionHash)).not.toContain(unrelated.transactionHash)
    expect(transactions).toHaveLength(3)
    const [third, second, first] = transactions
    expect(first).toMatchObject({
      origin: 'EXTERNAL',
      status: 'CONFIRMED',
      from: getAddress(DEV_FUNDER),
      to: getAddress(alice),
      executionFailed: false,
      transfers: [
        {
          direction: 'IN',
          amount: parseEther('1').toString(),
          counterparty: getAddress(DEV_FUNDER),
          asset: { caip19: `${CAIP2}/slip44:60`, symbol: 'ETH', decimals: 18 },
          display: { crypto: '1' },
        },
      ],
    })
    expect(first?.turnkey).toBeUndefined()
    expect(first?.block.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(second).toMatchObject({
      transactionHash: paid.transactionHash,
      origin: 'EXTERNAL',
      from: getAddress(OTHER),
      to: getAddress(token),
      block: { number: paid.blockNumber.toString(), hash: paid.blockHash },
      fee: { amount: (paid.gasUsed * paid.effectiveGasPrice).toString(), caip19: `${CAIP2}/slip44:60` },
      transfers: [
        {
          direction: 'IN',
          amount: parseUnits('12.5', 18).toString(),
          counterparty: getAddress(OTHER),
          asset: { caip19: `${CAIP2}/erc20:${token.toLowerCase()}`, symbol: 'TST', decimals: 18, name: 'Sigil Test Token' },
          display: { crypto: '12.5' },
        },
      ],
    })
    expect(third).toMatchObject({
      transactionHash: unl.transactionHash,
      transfers: [
        {
          direction: 'IN',
          amount: parseUnits('3', 18).toString(),
          asset: { caip19: `${CAIP2}/erc20:${unlisted.toLowerCase()}`, symbol: 'UNL', decimals: 18 },
          display: { crypto: '3' },
        },
      ],
    })
  })

  it("merges the service's own send with what came in, by block, and lists it once", async () => {
    const res = await client.ethSendTransaction({
      type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: { from: alice, caip2: CAIP2 as any, calls: [{ to: token, data: transferCalldata(bob, parseUnits('2', 18)) }] },
    })
    const id = res.activity.result.ethSendTransactionResultV2?.sendTransactionStatusId as string
    const deadline = Date.now() + 20_000
    let hash: string | undefined
    while (Date.now() < deadline) {
      const s = await client.getSendTransactionStatus({ organizationId: org, sendTransactionStatusId: id })
      if (s.txStatus === 'INCLUDED') {
        hash = s.eth?.txHash
        break
      }
      await new Promise((r) => setTimeout(r, 50))
    }
    expect(hash).toBeDefined()
    const { transactions } = await history(alice)
    expect(transactions.filter((t) => t.transactionHash === hash)).toHaveLength(1)
    expect(transactions[0]).toMatchObject({ transactionHash: hash, origin: 'TURNKEY', turnkey: { sendTransactionStatusId: id } })
    expect(transactions).toHaveLength(4)
    expect(transactions[0]?.transfers[0]).toMatchObject({ direction: 'OUT', counterparty: getAddress(bob), display: { crypto: '2' } })
    // bob sees the incoming payment from alice's send (ours) and the funder's ETH and 7 base units (the chain's)
    const forBob = (await history(bob)).transactions
    expect(forBob.map((t) => t.origin)).toEqual(['TURNKEY', 'EXTERNAL', 'EXTERNAL'])
  })

  it('a node that does not answer fails the request with FAILED_PRECONDITION naming the network', async () => {
    const port = await freePort()
    offline = await startTestService({ networks: resolveNetworks(`${CAIP2}=http://127.0.0.1:${port}`) })
    const c = adminTurnkeyClient(offline)
    const w = await c.createWallet({
      type: 'ACTIVITY_TYPE_CREATE_WALLET',
      timestampMs: String(Date.now()),
      organizationId: offline.admin.organizationId,
      parameters: {
        walletName: 'offline',
        accounts: [
          { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
        ],
      },
    })
    const address = w.activity.result.createWalletResult?.addresses[0] as string
    const res = await offline.post('/public/v1/query/list_eth_transaction_history', {
      organizationId: offline.admin.organizationId,
      address,
      caip2: CAIP2,
    })
    expect(res.status).toBe(412)
    const body = res.json as { message: string }
    expect(body.message).toMatch(/eip155:31337/)
    expect(body.message).not.toContain(String(port))
  })
})
