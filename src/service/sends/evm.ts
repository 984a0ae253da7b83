/**
 * One EVM send's steps for the tracker: build (nonce, gas and EIP-1559 fees from the node where
 * the intent left them out), sign with the account key, broadcast the stored signed bytes, and
 * read the receipt. Every step returns what the tracker should record; network trouble throws.
 */
import { Transaction } from 'micro-eth-signer'
import { type Network, evmChainId } from '../../chains/networks.js'
import { jsonRpc, RpcRefusedError } from '../chains/rpc.js'
import type { SendInclusion, SendRow } from '../store/sends.js'
import { batchFailure } from './batchRevert.js'
import { type CustomErrorAbis, type EthTxError, describeRevert, revertDataOf } from './revert.js'

/**
 * What eth_send_transaction stores as the request: one call (without `to`: a contract creation)
 * and the caller's optional fields; or a batch through the Gas Station (`batch`), or an
 * undelegation (`undelegate`), which src/service/sends/batch.ts builds.
 */
export type EvmSendRequest = {
  to?: string
  value?: string
  data?: string
  nonce?: string
  gasLimit?: string
  maxFeePerGas?: string
  maxPriorityFeePerGas?: string
  batch?: BatchRequest
  undelegate?: true
}

/** A batch of calls run atomically by the account through the network's Gas Station (`gasStation`). */
export type BatchRequest = {
  calls: Array<{ to: string; value: string; data: string }>
  /** The network's sponsor sends (and pays for) the outer transaction. */
  sponsor: boolean
  /** Unix seconds after which the batch signature is refused. */
  deadline: string
  /** The batch nonce to sign; read from the account's storage when absent. */
  gasStationNonce?: string
  gasStation: string
}

export type Failure = { failed: { message: string } & Partial<EthTxError> & Record<string, unknown> }
export type Signed = { signed: { signedTx: string; txHash: string; nonce: number } }

const hex = (n: bigint) => `0x${n.toString(16)}`
const GWEI = 1_000_000_000n

/** EIP-1559 fees: the caller's, or the node's tip and twice the latest base fee plus it. */
export async function feesOf(
  network: Network,
  req: Pick<EvmSendRequest, 'maxFeePerGas' | 'maxPriorityFeePerGas'>,
): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
  let maxPriorityFeePerGas: bigint
  if (req.maxPriorityFeePerGas !== undefined) maxPriorityFeePerGas = BigInt(req.maxPriorityFeePerGas)
  else {
    try {
      maxPriorityFeePerGas = BigInt(await jsonRpc<string>(network, 'eth_maxPriorityFeePerGas', []))
    } catch (e) {
      if (!(e instanceof RpcRefusedError)) throw e
      maxPriorityFeePerGas = GWEI
    }
  }
  let maxFeePerGas: bigint
  if (req.maxFeePerGas !== undefined) maxFeePerGas = BigInt(req.maxFeePerGas)
  else {
    const block = await jsonRpc<{ baseFeePerGas?: string } | null>(network, 'eth_getBlockByNumber', ['latest', false])
    maxFeePerGas = 2n * BigInt(block?.baseFeePerGas ?? '0x0') + maxPriorityFeePerGas
  }
  if (maxPriorityFeePerGas > maxFeePerGas) maxPriorityFeePerGas = maxFeePerGas

  return { maxFeePerGas, maxPriorityFeePerGas }
}

/**
 * Builds and signs the send; a transaction that would revert or cannot be paid for fails here (a
 * custom error decoded with the ABIs `customErrors` finds).
 */
export async function buildEvmSend(
  network: Network,
  send: SendRow,
  privateKey: Uint8Array,
  customErrors?: CustomErrorAbis,
): Promise<Signed | Failure> {
  const req = JSON.parse(send.request) as EvmSendRequest
  const chainId = evmChainId(network)
  const served = Number(BigInt(await jsonRpc<string>(network, 'eth_chainId', [])))
  if (served !== chainId) return { failed: { message: `the node for ${network.caip2} serves chain id ${served}` } }

  const value = BigInt(req.value ?? '0')
  const data = req.data ?? '0x'
  const call = { from: send.from_address, ...(req.to !== undefined ? { to: req.to } : {}), value: hex(value), data }
  const nonce =
    req.nonce !== undefined
      ? BigInt(req.nonce)
      : BigInt(await jsonRpc<string>(network, 'eth_getTransactionCount', [send.from_address, 'pending']))

  let gasLimit: bigint
  if (req.gasLimit !== undefined) gasLimit = BigInt(req.gasLimit)
  else {
    try {
      gasLimit = (BigInt(await jsonRpc<string>(network, 'eth_estimateGas', [call])) * 12n) / 10n
    } catch (e) {
      if (e instanceof RpcRefusedError) return { failed: await estimationFailure(req.to, e, customErrors) }
      throw e
    }
  }

  const { maxFeePerGas, maxPriorityFeePerGas } = await feesOf(network, req)
  const balance = BigInt(await jsonRpc<string>(network, 'eth_getBalance', [send.from_address, 'pending']))
  const need = value + gasLimit * maxFeePerGas
  if (balance < need) {
    return {
      failed: { message: `insufficient funds: ${send.from_address} holds ${balance} wei; value plus the most gas can cost is ${need} wei` },
    }
  }

  const unsigned = Transaction.prepare(
    { type: 'eip1559', to: req.to ?? '0x', value, data, nonce, gasLimit, maxFeePerGas, maxPriorityFeePerGas, chainId: BigInt(chainId) },
    false,
  )
  const signed = unsigned.signBy(privateKey)
  return { signed: { signedTx: signed.toHex(), txHash: signed.hash, nonce: Number(nonce) } }
}

export async function estimationFailure(
  to: string | undefined,
  e: RpcRefusedError,
  customErrors: CustomErrorAbis | undefined,
): Promise<Failure['failed']> {
  const data = revertDataOf(e.rpcData)
  if (data !== undefined || /revert/i.test(e.rpcMessage)) return describeRevert(to, data, 'simulation', customErrors)
  return { message: `the node refused the transaction: ${e.rpcMessage}` }
}

/**
 * Why a send whose nonce another transaction used ends: replaced by the user's newer send at that
 * nonce (`replacedBy`, its hash), in words for get_send_transaction_status.
 */
export function replacedFailure(replacedBy: string | null): Failure['failed'] {
  return {
    message: `replaced: a newer transaction with the same nonce${replacedBy ? ` (${replacedBy})` : ''} took its place`,
    replaced: true,
    ...(replacedBy ? { replacedBy } : {}),
  }
}

type Receipt = {
  status?: string
  blockNumber?: string
  blockHash?: string
  gasUsed?: string
  effectiveGasPrice?: string
  /** OP-stack chains: the L1 data fee, paid on top of the gas. */
  l1Fee?: string
} | null

/**
 * Where a mined transaction landed and what it cost, from its receipt and its block's time: the
 * fee is gasUsed × effectiveGasPrice (plus an OP-stack `l1Fee`); a node that will not give the
 * block leaves its time null. Finality is CONFIRMED: Sigil does not follow EVM finality.
 */
async function inclusionOf(network: Network, receipt: NonNullable<Receipt> & { blockNumber: string }): Promise<SendInclusion> {
  let blockTime: number | null = null
  if (receipt.blockHash) {
    try {
      const block = await jsonRpc<{ timestamp?: string } | null>(network, 'eth_getBlockByHash', [receipt.blockHash, false])
      if (block?.timestamp) blockTime = Number(BigInt(block.timestamp)) * 1000
    } catch (e) {
      if (!(e instanceof RpcRefusedError)) throw e
    }
  }
  const fee =
    receipt.gasUsed && receipt.effectiveGasPrice
      ? (BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice) + BigInt(receipt.l1Fee ?? '0x0')).toString()
      : null
  return {
    blockNumber: Number(BigInt(receipt.blockNumber)),
    blockHash: receipt.blockHash ?? null,
    blockTime,
    fee,
    finality: 'CONFIRMED',
  }
}

/** Where a mined transaction landed, read again from the node (undefined: the node has no receipt for it). */
export async function readEvmInclusion(network: Network, txHash: string): Promise<SendInclusion | undefined> {
  const receipt = await jsonRpc<Receipt>(network, 'eth_getTransactionReceipt', [txHash])
  return receipt?.blockNumber ? inclusionOf(network, { ...receipt, blockNumber: receipt.blockNumber }) : undefined
}

/**
 * Where a broadcast send stands: included (with where it landed), reverted on chain (with the
 * revert decoded by replaying the call on the block before, a custom error with the ABIs
 * `customErrors` finds, and where it landed), or still
 * pending after (re)broadcasting the stored signed bytes. A node refusal that can never succeed fails the send.
 */
export async function advanceEvmSend(
  network: Network,
  send: SendRow,
  customErrors?: CustomErrorAbis,
  replacement?: Pick<SendRow, 'tx_hash'>,
): Promise<{ included: SendInclusion } | (Failure & { inclusion?: SendInclusion }) | 'pending'> {
  const receipt = await jsonRpc<Receipt>(network, 'eth_getTransactionReceipt', [send.tx_hash])
  if (!receipt?.blockNumber && replacement && send.nonce !== null) {
    // Replaced (sped up or cancelled): never rebroadcast over the replacement; it ends once its nonce is used.
    const used = BigInt(await jsonRpc<string>(network, 'eth_getTransactionCount', [send.payer ?? send.from_address, 'latest']))
    if (used <= BigInt(send.nonce)) return 'pending'
    const again = await jsonRpc<Receipt>(network, 'eth_getTransactionReceipt', [send.tx_hash])
    if (!again?.blockNumber) return { failed: replacedFailure(replacement.tx_hash) }
    return advanceEvmSend(network, send, customErrors)
  }
  if (receipt?.blockNumber) {
    const inclusion = await inclusionOf(network, { ...receipt, blockNumber: receipt.blockNumber })
    const block = inclusion.blockNumber
    if (receipt.status === '0x1') return { included: inclusion }
    const req = JSON.parse(send.request) as EvmSendRequest
    // A batch or undelegation calls the account itself; the outer sender may be the sponsor.
    const to = req.batch || req.undelegate ? send.from_address : req.to
    let data: string | undefined
    try {
      const tx = Transaction.fromHex(send.signed_tx ?? '', false)
      const auths = (
        tx.raw as { authorizationList?: Array<Record<'chainId' | 'nonce' | 'r' | 's', bigint> & { address: string; yParity: number }> }
      ).authorizationList
      await jsonRpc(network, 'eth_call', [
        {
          from: tx.sender,
          ...(to !== undefined ? { to } : {}),
          value: hex(tx.raw.value),
          data: tx.raw.data,
          gas: hex(tx.raw.gasLimit),
          ...(auths?.length
            ? {
                authorizationList: auths.map((a) => ({
                  chainId: hex(a.chainId),
                  address: a.address,
                  nonce: hex(a.nonce),
                  yParity: hex(BigInt(a.yParity)),
                  r: hex(a.r),
                  s: hex(a.s),
                })),
              }
            : {}),
        },
        hex(BigInt(block - 1)),
      ])
    } catch (e) {
      if (!(e instanceof RpcRefusedError)) throw e
      data = revertDataOf(e.rpcData)
    }
    if (req.batch) return { failed: await batchFailure(send.from_address, req.batch.calls, data, 'execution', customErrors), inclusion }
    return { failed: await describeRevert(to, data, 'execution', customErrors), inclusion }
  }
  try {
    await jsonRpc<string>(network, 'eth_sendRawTransaction', [send.signed_tx])
  } catch (e) {
    if (!(e instanceof RpcRefusedError)) throw e
    if (/already known|already imported|known transaction/i.test(e.rpcMessage)) return 'pending'
    if (
      /nonce too low|insufficient funds|intrinsic gas|exceeds block gas limit|invalid sender|chain ?id|underpriced|fee cap/i.test(
        e.rpcMessage,
      )
    ) {
      return { failed: { message: `the node refused the transaction: ${e.rpcMessage}` } }
    }
    throw e
  }
  return 'pending'
}
