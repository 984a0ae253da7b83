/**
 * NFTs (ERC-721 and ERC-1155) the user's Ethereum accounts hold on the selected network, found on
 * chain the way History reads transfers (src/service/history/evmChainHistory.ts): the node's logs
 * of the newest {@link NFT_LOG_WINDOW} blocks — ERC-721 `Transfer` with the token id indexed (4
 * topics; an ERC-20 `Transfer` has 3) and ERC-1155 `TransferSingle`/`TransferBatch` — with the
 * account as recipient, then each candidate confirmed now (`ownerOf(id)` is the account; ERC-1155
 * `balanceOf(account, id)` above 0), so an NFT received and sent away again is not listed. The
 * collection's `name()` when the contract answers it (ERC-1155 usually does not: the popup then
 * shows the short contract address).
 *
 * Sending one: `safeTransferFrom(from, to, id)` (ERC-721) or `safeTransferFrom(from, to, id,
 * amount, "0x")` (ERC-1155), estimated and fee-reviewed like the popup's Send (send.ts#evmFees)
 * and sent through the service's eth_send_transaction with the reviewed gas and fees; its status
 * is the Send's (send.ts#sendStatus).
 */
import { decodeEventLog, decodeFunctionResult, encodeFunctionData, isHex, pad, parseAbi, toEventSelector } from 'viem'
import type { SigilClient } from '../../../api/client'
import { checkRecipient } from '../../recipients'
import type { ActiveSession, Core } from '../core'
import { ExtensionError } from '../failures'
import type { NetworkInfo } from '../chains/networks'
import { nodeRpc, quantity } from '../chains/nodeRpc'
import { requirePopupNetwork } from '../chains/popupNetwork'
import { accountBook, flatten } from './accountBook'
import { nodeFailure } from './balances'
import { type EvmFees, evmFees } from './send'
import { isImportedKey } from './importedKeys'
import { addImportedNft, importedNftCandidates } from './importedNfts'

/** How many of the newest blocks discovery reads logs from (as History does). */
export const NFT_LOG_WINDOW = 10_000n

/** The events and calls discovery and sending use. */
export const NFT_ABI = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function balanceOf(address account, uint256 id) view returns (uint256)',
  'function name() view returns (string)',
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)',
])

const TRANSFER = toEventSelector('Transfer(address,address,uint256)')
const TRANSFER_SINGLE = toEventSelector('TransferSingle(address,address,address,uint256,uint256)')
const TRANSFER_BATCH = toEventSelector('TransferBatch(address,address,address,uint256[],uint256[])')

/** The standard of an NFT contract. */
export type NftStandard = 'erc721' | 'erc1155'

/** One NFT (or ERC-1155 balance) an account holds; `tokenId` and `amount` are decimal strings. */
export type NftView = {
  contract: string
  tokenId: string
  standard: NftStandard
  /** The collection's `name()`; absent when the contract has none. */
  collection?: string
  /** How many the account holds ("1" for ERC-721). */
  amount: string
}

/** The NFTs of one Ethereum account on the network. */
export type AccountNfts = { address: string; name: string; nfts: NftView[] }

/** A log as the node returns it. */
export type RpcLog = { address: string; topics: string[]; data: string }

/** A candidate found in logs: a contract and token id that came to the account. */
export type NftCandidate = { contract: string; tokenId: bigint; standard: NftStandard }

/**
 * The NFTs that came to `owner` in `logs` (ERC-721 Transfer with 4 topics, ERC-1155
 * TransferSingle/TransferBatch), each contract and id once, in the order first seen. Logs that are
 * not NFT transfers to `owner` (an ERC-20 Transfer, garbage) are skipped.
 */
export function nftCandidates(logs: readonly RpcLog[], owner: string): NftCandidate[] {
  const me = owner.toLowerCase()
  const seen = new Map<string, NftCandidate>()
  const add = (contract: string, tokenId: bigint, standard: NftStandard) => {
    const key = `${contract}:${tokenId}`
    if (!seen.has(key)) seen.set(key, { contract, tokenId, standard })
  }
  for (const log of logs) {
    const topic0 = log.topics[0]?.toLowerCase()
    if (topic0 !== TRANSFER && topic0 !== TRANSFER_SINGLE && topic0 !== TRANSFER_BATCH) continue
    if (topic0 === TRANSFER && log.topics.length !== 4) continue
    if (!isHex(log.data) || !/^0x[0-9a-fA-F]{40}$/.test(log.address)) continue
    let event: ReturnType<typeof decodeEventLog<typeof NFT_ABI>>
    try {
      event = decodeEventLog({
        abi: NFT_ABI,
        data: log.data,
        topics: log.topics as [`0x${string}`, ...`0x${string}`[]],
      })
    } catch {
      continue
    }
    const contract = log.address.toLowerCase()
    if (event.eventName === 'Transfer') {
      if (event.args.to.toLowerCase() === me) add(contract, event.args.tokenId, 'erc721')
    } else if (event.eventName === 'TransferSingle') {
      if (event.args.to.toLowerCase() === me) add(contract, event.args.id, 'erc1155')
    } else if (event.eventName === 'TransferBatch') {
      if (event.args.to.toLowerCase() === me) for (const id of event.args.ids) add(contract, id, 'erc1155')
    }
  }
  return [...seen.values()]
}

/** What discovery asks the chain about a candidate: its current owner (721) or the account's balance (1155). */
export type HoldingReader = {
  ownerOf(contract: string, tokenId: bigint): Promise<string | undefined>
  balanceOf(contract: string, owner: string, tokenId: bigint): Promise<bigint>
  name(contract: string): Promise<string | undefined>
}

/** The candidates `owner` still holds now, with the collection names; a candidate whose read fails is left out. */
export async function heldNfts(candidates: readonly NftCandidate[], owner: string, read: HoldingReader): Promise<NftView[]> {
  const me = owner.toLowerCase()
  const names = new Map<string, Promise<string | undefined>>()
  const nameOf = (contract: string) => {
    let n = names.get(contract)
    if (!n) {
      n = read.name(contract).catch(() => undefined)
      names.set(contract, n)
    }
    return n
  }
  const held = await Promise.all(
    candidates.map(async (c): Promise<NftView | undefined> => {
      try {
        let amount: bigint
        if (c.standard === 'erc721') amount = (await read.ownerOf(c.contract, c.tokenId))?.toLowerCase() === me ? 1n : 0n
        else amount = await read.balanceOf(c.contract, owner, c.tokenId)
        if (amount <= 0n) return undefined
        const collection = await nameOf(c.contract)
        return {
          contract: c.contract,
          tokenId: c.tokenId.toString(),
          standard: c.standard,
          amount: amount.toString(),
          ...(collection ? { collection } : {}),
        }
      } catch (err) {
        if (err instanceof ExtensionError && err.code === 'NODE_UNAVAILABLE') throw err
        return undefined
      }
    }),
  )
  return held.filter((n): n is NftView => n !== undefined)
}

type Node = Pick<NetworkInfo, 'rpcUrl' | 'name'>

async function ethCall(core: Core, network: Node, to: string, data: `0x${string}`): Promise<`0x${string}`> {
  const raw = await nodeRpc<unknown>(core, network, 'eth_call', [{ to, data }, 'latest'])
  return typeof raw === 'string' && isHex(raw) ? raw : '0x'
}

/** {@link HoldingReader} over the network's node. */
export function nodeHoldingReader(core: Core, network: Node): HoldingReader {
  return {
    async ownerOf(contract, tokenId) {
      const raw = await ethCall(core, network, contract, encodeFunctionData({ abi: NFT_ABI, functionName: 'ownerOf', args: [tokenId] }))
      return decodeFunctionResult({ abi: NFT_ABI, functionName: 'ownerOf', data: raw })
    },
    async balanceOf(contract, owner, tokenId) {
      const data = encodeFunctionData({ abi: NFT_ABI, functionName: 'balanceOf', args: [owner as `0x${string}`, tokenId] })
      return decodeFunctionResult({ abi: NFT_ABI, functionName: 'balanceOf', data: await ethCall(core, network, contract, data) })
    },
    async name(contract) {
      const raw = await ethCall(core, network, contract, encodeFunctionData({ abi: NFT_ABI, functionName: 'name' }))
      const text = decodeFunctionResult({ abi: NFT_ABI, functionName: 'name', data: raw }).trim()
      return /^[^\p{Cc}]{1,64}$/u.test(text) ? text : undefined
    },
  }
}

/** The NFT transfer logs to `owner` in the newest {@link NFT_LOG_WINDOW} blocks. */
async function nftLogs(core: Core, network: Node, owner: string): Promise<RpcLog[]> {
  const latest = quantity(await nodeRpc(core, network, 'eth_blockNumber', []), 'eth_blockNumber')
  const fromBlock = `0x${(latest > NFT_LOG_WINDOW ? latest - NFT_LOG_WINDOW : 0n).toString(16)}`
  const me = pad(owner.toLowerCase() as `0x${string}`)
  const get = (topics: Array<string | string[] | null>) =>
    nodeRpc<RpcLog[]>(core, network, 'eth_getLogs', [{ fromBlock, toBlock: 'latest', topics }])
  const [erc721, erc1155] = await Promise.all([get([TRANSFER, null, me]), get([[TRANSFER_SINGLE, TRANSFER_BATCH], null, null, me])])
  return [...(Array.isArray(erc721) ? erc721 : []), ...(Array.isArray(erc1155) ? erc1155 : [])]
}

async function evmNetwork(core: Core, caip2: string): Promise<NetworkInfo> {
  const network = await requirePopupNetwork(core, caip2)
  if (network.family !== 'evm')
    throw new ExtensionError('INVALID_ARGUMENT', `caip2: ${network.name} has no ERC-721 or ERC-1155 NFTs`, 'caip2')
  return network
}

/** The NFTs `address` holds on `network`: those its logs show and the user's imported ones, each once. */
export async function nftsOf(core: Core, network: Node, address: string, imported: readonly NftCandidate[] = []): Promise<NftView[]> {
  const found = nftCandidates(await nftLogs(core, network, address), address)
  const seen = new Set(found.map((c) => `${c.contract}:${c.tokenId}`))
  const extra = imported.filter((c) => !seen.has(`${c.contract}:${c.tokenId}`))
  return heldNfts([...found, ...extra], address, nodeHoldingReader(core, network))
}

/** The NFTs of each of the session's Ethereum accounts on the EVM network `caip2` (none on Solana). */
export async function listNfts(
  core: Core,
  client: SigilClient,
  session: ActiveSession,
  p: { caip2: string },
): Promise<{ caip2: string; accounts: AccountNfts[] }> {
  const network = await requirePopupNetwork(core, p.caip2)
  if (network.family !== 'evm') return { caip2: network.caip2, accounts: [] }
  const { groups } = await accountBook(client, session, core.deps.local)
  const mine = flatten(groups).filter((a) => a.addressFormat === 'ADDRESS_FORMAT_ETHEREUM' && !a.hidden)
  const imported = await importedNftCandidates(core.deps.local, session, network.caip2)
  const accounts = await Promise.all(
    mine.map(async (a) => ({ address: a.address, name: a.name, nfts: await nftsOf(core, network, a.address, imported) })),
  )
  return { caip2: network.caip2, accounts }
}

/**
 * The NFT `owner` holds at `contract` #`tokenId` on `network`, its standard found by what the
 * contract answers (`ownerOf` for ERC-721, else `balanceOf(owner, id)`; ERC-165 is not required
 * of the contracts we meet); INVALID_ARGUMENT naming `contract` (no contract there) or `tokenId`
 * (not held) otherwise.
 */
export async function checkHeldNft(core: Core, network: NetworkInfo, owner: string, contract: string, tokenId: bigint): Promise<NftView> {
  const code = await nodeRpc<unknown>(core, network, 'eth_getCode', [contract, 'latest'])
  if (typeof code !== 'string' || code === '0x')
    throw new ExtensionError('INVALID_ARGUMENT', `contract: ${contract} is not a contract on ${network.name}`, 'contract')
  const read = nodeHoldingReader(core, network)
  const ownerNow = await read.ownerOf(contract, tokenId).catch(() => undefined)
  const standard: NftStandard = ownerNow === undefined ? 'erc1155' : 'erc721'
  const [held] = await heldNfts([{ contract, tokenId, standard }], owner, read)
  if (!held)
    throw new ExtensionError(
      'INVALID_ARGUMENT',
      `tokenId: This account does not hold #${tokenId} of ${contract} on ${network.name}`,
      'tokenId',
    )
  return held
}

/**
 * "Import NFT", as MetaMask offers it, for one discovery does not find (received before the
 * newest {@link NFT_LOG_WINDOW} blocks): checked on chain — `address` must hold it now — then
 * kept in the user's imported NFTs (importedNfts.ts) and listed from then on while held.
 */
export async function importNft(
  core: Core,
  session: ActiveSession,
  p: { caip2: string; address: string; contract: string; tokenId: string },
): Promise<NftView> {
  const network = await evmNetwork(core, p.caip2)
  const held = await checkHeldNft(core, network, p.address, p.contract.toLowerCase(), BigInt(p.tokenId))
  await addImportedNft(core.deps.local, session, network.caip2, held, core.now())
  return held
}

/** What an NFT send moves. `amount` (ERC-1155 only; ERC-721 is always 1) is a decimal string. */
export type NftSendInput = { caip2: string; from: string; to: string; contract: string; tokenId: string; amount?: string | undefined }

/** The review of an NFT send: the NFT as held, the recipient, and the fee (atomic units of the native asset). */
export type NftSendEstimate = {
  caip2: string
  networkName: string
  from: string
  to: string
  nft: NftView
  amount: string
  native: { symbol: string; decimals: number }
  fee: string
  maxFee: string
  evm?: EvmFees
  /** Why it cannot be sent (the node expects it to fail); absent when it can. */
  problem?: string
}

/** The NFT as `from` holds it now, or INVALID_ARGUMENT naming the field at fault. */
async function heldNow(core: Core, network: NetworkInfo, p: NftSendInput): Promise<{ nft: NftView; to: string; amount: bigint }> {
  const to = checkRecipient('evm', p.to)
  if (!to.ok) throw new ExtensionError('INVALID_ARGUMENT', `to: ${to.reason}`, 'to')
  if (to.address.toLowerCase() === p.from.toLowerCase())
    throw new ExtensionError('INVALID_ARGUMENT', 'to: Send to another address than the sender', 'to')
  const held = await checkHeldNft(core, network, p.from, p.contract.toLowerCase(), BigInt(p.tokenId))
  const amount = held.standard === 'erc721' ? 1n : BigInt(p.amount ?? '1')
  if (amount <= 0n) throw new ExtensionError('INVALID_ARGUMENT', 'amount: Send at least 1', 'amount')
  if (amount > BigInt(held.amount)) throw new ExtensionError('INVALID_ARGUMENT', `amount: You hold ${held.amount}`, 'amount')
  return { nft: held, to: to.address, amount }
}

/** The `safeTransferFrom` call data that moves the NFT. */
export function nftTransferCalldata(nft: Pick<NftView, 'standard' | 'tokenId'>, from: string, to: string, amount: bigint): `0x${string}` {
  const f = from as `0x${string}`
  const t = to as `0x${string}`
  const id = BigInt(nft.tokenId)
  return nft.standard === 'erc721'
    ? encodeFunctionData({ abi: NFT_ABI, functionName: 'safeTransferFrom', args: [f, t, id] })
    : encodeFunctionData({ abi: NFT_ABI, functionName: 'safeTransferFrom', args: [f, t, id, amount, '0x'] })
}

/** Check the NFT is held and estimate the send's fee for the review. */
export async function estimateNftSend(
  core: Core,
  _client: SigilClient,
  _session: ActiveSession,
  p: NftSendInput,
): Promise<NftSendEstimate> {
  const network = await evmNetwork(core, p.caip2)
  const { nft, to, amount } = await heldNow(core, network, p)
  const native = { symbol: network.nativeSymbol, decimals: network.nativeDecimals }
  const base = { caip2: network.caip2, networkName: network.name, from: p.from, to, nft, amount: amount.toString(), native }
  const fees = await evmFees(core, network, {
    from: p.from,
    to: nft.contract,
    value: 0n,
    data: nftTransferCalldata(nft, p.from, to, amount),
  })
  if ('failure' in fees) return { ...base, fee: '0', maxFee: '0', problem: fees.failure }
  const balance = quantity(await nodeRpc(core, network, 'eth_getBalance', [p.from, 'latest']), 'eth_getBalance')
  return {
    ...base,
    fee: fees.fee.toString(),
    maxFee: fees.maxFee.toString(),
    evm: { gasLimit: fees.gasLimit.toString(), maxFeePerGas: fees.maxFeePerGas.toString(), maxPriorityFeePerGas: fees.priority.toString() },
    ...(fees.maxFee > balance ? { problem: `Not enough ${native.symbol} to pay the fee.` } : {}),
  }
}

/** Send a reviewed NFT through the service (eth_send_transaction with the reviewed gas and fees); returns the id to poll with sendStatus. */
export async function submitNftSend(
  core: Core,
  client: SigilClient,
  session: ActiveSession,
  p: NftSendInput & { evm: EvmFees },
): Promise<{ sendTransactionStatusId: string; activityStatus: string }> {
  const network = await evmNetwork(core, p.caip2)
  if (await isImportedKey(client, session, p.from))
    throw new ExtensionError('INVALID_ARGUMENT', 'from: NFTs are sent from wallet accounts only, not imported keys', 'from')
  const { nft, to, amount } = await heldNow(core, network, p)
  let res: Awaited<ReturnType<SigilClient['ethSendTransaction']>>
  try {
    res = await client.ethSendTransaction({
      organizationId: session.record.organizationId,
      from: p.from,
      caip2: network.caip2,
      calls: [{ to: nft.contract, data: nftTransferCalldata(nft, p.from, to, amount) }],
      ...p.evm,
    })
  } catch (err) {
    throw nodeFailure(err, network)
  }
  if (res.sendTransactionStatusId === undefined) {
    const status = res.activity.status.replace('ACTIVITY_STATUS_', '').toLowerCase().replace(/_/g, ' ')
    throw new ExtensionError('REQUEST_FAILED', `The send was not started (${status}); see Activity.`)
  }
  return { sendTransactionStatusId: res.sendTransactionStatusId, activityStatus: res.activity.status }
}
