import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import { evmParties } from '../../chains/transfers.js'
import type { ethSendTransaction, ethSendTransactionV1 } from '../../api/operations/eth_send_transaction.js'
import { requireNetwork } from '../chains/assets.js'
import type { BatchRequest, EvmSendRequest } from '../sends/evm.js'
import { recordSend } from '../sends/record.js'
import { sponsorKeyOf } from '../chains/sponsor.js'
import { admitSponsoredSend } from '../sponsorship/limits.js'
import { requireAccount } from '../signing/walletLookup.js'
import { enforceVelocity, evmMovements } from '../velocity/enforce.js'
import type { ActivityHandler } from './types.js'

type Params = z.infer<typeof ethSendTransaction.parameters> | z.infer<typeof ethSendTransactionV1.parameters>

/** How long a batch signature stays valid when the caller names no deadline, and the most it may. */
const DEFAULT_DEADLINE_S = 10 * 60
const MAX_DEADLINE_S = 24 * 60 * 60

const uint = (s: string | undefined) => s !== undefined && /^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(s)

/**
 * eth_send_transaction (V1 with one inline call, V2 with `calls`): records the send in the
 * activity's transaction; the tracker fills nonce, gas and fees from the node, signs with `from`,
 * broadcasts and follows it (get_send_transaction_status). One unsponsored call is an EIP-1559
 * transaction (without `to`: a contract creation). Several calls, or `sponsor: true`, are one
 * atomic batch through the network's Gas Station, signed by `from` before `deadline` (default
 * 10 minutes ahead, at most 24 hours) at the batch nonce `gasStationNonce` (read from the account
 * when absent); a sponsored batch is paid by the network's sponsor within the organization's gas
 * budget: admitted here while the window's usage is below the limit, it holds the most it can cost
 * once built, so the sponsor never pays past the limit. Nothing is recorded when a check fails.
 *
 * @throws INVALID_ARGUMENT when parameters.caip2 is not a configured EVM network, a call of a batch or a sponsored send has no `to` (parameters.calls[i].to), a creation has no code (parameters.calls[0].data), parameters.deadline is not a time within the next 24 hours, parameters.gasStationNonce is not an unsigned integer, parameters.maxPriorityFeePerGas exceeds parameters.maxFeePerGas, or parameters.from is not an Ethereum account
 * @throws FAILED_PRECONDITION when a batch or sponsored send is asked on a network without a Gas Station (parameters.caip2) or a sponsored one on a network without a gas sponsor (parameters.sponsor), or sponsorship is not enabled for the organization
 * @throws RESOURCE_EXHAUSTED when a sponsored send finds the organization's gas budget for the window used up (parameters.sponsor). Past admission, the tracker reserves the most the built transaction can cost (gas limit × max fee per gas) before it is signed and stored; when that does not fit the window's budget the send FAILS unbroadcast, its status error naming the limit, the usage and the window
 * @throws NOT_FOUND when parameters.from names no wallet account of the organization
 * @throws VELOCITY_LIMIT_EXCEEDED when a velocity control of the organization would be exceeded by what the calls move (src/service/velocity/enforce.ts)
 */
export const handler: ActivityHandler<Params> = async (ctx, p) => {
  const network = requireNetwork(ctx.rt.config.networks, p.caip2, 'parameters.caip2')
  if (network.family !== 'evm') throw fieldError('INVALID_ARGUMENT', 'parameters.caip2', `${network.caip2} is not an EVM network`)
  const v2 = 'calls' in p
  const calls: Array<{ to?: string | undefined; value?: string | undefined; data?: string | undefined }> = v2
    ? p.calls
    : [{ to: p.to, ...(p.value !== undefined ? { value: p.value } : {}), ...(p.data !== undefined ? { data: p.data } : {}) }]
  const field = (i: number, name: string) => (v2 ? `parameters.calls[${i}].${name}` : `parameters.${name}`)
  const sponsor = p.sponsor === true
  const batched = sponsor || calls.length > 1
  if (p.maxFeePerGas !== undefined && p.maxPriorityFeePerGas !== undefined && BigInt(p.maxPriorityFeePerGas) > BigInt(p.maxFeePerGas)) {
    throw fieldError('INVALID_ARGUMENT', 'parameters.maxPriorityFeePerGas', 'must not exceed maxFeePerGas')
  }
  calls.forEach((c, i) => {
    if (c.to !== undefined) return
    if (batched)
      throw fieldError(
        'INVALID_ARGUMENT',
        field(i, 'to'),
        'required: a contract deployment (a call without to) must be the only call of an unsponsored send',
      )
    if (!c.data || c.data === '0x')
      throw fieldError('INVALID_ARGUMENT', field(i, 'data'), "a contract deployment needs the contract's creation code")
  })

  let batch: BatchRequest | undefined
  if (batched) {
    if (!network.gasStation)
      throw fieldError(
        'FAILED_PRECONDITION',
        'parameters.caip2',
        `no Gas Station is configured on ${network.caip2}: ${sponsor ? 'sponsored sends' : 'batches of several calls'} need one`,
      )
    if (sponsor && !sponsorKeyOf(ctx.rt.config.gasSponsorKeys, network.caip2))
      throw fieldError(
        'FAILED_PRECONDITION',
        'parameters.sponsor',
        `${network.caip2} has no gas sponsor configured; send with sponsor false`,
      )
    const nowS = Math.floor(ctx.now / 1000)
    let deadline = nowS + DEFAULT_DEADLINE_S
    if (p.deadline !== undefined) {
      if (!/^[0-9]{1,20}$/.test(p.deadline))
        throw fieldError('INVALID_ARGUMENT', 'parameters.deadline', 'expected unix seconds (decimal digits)')
      deadline = Number(p.deadline)
      if (deadline <= nowS)
        throw fieldError('INVALID_ARGUMENT', 'parameters.deadline', `${p.deadline} has passed (now ${nowS}, unix seconds)`)
      if (deadline > nowS + MAX_DEADLINE_S)
        throw fieldError(
          'INVALID_ARGUMENT',
          'parameters.deadline',
          `must be at most 24 hours ahead (before ${nowS + MAX_DEADLINE_S}, unix seconds)`,
        )
    }
    if (p.gasStationNonce !== undefined && !uint(p.gasStationNonce))
      throw fieldError('INVALID_ARGUMENT', 'parameters.gasStationNonce', 'expected an unsigned integer (decimal or 0x-hex) below 2^256')
    batch = {
      calls: calls.map((c) => ({ to: (c.to as string).toLowerCase(), value: BigInt(c.value ?? '0').toString(), data: c.data ?? '0x' })),
      sponsor,
      deadline: String(deadline),
      ...(p.gasStationNonce !== undefined ? { gasStationNonce: BigInt(p.gasStationNonce).toString() } : {}),
      gasStation: network.gasStation,
    }
  }

  const account = await requireAccount(ctx.tx, ctx.organizationId, p.from, 'parameters.from')
  if (account.address_format !== 'ADDRESS_FORMAT_ETHEREUM') {
    throw fieldError('INVALID_ARGUMENT', 'parameters.from', `a ${account.address_format} account cannot send on ${network.caip2}`)
  }
  await enforceVelocity(ctx, { movements: evmMovements(network.caip2, account.address, calls), walletKey: account.wallet_id })
  const [call] = calls
  const request: EvmSendRequest = {
    ...(batch
      ? { batch }
      : {
          ...(call?.to !== undefined ? { to: call.to } : {}),
          ...(call?.value !== undefined ? { value: BigInt(call.value).toString() } : {}),
          ...(call?.data !== undefined ? { data: call.data } : {}),
        }),
    ...(p.nonce !== undefined ? { nonce: BigInt(p.nonce).toString() } : {}),
    ...(p.gasLimit !== undefined ? { gasLimit: BigInt(p.gasLimit).toString() } : {}),
    ...(p.maxFeePerGas !== undefined ? { maxFeePerGas: BigInt(p.maxFeePerGas).toString() } : {}),
    ...(p.maxPriorityFeePerGas !== undefined ? { maxPriorityFeePerGas: BigInt(p.maxPriorityFeePerGas).toString() } : {}),
  }
  // The history of every address a call pays or calls lists the send.
  const parties = [...new Set(calls.flatMap((c) => evmParties(c.to, c.data)))]
  const id = await recordSend(ctx, network, account, request, parties)
  if (sponsor) await admitSponsoredSend(ctx, network, id)
  return { sendTransactionStatusId: id }
}
