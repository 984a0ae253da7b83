import { getTransferSolInstruction } from '@solana-program/system'
import {
  type Address,
  address,
  appendTransactionMessageInstruction,
  type Blockhash,
  compileTransaction,
  createNoopSigner,
  createSolanaRpc,
  createTransactionMessage,
  devnet,
  generateKeyPairSigner,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit'
import { TurnkeyClient } from '@turnkey/http'
import { createPublicClient, getAddress, type Hex, http, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { transferCalldata } from '../../src/chains/erc20.js'
import { DEV_SOLANA_CAIP2, DEV_SOLANA_MINT, resolveNetworks } from '../../src/chains/networks.js'
import { DEV_FUNDER } from '../../src/devchain/evm.js'
import { DEV_FAUCET_ADDRESS } from '../../src/devchain/solana/runtime.js'
import { type RunningDevChains, startDevChains } from '../../src/devchain/index.js'
import { newApiKey, rootUser } from './helpers/keys.js'
import { freePort } from './helpers/process.js'
import { deployTestToken, sendFromDevFunder } from './helpers/devchain.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'
import { ERC20_ARTIFACT, ERC20_BALANCE_OF_ABI } from '../fixtures/contracts/erc20.js'

const _artifact = ERC20_ARTIFACT
const CAIP2 = 'eip155:31337'
const TOKEN_NAME = 'Sigil Test Token'
/** An address with no contract: its balanceOf answers nothing. */
const NO_CONTRACT = '0x000000000000000000000000000000000000dEaD'
const ERC20_ABI = ERC20_BALANCE_OF_ABI

let chains: RunningDevChains
let svc: TestService
let client: TurnkeyClient
let org: string
let token: Hex
/** Two Ethereum accounts and one Solana account of one wallet of the organization. */
let alice: string
let bob: string
let sol: string
/** The faucet's funding of `sol`: its SOL airdrop and the dev token it minted to it (signatures). */
let solFunding: { airdrop: string; minted: string }

const evm = () => createPublicClient({ transport: http(chains.evm.url) })
const tokenBalance = (owner: string) =>
  evm().readContract({ address: token, abi: ERC20_ABI, functionName: 'balanceOf', args: [owner as Hex] })

async function _rpc(method: string, params: unknown[]): Promise<any> {
  const res = await fetch(chains.evm.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await res.json()) as { result: unknown }).result
}

/** Sends from an unlocked anvil account and waits for the receipt. */
async function devSend(tx: Record<string, unknown>) {
  return sendFromDevFunder(chains.evm.url, { gas: '0x300000', ...tx })
}

/** Polls get_send_transaction_status (official client) until a terminal state. */
async function settle(sendTransactionStatusId: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const status = await client.getSendTransactionStatus({ organizationId: org, sendTransactionStatusId })
    if (status.txStatus === 'INCLUDED' || status.txStatus === 'FAILED' || Date.now() > deadline) return status
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** A submit response's timestamp (a ms string, or `{seconds, nanos}`) in ms. */
const msOf = (t: any) => (typeof t === 'string' ? Number(t) : Number(t.seconds) * 1000 + Math.floor(Number(t.nanos) / 1e6))

const field = (json: any) => json.details?.find((d: any) => d.fieldViolations)?.fieldViolations[0]?.field

beforeAll(async () => {
  chains = await startDevChains({ evmPort: await freePort(), solanaPort: 0 })
  token = await deployTestToken(chains.evm.url, TOKEN_NAME)
  const offline = await freePort()
  svc = await startTestService({
    networks: resolveNetworks(
      `${CAIP2}=${chains.evm.url},${DEV_SOLANA_CAIP2}=${chains.solana.url},eip155:31338=http://127.0.0.1:${offline}`,
      `${CAIP2}=${token}:TST:18:${TOKEN_NAME},${CAIP2}=${NO_CONTRACT}:NONE:6:No Contract:stable,eip155:31338=${token}:TST:18`,
    ),
  })
  org = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
  const wallet = await client.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: String(Date.now()),
    organizationId: org,
    parameters: {
      walletName: 'tokens',
      accounts: [
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/1", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
        { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' },
      ],
    },
  })
  ;[alice, bob, sol] = wallet.activity.result.createWalletResult?.addresses as [string, string, string]
  expect((await svc.post('/dev/faucet', { caip2: CAIP2, address: alice, amount: '10' }, null)).status).toBe(200)
  const solFunded = await svc.post('/dev/faucet', { caip2: DEV_SOLANA_CAIP2, address: sol, amount: '2' }, null)
  expect(solFunded.status).toBe(200)
  solFunding = { airdrop: solFunded.json.signature, minted: solFunded.json.tokens[0].signature }
  // The dev funder holds the supply: it gives alice 1000 TST.
  const funded = await devSend({ to: token, data: transferCalldata(alice, parseUnits('1000', 18)) })
  expect(funded.status).toBe('success')
})
afterAll(async () => {
  await svc?.stop()
  await chains?.close()
})

const tokenAsset = () => ({ caip19: `${CAIP2}/erc20:${token.toLowerCase()}`, symbol: 'TST', decimals: 18, name: TOKEN_NAME })
const nativeAsset = { caip19: `${CAIP2}/slip44:60`, symbol: 'ETH', decimals: 18, name: 'Sigil dev EVM ETH' }
/** What funded alice from the chain (not sent by the service), newest first: the dev funder's 1000 TST, then the faucet's 10 ETH. */
const aliceFunding = () => [
  [
    {
      direction: 'IN',
      asset: tokenAsset(),
      amount: parseUnits('1000', 18).toString(),
      counterparty: getAddress(DEV_FUNDER),
      display: { crypto: '1000' },
    },
  ],
  [
    {
      direction: 'IN',
      asset: nativeAsset,
      amount: parseEther('10').toString(),
      counterparty: getAddress(DEV_FUNDER),
      display: { crypto: '10' },
    },
  ],
]

describe('ERC-20 tokens from configuration', () => {
  it('list_supported_assets lists the configured tokens after the native asset', async () => {
    const { assets } = await client.listSupportedAssets({ organizationId: org, caip2: CAIP2 as any })
    expect(assets).toEqual([
      { ...nativeAsset, stable: false },
      { ...tokenAsset(), stable: false },
      { caip19: `${CAIP2}/erc20:${NO_CONTRACT.toLowerCase()}`, symbol: 'NONE', decimals: 6, name: 'No Contract', stable: true },
    ])
  })

  it('sends an ERC-20 transfer with eth_send_transaction: INCLUDED, both balances changed, listed in both histories', async () => {
    const balances = async (owner: string) =>
      (await client.getWalletAddressBalances({ organizationId: org, address: owner, caip2: CAIP2 as any })).balances ?? []
    const before = await balances(alice)
    // the address with no contract answers no balance: it is left out, the rest is read
    expect(before).toEqual([
      { ...nativeAsset, balance: parseEther('10').toString(), display: { crypto: '10' } },
      { ...tokenAsset(), balance: parseUnits('1000', 18).toString(), display: { crypto: '1000' } },
    ])
    expect((await balances(bob))[1]).toEqual({ ...tokenAsset(), balance: '0', display: { crypto: '0' } })

    const amount = parseUnits('250.5', 18)
    const res = await client.ethSendTransaction({
      type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: { from: alice, caip2: CAIP2 as any, calls: [{ to: token, data: transferCalldata(bob, amount) }] },
    })
    const id = res.activity.result.ethSendTransactionResultV2?.sendTransactionStatusId as string
    const status = await settle(id)
    expect(status.txStatus).toBe('INCLUDED')
    const hash = status.eth?.txHash as Hex
    const receipt = await evm().getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(await tokenBalance(alice)).toBe(parseUnits('749.5', 18))
    expect(await tokenBalance(bob)).toBe(amount)

    const after = await balances(alice)
    const fee = receipt.gasUsed * receipt.effectiveGasPrice
    expect(after[0]?.balance).toBe((parseEther('10') - fee).toString())
    expect(after[1]).toEqual({ ...tokenAsset(), balance: parseUnits('749.5', 18).toString(), display: { crypto: '749.5' } })
    expect((await balances(bob))[1]).toEqual({ ...tokenAsset(), balance: amount.toString(), display: { crypto: '250.5' } })

    const block = await evm().getBlock({ blockHash: receipt.blockHash })
    const item = {
      transactionHash: hash,
      block: {
        number: receipt.blockNumber.toString(),
        hash: receipt.blockHash,
        timestamp: new Date(Number(block.timestamp) * 1000).toISOString(),
      },
      status: 'CONFIRMED',
      origin: 'TURNKEY',
      from: getAddress(alice),
      to: getAddress(token),
      fee: { amount: fee.toString(), caip19: nativeAsset.caip19 },
      turnkey: {
        sponsored: false,
        activityFingerprint: res.activity.fingerprint,
        submittedAt: new Date(msOf(res.activity.createdAt)).toISOString(),
        activityId: res.activity.id,
        sendTransactionStatusId: id,
      },
      executionFailed: false,
    }
    const sent = await client.listEthTransactionHistory({ organizationId: org, address: alice, caip2: CAIP2 as any })
    // newest first: the send, then what funded alice from the chain (origin EXTERNAL, incoming only)
    // the dev funder's 1000 TST, then the faucet's 10 ETH deposit (both from the dev funder)
    const funding = sent.transactions.slice(1)
    expect(funding.map((t) => [t.origin, t.turnkey, t.from])).toEqual([
      ['EXTERNAL', undefined, getAddress(DEV_FUNDER)],
      ['EXTERNAL', undefined, getAddress(DEV_FUNDER)],
    ])
    expect(funding.map((t) => t.transfers)).toEqual(aliceFunding())
    expect(sent.transactions.slice(0, 1)).toEqual([
      {
        ...item,
        transfers: [
          { direction: 'OUT', asset: tokenAsset(), amount: amount.toString(), counterparty: getAddress(bob), display: { crypto: '250.5' } },
        ],
      },
    ])
    expect(sent.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false, startCursor: id, endCursor: id })
    const received = await client.listEthTransactionHistory({ organizationId: org, address: bob.toLowerCase(), caip2: CAIP2 as any })
    expect(received.transactions).toEqual([
      {
        ...item,
        transfers: [
          {
            direction: 'IN',
            asset: tokenAsset(),
            amount: amount.toString(),
            counterparty: getAddress(alice),
            display: { crypto: '250.5' },
          },
        ],
      },
    ])
  })

  it('a node that is down is a clear 412 naming the network, never a 500', async () => {
    const r = await svc.post('/public/v1/query/get_wallet_address_balances', { organizationId: org, address: alice, caip2: 'eip155:31338' })
    expect(r.status).toBe(412)
    expect(r.json.message).toContain('eip155:31338')
    expect(r.json.message).not.toContain('127.0.0.1')
  })
})

describe('list_eth_transaction_history', () => {
  const history = (address: string, paginationOptions?: Record<string, string>) =>
    svc.post('/public/v1/query/list_eth_transaction_history', {
      organizationId: org,
      address,
      caip2: CAIP2,
      ...(paginationOptions ? { paginationOptions } : {}),
    })
  const send = async (parameters: Record<string, unknown>) => {
    const r = await svc.post(
      '/public/v1/submit/eth_send_transaction',
      submitBody('ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2', org, { from: alice, caip2: CAIP2, ...parameters }),
    )
    expect(r.status, JSON.stringify(r.json)).toBe(200)
    const id = r.json.activity.result.ethSendTransactionResultV2.sendTransactionStatusId as string
    return { id, status: await settle(id) }
  }

  it('lists native sends and on-chain reverts newest first, pages by send id, and leaves out sends that never reached the chain', async () => {
    const native = await send({ calls: [{ to: bob, value: parseEther('0.25').toString() }] })
    expect(native.status.txStatus).toBe('INCLUDED')
    // more than alice holds: with a gas limit given nothing simulates it, so it is mined and reverts
    const reverted = await send({ calls: [{ to: token, data: transferCalldata(bob, parseUnits('5000', 18)) }], gasLimit: '200000' })
    expect(reverted.status.txStatus).toBe('FAILED')
    expect((await evm().getTransactionReceipt({ hash: reverted.status.eth?.txHash as Hex })).status).toBe('reverted')
    // refused in simulation: never on chain, never listed
    const simulated = await send({ calls: [{ to: token, data: transferCalldata(bob, parseUnits('5000', 18)) }] })
    expect(simulated.status.txStatus).toBe('FAILED')
    expect(simulated.status.eth?.txHash).toBeUndefined()

    const all = await history(alice)
    expect(all.status).toBe(200)
    // the service's own sends (origin TURNKEY); what the chain shows besides them is EXTERNAL, incoming only here
    const items = (all.json.transactions as any[]).filter((t) => t.origin === 'TURNKEY')
    const external = (all.json.transactions as any[]).filter((t) => t.origin !== 'TURNKEY')
    expect(external.map((t) => [t.origin, t.turnkey, t.from])).toEqual([
      ['EXTERNAL', undefined, getAddress(DEV_FUNDER)],
      ['EXTERNAL', undefined, getAddress(DEV_FUNDER)],
    ])
    expect(external.map((t) => t.transfers)).toEqual(aliceFunding())
    expect(items.map((t) => t.turnkey.sendTransactionStatusId)).toEqual([reverted.id, native.id, expect.any(String)])
    expect(items[0]).toMatchObject({ transactionHash: reverted.status.eth?.txHash, executionFailed: true, transfers: [] })
    expect(BigInt(items[0].fee.amount)).toBeGreaterThan(0n)
    expect(items[1]).toMatchObject({
      executionFailed: false,
      to: getAddress(bob),
      transfers: [
        {
          direction: 'OUT',
          asset: nativeAsset,
          amount: parseEther('0.25').toString(),
          counterparty: getAddress(bob),
          display: { crypto: '0.25' },
        },
      ],
    })
    expect(Number(items[0].block.number)).toBeGreaterThan(Number(items[1].block.number))
    // bob received the native value: it is in his history as IN
    const bobs = ((await history(bob)).json.transactions as any[]).filter((t) => t.origin === 'TURNKEY')
    expect(bobs.map((t) => t.turnkey.sendTransactionStatusId)).toContain(native.id)
    expect(bobs.find((t) => t.turnkey.sendTransactionStatusId === native.id).transfers).toEqual([
      expect.objectContaining({ direction: 'IN', counterparty: getAddress(alice) }),
    ])

    const first = await history(alice, { limit: '1' })
    expect(first.json.transactions.map((t: any) => t.turnkey.sendTransactionStatusId)).toEqual([reverted.id])
    expect(first.json.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: reverted.id, endCursor: reverted.id })
    const second = await history(alice, { limit: '1', after: first.json.pageInfo.endCursor })
    expect(second.json.transactions.map((t: any) => t.turnkey.sendTransactionStatusId)).toEqual([native.id])
    expect(second.json.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true })
    const back = await history(alice, { limit: '5', before: native.id })
    expect(back.json.transactions.map((t: any) => t.turnkey.sendTransactionStatusId)).toEqual([reverted.id])
    expect(back.json.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false })
    for (const which of ['after', 'before']) {
      const unknown = await history(alice, { [which]: simulated.id })
      expect([unknown.status, field(unknown.json)]).toEqual([400, `paginationOptions.${which}`])
    }
  })

  it('reads the block time and fee from the node for a send stored without them (recorded before migration 007)', async () => {
    const { json } = await history(alice, { limit: '1' })
    const [latest] = json.transactions
    await svc.rt.db.query('UPDATE send_transactions SET block_hash = NULL, block_time = NULL, fee = NULL WHERE id = $1', [
      latest.turnkey.sendTransactionStatusId,
    ])
    expect((await history(alice, { limit: '1' })).json.transactions).toEqual([latest])
  })

  it("lists only the organization's own addresses and sends; names the field at fault", async () => {
    const q = (body: Record<string, unknown>, path = 'list_eth_transaction_history') =>
      svc.post(`/public/v1/query/${path}`, { organizationId: org, caip2: CAIP2, address: alice, ...body })
    const foreign = await q({ address: DEV_FUNDER })
    expect([foreign.status, field(foreign.json)]).toEqual([404, 'address'])
    const solana = await q({ address: sol })
    expect([solana.status, field(solana.json)]).toEqual([400, 'address'])
    const wrongFamily = await q({ caip2: DEV_SOLANA_CAIP2 })
    expect([wrongFamily.status, field(wrongFamily.json)]).toEqual([400, 'caip2'])
    const unknown = await q({ caip2: 'eip155:5' })
    expect([unknown.status, field(unknown.json)]).toEqual([400, 'caip2'])
    const badAddress = await q({ address: '0x1234' })
    expect([badAddress.status, field(badAddress.json)]).toEqual([400, 'address'])
    const solOnEvm = await q({ address: alice, caip2: CAIP2 }, 'list_sol_transaction_history')
    expect([solOnEvm.status, field(solOnEvm.json)]).toEqual([400, 'caip2'])

    // A sub-organization: alice's address is not one of its accounts; its own account has no history;
    // its key cannot read the parent's history.
    const key = newApiKey('carol')
    const created = await svc.post(
      '/public/v1/submit/create_sub_organization',
      submitBody('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', org, {
        subOrganizationName: 'history',
        rootUsers: [rootUser('carol', [key.param])],
        rootQuorumThreshold: 1,
        wallet: {
          walletName: 'w',
          accounts: [
            {
              curve: 'CURVE_SECP256K1',
              pathFormat: 'PATH_FORMAT_BIP32',
              path: "m/44'/60'/0'/0/0",
              addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
            },
          ],
        },
      }),
    )
    expect(created.status, JSON.stringify(created.json)).toBe(200)
    const sub = created.json.activity.result.createSubOrganizationResultV8
    const subQuery = (body: Record<string, unknown>) =>
      svc.post('/public/v1/query/list_eth_transaction_history', { caip2: CAIP2, ...body }, key.stamper)
    const others = await subQuery({ organizationId: sub.subOrganizationId, address: alice })
    expect([others.status, field(others.json)]).toEqual([404, 'address'])
    const own = await subQuery({ organizationId: sub.subOrganizationId, address: sub.wallet.addresses[0] })
    expect([own.status, own.json.transactions]).toEqual([200, []])
    expect((await subQuery({ organizationId: org, address: alice })).status).toBe(403)
  })
})

describe('list_sol_transaction_history', () => {
  it('lists a SOL send with its signers, fee and transfer after it is INCLUDED', async () => {
    const recipient = (await generateKeyPairSigner()).address
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(address(sol), m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: '11111111111111111111111111111111' as Blockhash, lastValidBlockHeight: 0n },
          m,
        ),
      (m) =>
        appendTransactionMessageInstruction(
          getTransferSolInstruction({ source: createNoopSigner(address(sol)), destination: recipient, amount: 100_000_000n }),
          m,
        ),
    )
    const unsignedTransaction = Buffer.from(getTransactionEncoder().encode(compileTransaction(message))).toString('hex')
    const res = await client.solSendTransaction({
      type: 'ACTIVITY_TYPE_SOL_SEND_TRANSACTION_V2',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: { unsignedTransaction, signWiths: [sol], caip2: DEV_SOLANA_CAIP2 as any },
    })
    const id = res.activity.result.solSendTransactionResultV2?.sendTransactionStatusId as string
    const status = await settle(id)
    expect(status.txStatus).toBe('INCLUDED')
    const signature = (status as { solana?: { signature?: string } }).solana?.signature as string
    const solana = createSolanaRpc(devnet(chains.solana.url))
    const tx = await solana.getTransaction(signature as any, { maxSupportedTransactionVersion: 0, encoding: 'json' }).send()

    const { transactions, pageInfo } = await client.listSolTransactionHistory({
      organizationId: org,
      address: sol,
      caip2: DEV_SOLANA_CAIP2 as any,
    })
    // newest first: the send, then what the faucet funded sol with from the chain (origin EXTERNAL): the dev token it minted, its SOL airdrop
    expect(transactions.map((t) => t.signature)).toEqual([signature, solFunding.minted, solFunding.airdrop])
    expect(transactions.slice(1).map((t) => [t.origin, t.turnkey, t.transfers])).toEqual([
      [
        'EXTERNAL',
        undefined,
        [expect.objectContaining({ direction: 'IN', amount: '100000000', counterparty: DEV_SOLANA_MINT, display: { crypto: '100' } })],
      ],
      [
        'EXTERNAL',
        undefined,
        [
          {
            direction: 'IN',
            asset: { caip19: `${DEV_SOLANA_CAIP2}/slip44:501`, symbol: 'SOL', name: 'Solana', decimals: 9 },
            amount: '2000000000',
            counterparty: DEV_FAUCET_ADDRESS,
            display: { crypto: '2' },
          },
        ],
      ],
    ])
    expect(transactions.slice(0, 1)).toEqual([
      {
        signature,
        // the dev runtime serves no getBlock: the slot's hash is unknown
        block: { number: String(tx?.slot), hash: '', timestamp: new Date(Number(tx?.blockTime) * 1000).toISOString() },
        status: 'FINALIZED',
        origin: 'TURNKEY',
        feePayer: sol,
        signers: [{ address: sol, writable: true }],
        fee: { amount: '5000', caip19: `${DEV_SOLANA_CAIP2}/slip44:501` },
        transfers: [
          {
            direction: 'OUT',
            asset: { caip19: `${DEV_SOLANA_CAIP2}/slip44:501`, symbol: 'SOL', name: 'Solana', decimals: 9 },
            amount: '100000000',
            counterparty: recipient,
            display: { crypto: '0.1' },
          },
        ],
        turnkey: {
          sponsored: false,
          activityFingerprint: res.activity.fingerprint,
          submittedAt: expect.any(String),
          activityId: res.activity.id,
          sendTransactionStatusId: id,
        },
        executionFailed: false,
      },
    ])
    expect(pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false, startCursor: id, endCursor: id })
    expect((await solana.getBalance(recipient as Address).send()).value).toBe(100_000_000n)
    // the EVM history is another list
    const evmSide = await svc.post('/public/v1/query/list_sol_transaction_history', {
      organizationId: org,
      address: alice,
      caip2: DEV_SOLANA_CAIP2,
    })
    expect([evmSide.status, field(evmSide.json)]).toEqual([400, 'address'])
  })
})
