/**
 * A send activity's status is its send's: the activity completes when the service accepts the
 * send, but the send may still be pending, fail, or be replaced. Reads get_send_transaction_status
 * for each send activity and says where it stands in words ("Pending", "Confirmed", "Failed",
 * "Replaced"), with the reason of a failure, so Activity and the pending sends agree.
 */
import type { SigilClient } from '../../../api/client'
import type { Activity } from '../../../api/common'
import { failureMessage } from '../wallet/send'

/** Where a send stands, as the popup shows it. */
export type SendState = 'pending' | 'confirmed' | 'failed' | 'replaced'

/** A send activity's send. */
export type SendView = {
  id: string
  caip2: string
  family: 'evm' | 'solana'
  /** The sending account. */
  from: string
  state: SendState
  txHash?: string
  /** Why it failed or ended, in words. */
  reason?: string
  /** It failed on chain (a reverted transaction is in History); false for sends that never reached a block. */
  onChain: boolean
}

const SEND_TYPES = /^ACTIVITY_TYPE_(ETH_SEND_TRANSACTION|SOL_SEND_TRANSACTION)(_V\d+)?$/

/** The send an activity started: its status id, network and sender; undefined for any other activity. */
export function sendOf(a: Pick<Activity, 'type' | 'intent' | 'result'>): Omit<SendView, 'state' | 'onChain'> | undefined {
  if (!SEND_TYPES.test(a.type)) return undefined
  const result = Object.values(a.result)[0]
  const intent = Object.values(a.intent)[0] ?? {}
  const id = result?.sendTransactionStatusId
  const caip2 = intent.caip2
  const from = a.type.startsWith('ACTIVITY_TYPE_SOL')
    ? Array.isArray(intent.signWiths)
      ? intent.signWiths[0]
      : intent.signWith
    : intent.from
  if (typeof id !== 'string' || typeof caip2 !== 'string' || typeof from !== 'string') return undefined
  return { id, caip2, family: caip2.startsWith('solana:') ? 'solana' : 'evm', from }
}

const WORDS: Record<SendState, string> = { pending: 'Pending', confirmed: 'Confirmed', failed: 'Failed', replaced: 'Replaced' }

/** The send's state in words. */
export const sendStateText = (s: SendState) => WORDS[s]

/** The service ends a send whose nonce a newer one of the user's took with "replaced: …" (a speed up or cancel). */
const REPLACED = /^replaced:/

/** Reads where the send stands; a read that fails leaves it pending (shown as such, read again on refresh). */
export async function readSend(client: SigilClient, organizationId: string, s: Omit<SendView, 'state' | 'onChain'>): Promise<SendView> {
  try {
    const r = await client.getSendTransactionStatus({ organizationId, sendTransactionStatusId: s.id })
    const txHash = r.eth?.txHash ?? r.solana?.signature
    const base = { ...s, ...(txHash ? { txHash } : {}) }
    if (r.txStatus === 'INCLUDED') return { ...base, state: 'confirmed', onChain: true }
    if (r.txStatus !== 'FAILED') return { ...base, state: 'pending', onChain: false }
    if (REPLACED.test(r.txError ?? ''))
      return { ...base, state: 'replaced', reason: 'Replaced by a newer transaction (sped up or cancelled).', onChain: false }
    const reason = failureMessage(r)
    return { ...base, state: 'failed', reason, onChain: /^transaction reverted/.test(r.txError ?? '') }
  } catch {
    return { ...s, state: 'pending', onChain: false }
  }
}
