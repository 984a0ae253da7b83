import type { Network } from '../../chains/networks.js'
import type { ActivityContext } from '../activityContext.js'
import { insertSend, markSigned } from '../store/sends.js'
import { queueSendStatus } from '../webhooks/events.js'

/** Who sends: the organization's signing account, or (for a transaction signed elsewhere) its sender with no account. */
export type SendSigner = { address: string; id: string }

/**
 * Records a send in the activity's transaction for the tracker to follow once the activity
 * commits: INITIALIZED (the tracker builds, signs and broadcasts it), or, given `signed`, already
 * signed (BROADCASTING). `parties` are the addresses besides the sender whose transaction history
 * lists it (`src/chains/transfers.ts`). Returns its sendTransactionStatusId.
 */
export async function recordSend(
  ctx: ActivityContext,
  network: Network,
  account: SendSigner,
  request: object,
  parties: readonly string[],
  signed?: { signedTx: string; txHash: string; nonce: number },
): Promise<string> {
  const id = crypto.randomUUID()
  await insertSend(
    ctx.tx,
    {
      id,
      organization_id: ctx.organizationId,
      activity_id: ctx.activityId,
      caip2: network.caip2,
      family: network.family,
      from_address: account.address,
      account_id: account.id,
      request: JSON.stringify(request),
      parties: [...parties],
    },
    ctx.now,
  )
  if (signed) await markSigned(ctx.tx, id, signed, ctx.now)
  // Webhooks: SEND_TRANSACTION_STATUS_UPDATES for the first status, in the activity's transaction.
  await queueSendStatus(ctx.rt, ctx.tx, ctx.organizationId, id)
  const tracker = ctx.rt.sendTracker
  ctx.tx.afterCommit(() => tracker.kick())
  return id
}
