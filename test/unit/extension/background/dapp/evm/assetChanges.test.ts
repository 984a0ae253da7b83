/**
 * Balance changes before signing: the simulation's logs → the user's net change per asset and the
 * approvals granted (pure), and eth_simulateV1 on a real anvil with the TestSwap fixture (10 TKA in,
 * 20 TKB out); a node without the method or with a failing call is "could not simulate".
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import { encodeDeployData, encodeFunctionData, getAddress, type Hex, parseUnits, type Abi } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_FUNDER, type RunningEvmNode, startEvmNode } from '@/src/devchain/evm'
import { freePort } from '@/src/service/store/embeddedPostgres'
import {
  APPROVAL_FOR_ALL_TOPIC,
  APPROVAL_TOPIC,
  assetChangesFromLogs,
  NATIVE_LOG_ADDRESS,
  type SimLog,
  simulateAssetLogs,
  TRANSFER_TOPIC,
} from '@/src/extension/background/dapp/evm/assetChanges'
import { sendFromDevFunder } from '../../../../../integration/helpers/devchain'

const ME = '0x1111111111111111111111111111111111111111'
const POOL = '0x2222222222222222222222222222222222222222'
const TKA = '0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
const TKB = '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'
const topic = (a: string) => `0x${a.slice(2).toLowerCase().padStart(64, '0')}`
const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`
const transferLog = (token: string, from: string, to: string, amount: bigint): SimLog => ({
  address: token,
  topics: [TRANSFER_TOPIC, topic(from), topic(to)],
  data: word(amount),
})

describe('assetChangesFromLogs', () => {
  it('nets what leaves and enters the account per asset, the coin included, and drops what cancels out', () => {
    const logs = [
      transferLog(NATIVE_LOG_ADDRESS, ME, POOL, 5n),
      transferLog(TKA, ME, POOL, 10n),
      transferLog(TKB, POOL, ME, 20n),
      transferLog(TKA, POOL, ME, 3n),
      transferLog(TKB, POOL, '0x3333333333333333333333333333333333333333', 99n), // not the user's
      transferLog(TKA.replace('a', 'c'), ME, POOL, 7n),
      transferLog(TKA.replace('a', 'c'), POOL, ME, 7n), // cancels out
    ]
    expect(assetChangesFromLogs(logs, getAddress(ME))).toEqual({
      changes: [
        { kind: 'native', amount: -5n },
        { kind: 'erc20', token: TKA, amount: -7n },
        { kind: 'erc20', token: TKB, amount: 20n },
      ],
      approvals: [],
    })
  })

  it('reads ERC-721 transfers by token id and approvals only where the user is the owner', () => {
    const logs: SimLog[] = [
      { address: TKB, topics: [TRANSFER_TOPIC, topic(POOL), topic(ME), word(7n)], data: '0x' },
      { address: TKA, topics: [APPROVAL_TOPIC, topic(ME), topic(POOL)], data: word(2n ** 256n - 1n) },
      { address: TKA, topics: [APPROVAL_TOPIC, topic(POOL), topic(ME)], data: word(1n) }, // someone else's
      { address: TKB, topics: [APPROVAL_FOR_ALL_TOPIC, topic(ME), topic(POOL)], data: word(1n) },
      { address: TKB, topics: [APPROVAL_TOPIC, topic(ME), topic('0x0000000000000000000000000000000000000000'), word(7n)], data: '0x' },
      { address: TKA, topics: [TRANSFER_TOPIC, topic(ME)], data: word(1n) }, // malformed: ignored
    ]
    expect(assetChangesFromLogs(logs, ME)).toEqual({
      changes: [{ kind: 'erc721', token: TKB, tokenId: 7n, amount: 1n }],
      approvals: [
        { kind: 'erc20', token: TKA, spender: POOL, amount: 2n ** 256n - 1n },
        { kind: 'all', token: TKB, spender: POOL, approved: true },
      ],
    })
  })
})

const TOKEN = JSON.parse(readFileSync(new URL('../../../../../fixtures/contracts/TestToken.json', import.meta.url), 'utf8')) as {
  TestToken: { abi: Abi; bytecode: Hex }
}
const NFTS = JSON.parse(readFileSync(new URL('../../../../../fixtures/contracts/TestNfts.json', import.meta.url), 'utf8')) as {
  TestNft1155: { abi: Abi; bytecode: Hex }
}
const SWAP = JSON.parse(readFileSync(new URL('../../../../../fixtures/contracts/TestSwap.json', import.meta.url), 'utf8')) as {
  TestSwap: { abi: Abi; bytecode: Hex }
}

describe('simulateAssetLogs on anvil (eth_simulateV1, traceTransfers)', () => {
  let node: RunningEvmNode
  let swap: Hex
  let tka: Hex
  let tkb: Hex
  let plain: Server

  const deploy = async (data: Hex) => (await sendFromDevFunder(node.url, { data })).contractAddress as Hex
  beforeAll(async () => {
    node = await startEvmNode({ port: await freePort() })
    swap = await deploy(encodeDeployData({ abi: SWAP.TestSwap.abi, bytecode: SWAP.TestSwap.bytecode, args: [] }))
    const token = (name: string, symbol: string, decimals: number, supply: bigint, owner: string) =>
      deploy(
        encodeDeployData({ abi: TOKEN.TestToken.abi, bytecode: TOKEN.TestToken.bytecode, args: [name, symbol, decimals, supply, owner] }),
      )
    tka = await token('Token A', 'TKA', 18, parseUnits('1000', 18), DEV_FUNDER)
    tkb = await token('Token B', 'TKB', 18, parseUnits('1000', 18), swap)
    // A node that knows no eth_simulateV1 (JSON-RPC -32601), as many public endpoints answer.
    plain = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'the method eth_simulateV1 does not exist' } }))
    })
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r))
  }, 60_000)
  afterAll(async () => {
    await node?.close()
    plain?.close()
  })

  const approve = (spender: Hex, amount: bigint) =>
    encodeFunctionData({ abi: TOKEN.TestToken.abi, functionName: 'approve', args: [spender, amount] })
  const swapCall = (amount: bigint) => encodeFunctionData({ abi: SWAP.TestSwap.abi, functionName: 'swap', args: [tka, tkb, amount] })

  it('approve then swap, in order in one block: the approval granted, 10 TKA out and 20 TKB in', async () => {
    const sim = await simulateAssetLogs(undefined, node.url, DEV_FUNDER, [
      { to: tka, value: 0n, data: approve(swap, parseUnits('10', 18)) },
      { to: swap, value: 0n, data: swapCall(parseUnits('10', 18)) },
    ])
    expect(sim.ok).toBe(true)
    if (!sim.ok) return
    const lower = (a: string) => a.toLowerCase()
    expect(assetChangesFromLogs(sim.logs, DEV_FUNDER)).toEqual({
      changes: [
        { kind: 'erc20', token: lower(tka), amount: -parseUnits('10', 18) },
        { kind: 'erc20', token: lower(tkb), amount: parseUnits('20', 18) },
      ],
      approvals: [
        { kind: 'erc20', token: lower(tka), spender: lower(swap), amount: parseUnits('10', 18) },
        // transferFrom spends the allowance: OpenZeppelin 5 logs no Approval for it
      ],
    })
  })

  it('ERC-1155: a mint, a single and a batch transfer, netted per token id', async () => {
    const nft = await deploy(encodeDeployData({ abi: NFTS.TestNft1155.abi, bytecode: NFTS.TestNft1155.bytecode, args: [] }))
    const call = (functionName: string, args: unknown[]) => ({
      to: nft,
      value: 0n,
      data: encodeFunctionData({ abi: NFTS.TestNft1155.abi, functionName, args }),
    })
    const sim = await simulateAssetLogs(undefined, node.url, DEV_FUNDER, [
      call('mint', [DEV_FUNDER, 5n, 10n]),
      call('mint', [DEV_FUNDER, 6n, 3n]),
      call('safeTransferFrom', [DEV_FUNDER, POOL, 5n, 4n, '0x']),
      call('safeBatchTransferFrom', [DEV_FUNDER, POOL, [5n, 6n], [1n, 3n], '0x']),
    ])
    expect(sim.ok).toBe(true)
    if (!sim.ok) return
    // id 5: +10 −4 −1; id 6: +3 −3 cancels out and is left out.
    expect(assetChangesFromLogs(sim.logs, DEV_FUNDER).changes).toEqual([
      { kind: 'erc1155', token: nft.toLowerCase(), tokenId: 5n, amount: 5n },
    ])
    expect(assetChangesFromLogs(sim.logs, POOL).changes).toEqual([
      { kind: 'erc1155', token: nft.toLowerCase(), tokenId: 5n, amount: 5n },
      { kind: 'erc1155', token: nft.toLowerCase(), tokenId: 6n, amount: 3n },
    ])
  })

  it('a plain coin send: the synthetic native log', async () => {
    const sim = await simulateAssetLogs(undefined, node.url, DEV_FUNDER, [{ to: POOL, value: 123n, data: '0x' }])
    expect(sim.ok && assetChangesFromLogs(sim.logs, DEV_FUNDER).changes).toEqual([{ kind: 'native', amount: -123n }])
  })

  it('a swap without the approval fails: could not simulate, nothing claimed', async () => {
    expect(await simulateAssetLogs(undefined, node.url, DEV_FUNDER, [{ to: swap, value: 0n, data: swapCall(1n) }])).toEqual({
      ok: false,
      reason: 'the transaction fails',
    })
  })

  it('a node without eth_simulateV1, and one that does not answer', async () => {
    const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`
    expect(await simulateAssetLogs(undefined, url, DEV_FUNDER, [{ to: POOL, value: 1n, data: '0x' }])).toEqual({
      ok: false,
      reason: 'the network’s node cannot simulate transactions',
    })
    expect(await simulateAssetLogs(undefined, 'http://127.0.0.1:9', DEV_FUNDER, [{ to: POOL, value: 1n, data: '0x' }])).toEqual({
      ok: false,
      reason: 'the network’s node did not answer',
    })
  })
})
