/**
 * Speed up and cancel a pending EVM send: a replacement transaction at the SAME nonce with higher
 * fees, signed and sent through the service like any send (eth_send_transaction with the explicit
 * nonce, gas and fees the user reviewed). Speed up repeats the call (same to, value and data);
 * cancel sends 0 to the sender itself with no data. Nodes refuse a replacement unless both fees
 * rise by at least 10% ("replacement transaction underpriced"), so the fees are the higher of the
 * original's + 10% (rounded up) and what the node asks now. The service then ends the original as
 * replaced once the replacement is mined. Solana sends cannot be replaced: their blockhash expires.
 */
import { getAddress, isAddress } from 'viem'
import type { SigilClient } from '../../../api/client'
import { significantText } from '../../amounts'
import { gweiText } from '../approval/text'
import type { NetworkInfo } from '../chains/networks'
import { nodeRpc, quantity, RpcRefused } from '../chains/nodeRpc'
import { requirePopupNetwork } from '../chains/popupNetwork'
import type { ActiveSession, Core } from '../core'
import { ExtensionError } from '../failures'
import { nodeFailure } from './balances'

/** Speed up (same call, higher fees) or cancel (0 to self, higher fees). */
export type ReplaceKind = 'speedUp' | 'cancel'

export type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }

const CANCEL_GAS = 21_000n

/** `n` raised by 10%, rounded up, and by at least 1 wei. */
export function bumped(n: bigint): bigint {
  const up = (n * 110n + 99n) / 100n
  return up > n ? up : n + 1n
}

/**
 * The replacement's fees: each at least the original's + 10% (what nodes require), and at least
 * what the node asks now (its tip, and twice the base fee plus the tip, as the service fills them).
 */
export function replacementFees(original: Fees, node: { baseFeePerGas: bigint; priorityFeePerGas: bigint }): Fees {
  const maxPriorityFeePerGas = [bumped(original.maxPriorityFeePerGas), node.priorityFeePerGas].reduce((a, b) => (a > b ? a : b))
  const wanted = 2n * node.baseFeePerGas + maxPriorityFeePerGas
  const maxFeePerGas = [bumped(original.maxFeePerGas), wanted, maxPriorityFeePerGas].reduce((a, b) => (a > b ? a : b))
  return { maxFeePerGas, maxPriorityFeePerGas }
}

/** What the popup reviews before replacing a send. Amounts are wei, decimal strings. */
export type ReplaceReview = {
  kind: ReplaceKind
  caip2: string
  from: string
  to: string
  value: string
  nonce: string
  gasLimit: string
  maxFeePerGas: string
  maxPriorityFeePerGas: string
  /** The most the replacement's fee can be, rounded up, with the unit ("at most 0.0001 ETH"). */
  maxFeeText: string
  /** The most the original's fee could be, same form. */
  originalMaxFeeText: string
}

type NodeTx = {
  from?: string
  to?: string | null
  value?: string
  input?: string
  nonce?: string
  gas?: string
  gasPrice?: string
  maxFeePerGas?: string
  maxPriorityFeePerGas?: string
  blockNumber?: string | null
} | null

/** A node's (lowercase) address with its EIP-55 checksum, as the user's accounts and recipients are written. */
const checksummed = (a: unknown) => (typeof a === 'string' && isAddress(a, { strict: false }) ? getAddress(a) : String(a ?? ''))

type Original = { network: NetworkInfo; from: string; to: string; value: bigint; data: string; nonce: bigint; gas: bigint; fees: Fees }

/** The pending original as the node holds it; refuses a send that is not an EVM send still waiting for a block. */
async function original(
  core: Core,
  client: SigilClient,
  session: ActiveSession,
  p: { sendTransactionStatusId: string; caip2: string },
): Promise<Original> {
  const network = await requirePopupNetwork(core, p.caip2)
  if (network.family !== 'evm')
    throw new ExtensionError(
      'INVALID_ARGUMENT',
      'caip2: only EVM sends can be sped up or cancelled; a Solana send expires on its own',
      'caip2',
    )
  const status = await client.getSendTransactionStatus({
    organizationId: session.record.organizationId,
    sendTransactionStatusId: p.sendTransactionStatusId,
  })
  const hash = status.eth?.txHash
  if (status.txStatus !== 'BROADCASTING' || !hash)
    throw new ExtensionError(
      'INVALID_ARGUMENT',
      `sendTransactionStatusId: this send is ${status.txStatus === 'INCLUDED' ? 'already confirmed' : status.txStatus === 'FAILED' ? 'no longer pending' : 'not sent yet'}`,
      'sendTransactionStatusId',
    )
  let tx: NodeTx
  try {
    tx = await nodeRpc<NodeTx>(core, network, 'eth_getTransactionByHash', [hash])
  } catch (e) {
    throw nodeFailure(e, network)
  }
  if (!tx)
    throw new ExtensionError(
      'INVALID_ARGUMENT',
      `sendTransactionStatusId: the ${network.name} node no longer holds this transaction`,
      'sendTransactionStatusId',
    )
  if (tx.blockNumber)
    throw new ExtensionError('INVALID_ARGUMENT', 'sendTransactionStatusId: this send is already confirmed', 'sendTransactionStatusId')
  const price = tx.gasPrice === undefined ? undefined : quantity(tx.gasPrice, 'the gas price')
  return {
    network,
    from: checksummed(tx.from),
    to: checksummed(tx.to),
    value: quantity(tx.value, 'the value'),
    data: tx.input ?? '0x',
    nonce: quantity(tx.nonce, 'the nonce'),
    gas: quantity(tx.gas, 'the gas limit'),
    fees: {
      maxFeePerGas: tx.maxFeePerGas === undefined ? (price ?? 0n) : quantity(tx.maxFeePerGas, 'the fee'),
      maxPriorityFeePerGas: tx.maxPriorityFeePerGas === undefined ? (price ?? 0n) : quantity(tx.maxPriorityFeePerGas, 'the tip'),
    },
  }
}

/** What the node asks now: its tip (1 gwei when it has no opinion) and the latest base fee. */
async function nodeFees(core: Core, network: NetworkInfo): Promise<{ baseFeePerGas: bigint; priorityFeePerGas: bigint }> {
  try {
    let priorityFeePerGas = 1_000_000_000n
    try {
      priorityFeePerGas = quantity(await nodeRpc<string>(core, network, 'eth_maxPriorityFeePerGas', []), 'the tip')
    } catch (e) {
      if (!(e instanceof RpcRefused)) throw e
    }
    const block = await nodeRpc<{ baseFeePerGas?: string } | null>(core, network, 'eth_getBlockByNumber', ['latest', false])
    return { baseFeePerGas: block?.baseFeePerGas ? quantity(block.baseFeePerGas, 'the base fee') : 0n, priorityFeePerGas }
  } catch (e) {
    throw nodeFailure(e, network)
  }
}

const atMost = (wei: bigint, network: NetworkInfo) =>
  `at most ${significantText(wei, network.nativeDecimals, 4, true)} ${network.nativeSymbol}`

/** The replacement to review: its call, nonce, gas and fees, and the most its fee can be in words. */
export async function reviewReplacement(
  core: Core,
  client: SigilClient,
  session: ActiveSession,
  p: { sendTransactionStatusId: string; caip2: string; kind: ReplaceKind },
): Promise<ReplaceReview> {
  const o = await original(core, client, session, p)
  const fees = replacementFees(o.fees, await nodeFees(core, o.network))
  const gasLimit = p.kind === 'cancel' ? CANCEL_GAS : o.gas
  return {
    kind: p.kind,
    caip2: o.network.caip2,
    from: o.from,
    to: p.kind === 'cancel' ? o.from : o.to,
    value: p.kind === 'cancel' ? '0' : o.value.toString(),
    nonce: o.nonce.toString(),
    gasLimit: gasLimit.toString(),
    maxFeePerGas: fees.maxFeePerGas.toString(),
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
    maxFeeText: atMost(gasLimit * fees.maxFeePerGas, o.network),
    originalMaxFeeText: atMost(o.gas * o.fees.maxFeePerGas, o.network),
  }
}

/**
 * Sends the reviewed replacement through the service at the original's nonce. Fees below the
 * original's + 10% are refused before anything is signed (the node would refuse them anyway).
 */
export async function submitReplacement(
  core: Core,
  client: SigilClient,
  session: ActiveSession,
  p: { sendTransactionStatusId: string; caip2: string; kind: ReplaceKind; maxFeePerGas: string; maxPriorityFeePerGas: string },
): Promise<{ sendTransactionStatusId: string }> {
  const o = await original(core, client, session, p)
  const fees = { maxFeePerGas: BigInt(p.maxFeePerGas), maxPriorityFeePerGas: BigInt(p.maxPriorityFeePerGas) }
  const floor = { maxFeePerGas: bumped(o.fees.maxFeePerGas), maxPriorityFeePerGas: bumped(o.fees.maxPriorityFeePerGas) }
  const words = { maxFeePerGas: 'maximum fee', maxPriorityFeePerGas: 'priority fee' } as const
  for (const k of ['maxFeePerGas', 'maxPriorityFeePerGas'] as const)
    if (fees[k] < floor[k])
      throw new ExtensionError(
        'INVALID_ARGUMENT',
        `The new ${words[k]} must be at least ${gweiText(floor[k])} (10% above the pending transaction's) to replace it.`,
        k,
      )
  if (fees.maxPriorityFeePerGas > fees.maxFeePerGas)
    throw new ExtensionError('INVALID_ARGUMENT', 'The priority fee must not exceed the maximum fee.', 'maxPriorityFeePerGas')
  const call =
    p.kind === 'cancel' ? { to: o.from, value: '0' } : { to: o.to, value: o.value.toString(), ...(o.data !== '0x' ? { data: o.data } : {}) }
  try {
    const res = await client.ethSendTransaction({
      organizationId: session.record.organizationId,
      from: o.from,
      caip2: o.network.caip2,
      calls: [call],
      nonce: o.nonce.toString(),
      gasLimit: (p.kind === 'cancel' ? CANCEL_GAS : o.gas).toString(),
      maxFeePerGas: p.maxFeePerGas,
      maxPriorityFeePerGas: p.maxPriorityFeePerGas,
    })
    if (res.sendTransactionStatusId === undefined)
      throw new ExtensionError('REQUEST_FAILED', 'The replacement was not started; see Activity.')
    return { sendTransactionStatusId: res.sendTransactionStatusId }
  } catch (e) {
    throw nodeFailure(e, o.network)
  }
}
