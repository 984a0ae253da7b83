/**
 * The tracker's build step for EVM sends that go through EIP-7702: a batch of calls run by the
 * account through the network's Gas Station (SigilBatchExecutor), paid by the account or by the
 * network's sponsor, and an undelegation. One-call sends are built by evm.ts.
 *
 * A batch: the account's code must be empty (then an authorization to the Gas Station, signed with
 * the account's key, rides along) or already delegate to the Gas Station; the batch nonce is the
 * caller's `gasStationNonce` or read from the account's storage slot; the account signs the
 * EIP-712 BatchExecution; the outer transaction calls `execute` on the account, from the account
 * itself (type 4 with the authorization, type 2 without) or from the sponsor (who pays the gas).
 */
import { Transaction } from 'micro-eth-signer'
import { BATCH_NONCE_SLOT, type BatchCall, batchDigest, delegationOf, encodeExecute } from '../../chains/gasStation/batch.js'
import { type Network, evmChainId } from '../../chains/networks.js'
import { signAuthorization } from '../../chains/sign/eip7702.js'
import { signSecp256k1Digest } from '../../chains/sign/secp256k1.js'
import { jsonRpc, RpcRefusedError } from '../chains/rpc.js'
import type { SendRow } from '../store/sends.js'
import { batchFailure } from './batchRevert.js'
import { type BatchRequest, type EvmSendRequest, type Failure, type Signed, buildEvmSend, feesOf } from './evm.js'
import { type CustomErrorAbis, revertDataOf } from './revert.js'
import { type SponsorKeys, sponsorAddressOf, sponsorKeyOf } from '../chains/sponsor.js'

const hex = (n: bigint) => `0x${n.toString(16)}`
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'

/**
 * The gas limit of an undelegation when the caller gives none: its intrinsic cost is 21,000 plus
 * 25,000 for the one authorization (part refunded, the account exists), and the call to the
 * account runs no code once the delegation is cleared; 60,000 leaves room for calldata pricing
 * changes without paying much for unused gas.
 */
export const UNDELEGATION_GAS_LIMIT = 60_000n

type Authorization = ReturnType<typeof signAuthorization>

/**
 * A sponsored batch, built except for the sponsor's nonce: `seal` chooses the nonce (at least
 * `nodeNonce()`, the node's pending count), checks the budget for `maxCostWei` (gas limit × max fee
 * per gas, the most the sponsor can pay) and signs with `sign(nonce)` while the sponsor key is open.
 */
export type SponsoredDraft = {
  payer: string
  maxCostWei: bigint
  nodeNonce: () => Promise<bigint>
  sign: (nonce: bigint) => Signed
}
export type SponsoredSeal = (draft: SponsoredDraft) => Promise<Signed | Failure>

/** Signs a draft at the node's pending nonce (no budget, no other instance): for callers without a store. */
const sealAtNodeNonce: SponsoredSeal = async (d) => d.sign(await d.nodeNonce())

/**
 * Builds and signs any EVM send: one call (evm.ts), a Gas Station batch, or an undelegation. A
 * sponsored batch is handed to `seal` to take the sponsor's nonce and sign.
 */
export async function buildEvm(
  network: Network,
  send: SendRow,
  privateKey: Uint8Array,
  sponsorKeys: SponsorKeys,
  customErrors?: CustomErrorAbis,
  seal: SponsoredSeal = sealAtNodeNonce,
): Promise<Signed | Failure> {
  const req = JSON.parse(send.request) as EvmSendRequest
  if (!req.batch && !req.undelegate) return buildEvmSend(network, send, privateKey, customErrors)
  const chainId = evmChainId(network)
  const served = Number(BigInt(await jsonRpc<string>(network, 'eth_chainId', [])))
  if (served !== chainId) return { failed: { message: `the node for ${network.caip2} serves chain id ${served}` } }
  const account = send.from_address.toLowerCase()
  const delegation = delegationOf(await jsonRpc<string>(network, 'eth_getCode', [account, 'pending']))
  if (delegation.kind === 'contract') return { failed: { message: `${account} is a contract, not an account that can delegate` } }
  const accountNonce = BigInt(await jsonRpc<string>(network, 'eth_getTransactionCount', [account, 'pending']))

  if (req.undelegate) {
    if (delegation.kind === 'none') return { failed: { message: `${account} is not delegated on ${network.caip2}: nothing to undelegate` } }
    const nonce = req.nonce !== undefined ? BigInt(req.nonce) : accountNonce
    // The account sends the transaction, so its nonce is already one higher when the authorization is applied.
    const authorization = signAuthorization(privateKey, { chainId: BigInt(chainId), address: ZERO_ADDRESS, nonce: nonce + 1n })
    const gasLimit = req.gasLimit !== undefined ? BigInt(req.gasLimit) : UNDELEGATION_GAS_LIMIT
    const fees = await feesOf(network, req)
    const lacking = await lacks(network, account, gasLimit * fees.maxFeePerGas)
    if (lacking) return lacking
    return signOuter(privateKey, { chainId, to: account, data: '0x', nonce, gasLimit, ...fees, authorization })
  }

  const batch = req.batch as BatchRequest
  const gasStation = batch.gasStation.toLowerCase()
  if (delegation.kind === 'delegated' && delegation.to !== gasStation)
    return { failed: { message: `${account} is delegated to ${delegation.to}, not to the Gas Station ${gasStation}; undelegate it first` } }
  const calls: BatchCall[] = batch.calls.map((c) => ({
    to: c.to.toLowerCase() as `0x${string}`,
    value: BigInt(c.value),
    data: c.data as `0x${string}`,
  }))
  const total = calls.reduce((sum, c) => sum + c.value, 0n)
  const batchNonce =
    batch.gasStationNonce !== undefined
      ? BigInt(batch.gasStationNonce)
      : BigInt(await jsonRpc<string>(network, 'eth_getStorageAt', [account, BATCH_NONCE_SLOT, 'pending']))
  const deadline = BigInt(batch.deadline)

  const sponsorKey = batch.sponsor ? sponsorKeyOf(sponsorKeys, network.caip2) : undefined
  if (batch.sponsor && !sponsorKey) return { failed: { message: `${network.caip2} no longer has a gas sponsor configured` } }
  try {
    const payerKey = sponsorKey ?? privateKey
    const payer = (batch.sponsor ? sponsorAddressOf(sponsorKeys, network.caip2) : undefined) ?? account
    // A sponsor's outer nonce is its own, chosen by `seal` once the rest is built; the account's own transaction takes the caller's nonce.
    const nodeNonce = async () => BigInt(await jsonRpc<string>(network, 'eth_getTransactionCount', [payer, 'pending']))
    const nonce = batch.sponsor ? 0n : req.nonce !== undefined ? BigInt(req.nonce) : await nodeNonce()
    const authorization =
      delegation.kind === 'none'
        ? signAuthorization(privateKey, {
            chainId: BigInt(chainId),
            address: gasStation,
            nonce: batch.sponsor ? accountNonce : nonce + 1n,
          })
        : undefined

    const digest = batchDigest({ chainId, account, calls, nonce: batchNonce, deadline })
    const sig = signSecp256k1Digest(digest, privateKey)
    const signature = `0x${Buffer.from(sig.subarray(1, 65)).toString('hex')}${((sig[0] as number) + 27).toString(16)}` as `0x${string}`
    const data = encodeExecute(calls, deadline, signature)

    let gasLimit: bigint
    if (req.gasLimit !== undefined && !batch.sponsor) gasLimit = BigInt(req.gasLimit)
    else {
      try {
        const estimate = await jsonRpc<string>(network, 'eth_estimateGas', [
          {
            from: payer,
            to: account,
            data,
            value: '0x0',
            ...(authorization ? { authorizationList: [wireAuthorization(authorization)] } : {}),
          },
        ])
        gasLimit = (BigInt(estimate) * 12n) / 10n
      } catch (e) {
        if (!(e instanceof RpcRefusedError)) throw e
        const data = revertDataOf(e.rpcData)
        if (data !== undefined || /revert/i.test(e.rpcMessage))
          return { failed: await batchFailure(account, calls, data, 'simulation', customErrors) }
        return { failed: { message: `the node refused the batch: ${e.rpcMessage}` } }
      }
    }
    // A sponsored send's fees are the node's: the caller does not set what the sponsor pays.
    const fees = await feesOf(network, batch.sponsor ? {} : req)
    const lacking = await lacks(network, payer, gasLimit * fees.maxFeePerGas + (batch.sponsor ? 0n : total))
    if (lacking) return lacking
    const outer = { chainId, to: account, data, gasLimit, ...fees, authorization }
    if (!batch.sponsor) return signOuter(payerKey, { ...outer, nonce })
    return await seal({
      payer: payer.toLowerCase(),
      maxCostWei: gasLimit * fees.maxFeePerGas,
      nodeNonce,
      sign: (n) => signOuter(payerKey, { ...outer, nonce: n }),
    })
  } finally {
    sponsorKey?.fill(0)
  }
}

/** An authorization as JSON-RPC call objects carry it. */
function wireAuthorization(a: Authorization) {
  return { chainId: hex(a.chainId), address: a.address, nonce: hex(a.nonce), yParity: hex(BigInt(a.yParity)), r: hex(a.r), s: hex(a.s) }
}

async function lacks(network: Network, payer: string, need: bigint): Promise<Failure | undefined> {
  const balance = BigInt(await jsonRpc<string>(network, 'eth_getBalance', [payer, 'pending']))
  if (balance >= need) return undefined
  return { failed: { message: `insufficient funds: ${payer} holds ${balance} wei; the value plus the most gas can cost is ${need} wei` } }
}

/** Signs the outer transaction: type 4 when it carries an authorization, type 2 otherwise. */
function signOuter(
  key: Uint8Array,
  t: {
    chainId: number
    to: string
    data: string
    nonce: bigint
    gasLimit: bigint
    maxFeePerGas: bigint
    maxPriorityFeePerGas: bigint
    authorization: Authorization | undefined
  },
): Signed {
  const common = {
    to: t.to,
    value: 0n,
    data: t.data,
    nonce: t.nonce,
    gasLimit: t.gasLimit,
    maxFeePerGas: t.maxFeePerGas,
    maxPriorityFeePerGas: t.maxPriorityFeePerGas,
    chainId: BigInt(t.chainId),
  }
  const unsigned = t.authorization
    ? Transaction.prepare({ type: 'eip7702', ...common, accessList: [], authorizationList: [{ ...t.authorization }] }, false)
    : Transaction.prepare({ type: 'eip1559', ...common }, false)
  const signed = unsigned.signBy(key)
  return { signed: { signedTx: signed.toHex(), txHash: signed.hash, nonce: Number(t.nonce) } }
}
