/**
 * SigilBatchExecutor (the Gas Station delegate) on a real anvil with Prague rules, driven by viem
 * as any EIP-7702 wallet would: the dev chain deploys it at its fixed address (also after a
 * restart from a state file); an account delegates to it with a type-4 transaction; a sponsor
 * submits the account's signed batches and pays their gas; a failing call reverts the whole batch
 * and names itself; replays, expired and foreign signatures are refused; the delegated account
 * still takes ERC-721/1155 safe transfers; an authorization to the zero address removes the
 * delegation.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type Abi,
  type Account,
  type Chain,
  bytesToHex,
  createPublicClient,
  createWalletClient,
  decodeErrorResult,
  defineChain,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  http,
  parseEther,
  parseSignature,
  parseUnits,
  type PublicClient,
  zeroAddress,
} from 'viem'
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BATCH_EXECUTOR_ABI, BATCH_EXECUTOR_RUNTIME_CODE } from '../../src/chains/gasStation/artifact.js'
import {
  BATCH_NONCE_SLOT,
  type BatchCall,
  batchDigest,
  batchTypedData,
  decodeBatchRevert,
  delegationOf,
  encodeExecute,
} from '../../src/chains/gasStation/batch.js'
import { DEV_GAS_STATION, DEV_GAS_STATION_DEPLOYER, DEV_SPONSOR, DEV_SPONSOR_PATH } from '../../src/chains/gasStation/dev.js'
import { DEV_EVM_CHAIN_ID } from '../../src/chains/networks.js'
import { DEV_MNEMONIC, type RunningEvmNode, startEvmNode } from '../../src/devchain/evm.js'
import { ERC20_ARTIFACT } from '../fixtures/contracts/erc20.js'
import { deployTestToken, sendFromDevFunder } from './helpers/devchain.js'
import { freePort } from './helpers/process.js'

let node: RunningEvmNode
let chain: Chain
let pub: PublicClient
let token: Hex
/** The calldata of the first batch that landed, to replay. */
let landed: Hex | undefined

const sponsor = mnemonicToAccount(DEV_MNEMONIC, { path: DEV_SPONSOR_PATH as `m/44'/60'/${string}` })
const owner = privateKeyToAccount(generatePrivateKey())
const stranger = privateKeyToAccount(generatePrivateKey())
const alice = privateKeyToAccount(generatePrivateKey()).address
const bob = privateKeyToAccount(generatePrivateKey()).address

const wallet = (account: Account) => createWalletClient({ account, chain, transport: http(node.url) })
const code = async (address: Hex) => (await pub.request({ method: 'eth_getCode', params: [address, 'latest'] })) as string
const balance = (address: Hex) => pub.getBalance({ address })
const tokenBalance = (address: Hex) =>
  pub.readContract({ address: token, abi: ERC20_ARTIFACT.abi, functionName: 'balanceOf', args: [address] }) as Promise<bigint>
const batchNonce = async (address: Hex) =>
  BigInt((await pub.request({ method: 'eth_getStorageAt', params: [address, BATCH_NONCE_SLOT, 'latest'] })) as Hex)
const now = async () => (await pub.getBlock()).timestamp
const erc20Transfer = (to: Hex, amount: bigint): Hex =>
  encodeFunctionData({ abi: ERC20_ARTIFACT.abi, functionName: 'transfer', args: [to, amount] })

/** OpenZeppelin ERC-721 and ERC-1155 with open mints (test/fixtures/contracts/README.md). */
const NFTS = JSON.parse(readFileSync(new URL('../fixtures/contracts/TestNfts.json', import.meta.url), 'utf8')) as Record<
  'TestNft721' | 'TestNft1155',
  { abi: Abi; bytecode: Hex }
>

async function deployFixture(artifact: { abi: Abi; bytecode: Hex }): Promise<Hex> {
  const receipt = await sendFromDevFunder(node.url, { gas: '0x500000', data: artifact.bytecode })
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error('the fixture did not deploy')
  return receipt.contractAddress
}

/** The revert data of `data` sent by the sponsor to `to`, as the node's eth_call reports it. */
async function revertData(to: Hex, data: Hex): Promise<string | undefined> {
  const res = await fetch(node.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ from: sponsor.address, to, data }, 'latest'] }),
  })
  const body = (await res.json()) as { result?: string; error?: { data?: string } }
  expect(body.result, 'the call should revert').toBeUndefined()
  return body.error?.data
}

/** The owner's signature over `calls` at its current batch nonce, valid for `ttl` seconds (negative: already expired). */
async function signBatch(calls: BatchCall[], opts: { ttl?: bigint; signer?: typeof owner; nonce?: bigint } = {}) {
  const deadline = (await now()) + (opts.ttl ?? 600n)
  const nonce = opts.nonce ?? (await batchNonce(owner.address))
  const signature = await (opts.signer ?? owner).signTypedData(
    batchTypedData({ chainId: DEV_EVM_CHAIN_ID, account: owner.address, calls, nonce, deadline }),
  )
  return { deadline, nonce, signature }
}

beforeAll(async () => {
  node = await startEvmNode({ port: await freePort() })
  chain = defineChain({
    id: DEV_EVM_CHAIN_ID,
    name: 'Sigil dev EVM',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [node.url] } },
  })
  pub = createPublicClient({ chain, transport: http(node.url) })
  token = await deployTestToken(node.url)
  await sendFromDevFunder(node.url, { to: owner.address, value: `0x${parseEther('10').toString(16)}` })
  await sendFromDevFunder(node.url, { to: token, data: erc20Transfer(owner.address, parseUnits('1000', 18)) })
})
afterAll(async () => {
  await node?.close()
})

describe('the dev Gas Station', () => {
  it('is deployed by account #9 at its first nonce, with the compiled runtime code; account #8 is the sponsor', async () => {
    expect(getContractAddress({ from: DEV_GAS_STATION_DEPLOYER, nonce: 0n }).toLowerCase()).toBe(DEV_GAS_STATION)
    expect(mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 9 }).address).toBe(DEV_GAS_STATION_DEPLOYER)
    expect(sponsor.address).toBe(DEV_SPONSOR)
    expect(await code(DEV_GAS_STATION)).toBe(BATCH_EXECUTOR_RUNTIME_CODE)
    expect(await pub.getTransactionCount({ address: DEV_GAS_STATION_DEPLOYER })).toBe(1)
    expect(await balance(DEV_SPONSOR)).toBe(parseEther('10000'))
  })

  it('stays at its address across a restart from a state file, and a deployer that moved on is a clear error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sigil-gas-station-'))
    try {
      const stateFile = join(dir, 'state.json')
      const first = await startEvmNode({ port: await freePort(), stateFile })
      await first.close()
      const again = await startEvmNode({ port: await freePort(), stateFile })
      const read = createPublicClient({ transport: http(again.url) })
      expect(await read.getCode({ address: DEV_GAS_STATION })).toBe(BATCH_EXECUTOR_RUNTIME_CODE)
      // Deployed once: the restart found the code and sent nothing.
      expect(await read.getTransactionCount({ address: DEV_GAS_STATION_DEPLOYER })).toBe(1)
      // A state whose Gas Station is gone while the deployer's first nonce is spent cannot get it back.
      await read.request({ method: 'anvil_setCode' as 'eth_chainId', params: [DEV_GAS_STATION, '0x'] as never })
      await again.close()
      await expect(startEvmNode({ port: await freePort(), stateFile })).rejects.toThrow(
        /no Gas Station at 0x700b6a60ce7eaaea56f065753d8dcb9653dbad35.*already sent 1 transactions/,
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('SigilBatchExecutor through EIP-7702', () => {
  it('an account delegates with a type-4 transaction the sponsor submits', async () => {
    expect(delegationOf(await code(owner.address))).toEqual({ kind: 'none' })
    const authorization = await wallet(owner).signAuthorization({ account: owner, contractAddress: DEV_GAS_STATION })
    const hash = await wallet(sponsor).sendTransaction({ to: owner.address, data: '0x', authorizationList: [authorization] })
    const receipt = await pub.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.type).toBe('eip7702')
    expect(await code(owner.address)).toBe(`0xef0100${DEV_GAS_STATION.slice(2)}`)
    expect(delegationOf(await code(owner.address))).toEqual({ kind: 'delegated', to: DEV_GAS_STATION })
    expect(delegationOf(await code(DEV_GAS_STATION))).toEqual({ kind: 'contract' })
    // The account's own storage holds the batch nonce: 0 on both readings.
    expect(await pub.readContract({ address: owner.address, abi: BATCH_EXECUTOR_ABI, functionName: 'nonce' })).toBe(0n)
    expect(await batchNonce(owner.address)).toBe(0n)
    // Still receives plain ether (receive()).
    expect((await sendFromDevFunder(node.url, { to: owner.address, value: '0x1' })).status).toBe('success')
  })

  it("batchDigest matches the contract's own batchDigest view for the account", async () => {
    const calls: BatchCall[] = [
      { to: alice, value: 1n, data: '0x' },
      { to: token, value: 0n, data: erc20Transfer(bob, 7n) },
    ]
    const args = { chainId: DEV_EVM_CHAIN_ID, account: owner.address, calls, nonce: 5n, deadline: 1_900_000_000n }
    const onChain = await pub.readContract({
      address: owner.address,
      abi: BATCH_EXECUTOR_ABI,
      functionName: 'batchDigest',
      args: [calls, 5n, 1_900_000_000n],
    })
    expect(bytesToHex(batchDigest(args))).toBe(onChain)
    // Bound to the account: another verifying contract gives another digest.
    expect(bytesToHex(batchDigest({ ...args, account: stranger.address }))).not.toBe(onChain)
  })

  it('a sponsor submits a signed 3-call batch: all land, the account pays the values, the sponsor the gas', async () => {
    const calls: BatchCall[] = [
      { to: alice, value: parseEther('1'), data: '0x' },
      { to: bob, value: parseEther('2'), data: '0x' },
      { to: token, value: 0n, data: erc20Transfer(alice, parseUnits('5', 18)) },
    ]
    const { deadline, signature } = await signBatch(calls)
    const [ownerBefore, sponsorBefore, tokensBefore] = [
      await balance(owner.address),
      await balance(sponsor.address),
      await tokenBalance(owner.address),
    ]
    landed = encodeExecute(calls, deadline, signature)
    const hash = await wallet(sponsor).sendTransaction({ to: owner.address, data: landed })
    const receipt = await pub.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(await balance(alice)).toBe(parseEther('1'))
    expect(await balance(bob)).toBe(parseEther('2'))
    expect(await tokenBalance(alice)).toBe(parseUnits('5', 18))
    expect(await tokenBalance(owner.address)).toBe(tokensBefore - parseUnits('5', 18))
    expect(await balance(owner.address)).toBe(ownerBefore - parseEther('3'))
    expect(await balance(sponsor.address)).toBe(sponsorBefore - receipt.gasUsed * receipt.effectiveGasPrice)
    expect(await batchNonce(owner.address)).toBe(1n)
    // The BatchExecuted event names the nonce used and the number of calls.
    const executed = receipt.logs.find((l) => l.address.toLowerCase() === owner.address.toLowerCase())
    expect(executed?.topics[1] && BigInt(executed.topics[1])).toBe(0n)
    expect(executed && BigInt(executed.data)).toBe(3n)

    // The signature as parts (r, s, yParity) encodes to the same calldata.
    const { r, s, yParity } = parseSignature(signature)
    expect(encodeExecute(calls, deadline, { r, s, yParity: yParity as 0 | 1 })).toBe(encodeExecute(calls, deadline, signature))
    expect(encodeExecute(calls, deadline, { r: BigInt(r), s: BigInt(s), yParity: yParity as 0 | 1 })).toBe(
      encodeExecute(calls, deadline, signature),
    )
  })

  it('a failing middle call reverts the whole batch and names itself (index 1, its own reason)', async () => {
    const calls: BatchCall[] = [
      { to: alice, value: parseEther('1'), data: '0x' },
      { to: token, value: 0n, data: erc20Transfer(bob, parseUnits('1000000', 18)) },
      { to: bob, value: parseEther('1'), data: '0x' },
    ]
    const { deadline, signature } = await signBatch(calls)
    const data = encodeExecute(calls, deadline, signature)
    const revert = decodeBatchRevert(await revertData(owner.address, data))
    expect(revert).toMatchObject({ index: 1 })
    const reason = revert && 'reason' in revert ? revert.reason : '0x'
    expect(decodeErrorResult({ abi: ERC20_ARTIFACT.abi, data: reason })).toMatchObject({
      args: [expect.stringMatching(/exceeds balance/)],
    })

    // Mined anyway (fixed gas): it reverts, nothing moves, the nonce stays.
    const before = {
      owner: await balance(owner.address),
      alice: await balance(alice),
      bob: await balance(bob),
      nonce: await batchNonce(owner.address),
    }
    const hash = await wallet(sponsor).sendTransaction({ to: owner.address, data, gas: 300_000n })
    expect((await pub.waitForTransactionReceipt({ hash })).status).toBe('reverted')
    expect(await balance(owner.address)).toBe(before.owner)
    expect(await balance(alice)).toBe(before.alice)
    expect(await balance(bob)).toBe(before.bob)
    expect(await batchNonce(owner.address)).toBe(before.nonce)
  })

  it('refuses a replayed signature, an expired deadline and a signature by another key', async () => {
    const calls: BatchCall[] = [{ to: alice, value: 1n, data: '0x' }]
    // The landed batch sent again, byte for byte: its nonce is spent.
    expect(landed).toBeDefined()
    expect(await batchNonce(owner.address)).toBe(1n)
    expect(decodeBatchRevert(await revertData(owner.address, landed as Hex))).toEqual({ badSignature: true })

    const late = await signBatch(calls, { ttl: -1n })
    expect(decodeBatchRevert(await revertData(owner.address, encodeExecute(calls, late.deadline, late.signature)))).toEqual({
      expired: late.deadline,
    })

    const foreign = await signBatch(calls, { signer: stranger })
    expect(decodeBatchRevert(await revertData(owner.address, encodeExecute(calls, foreign.deadline, foreign.signature)))).toEqual({
      badSignature: true,
    })

    // The same batch signed by the owner at the current nonce goes through.
    const good = await signBatch(calls)
    const hash = await wallet(sponsor).sendTransaction({ to: owner.address, data: encodeExecute(calls, good.deadline, good.signature) })
    expect((await pub.waitForTransactionReceipt({ hash })).status).toBe('success')
    expect(await batchNonce(owner.address)).toBe(2n)
  })

  it('receives ERC-721 and ERC-1155 safe transfers while delegated', async () => {
    const [nft, multi] = [await deployFixture(NFTS.TestNft721), await deployFixture(NFTS.TestNft1155)]
    const minter = wallet(sponsor)
    const mined = async (hash: Hex) => (await pub.waitForTransactionReceipt({ hash })).status
    expect(
      await mined(
        await minter.writeContract({ address: nft, abi: NFTS.TestNft721.abi, functionName: 'mint', args: [sponsor.address, 1n] }),
      ),
    ).toBe('success')
    expect(
      await mined(
        await minter.writeContract({ address: nft, abi: NFTS.TestNft721.abi, functionName: 'mint', args: [sponsor.address, 2n] }),
      ),
    ).toBe('success')
    expect(
      await mined(
        await minter.writeContract({ address: multi, abi: NFTS.TestNft1155.abi, functionName: 'mint', args: [sponsor.address, 7n, 10n] }),
      ),
    ).toBe('success')
    expect(
      await mined(
        await minter.writeContract({ address: multi, abi: NFTS.TestNft1155.abi, functionName: 'mint', args: [sponsor.address, 8n, 10n] }),
      ),
    ).toBe('success')

    // The receiver check is real: a contract without the hooks (the token itself) is refused.
    await expect(
      minter.writeContract({
        address: nft,
        abi: NFTS.TestNft721.abi,
        functionName: 'safeTransferFrom',
        args: [sponsor.address, multi, 2n],
      }),
    ).rejects.toThrow(/ERC721InvalidReceiver/)

    const safe721 = await minter.writeContract({
      address: nft,
      abi: NFTS.TestNft721.abi,
      functionName: 'safeTransferFrom',
      args: [sponsor.address, owner.address, 1n],
    })
    expect(await mined(safe721)).toBe('success')
    expect(await pub.readContract({ address: nft, abi: NFTS.TestNft721.abi, functionName: 'ownerOf', args: [1n] })).toBe(owner.address)

    const safe1155 = await minter.writeContract({
      address: multi,
      abi: NFTS.TestNft1155.abi,
      functionName: 'safeTransferFrom',
      args: [sponsor.address, owner.address, 7n, 3n, '0x'],
    })
    expect(await mined(safe1155)).toBe('success')
    const batch1155 = await minter.writeContract({
      address: multi,
      abi: NFTS.TestNft1155.abi,
      functionName: 'safeBatchTransferFrom',
      args: [sponsor.address, owner.address, [7n, 8n], [1n, 4n], '0x'],
    })
    expect(await mined(batch1155)).toBe('success')
    const held = await pub.readContract({
      address: multi,
      abi: NFTS.TestNft1155.abi,
      functionName: 'balanceOfBatch',
      args: [
        [owner.address, owner.address],
        [7n, 8n],
      ],
    })
    expect(held).toEqual([4n, 4n])
  })

  it('an authorization to the zero address removes the delegation; the batch nonce stays in storage', async () => {
    const authorization = await wallet(owner).signAuthorization({ account: owner, contractAddress: zeroAddress })
    const hash = await wallet(sponsor).sendTransaction({ to: owner.address, data: '0x', authorizationList: [authorization] })
    expect((await pub.waitForTransactionReceipt({ hash })).status).toBe('success')
    expect(await code(owner.address)).toBe('0x')
    expect(delegationOf(await code(owner.address))).toEqual({ kind: 'none' })
    expect(await batchNonce(owner.address)).toBe(2n)
  })
})
