import type { Network } from '../../chains/networks.js'
import type { ActivityContext } from '../activities/types.js'
import { insertSend } from '../store/sends.js'
import type { WalletAccountRow } from '../store/wallets.js'
import { kickSendTracker } from './tracker.js'

/**
 * Records a send in the activity's transaction (INITIALIZED) for the tracker to build, sign and
 * broadcast once the activity commits; returns its sendTransactionStatusId.
 */
export async function recordSend(ctx: ActivityContext, network: Network, account: WalletAccountRow, request: object): Promise<string> {
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
    },
    ctx.now,
  )
  kickSendTracker(ctx.rt)
  return id
}
