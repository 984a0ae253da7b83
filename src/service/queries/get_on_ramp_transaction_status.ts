import { fieldError } from '../../api/errors.js'
import type { QueryHandler } from './types.js'
import { getTransaction } from '../store/onramp.js'

/**
 * get_on_ramp_transaction_status: `{organizationId, transactionId}` → `{transactionStatus, txHash?}`.
 *
 * @throws NOT_FOUND when transactionId names no on-ramp transaction of the organization
 */
export const handler: QueryHandler<{ transactionId: string }> = async ({ sql, organizationId }, req) => {
  const tx = await getTransaction(sql, req.transactionId, organizationId)
  if (!tx) {
    throw fieldError('NOT_FOUND', 'transactionId', 'no such on-ramp transaction in the organization')
  }
  return { transactionStatus: tx.status, ...(tx.tx_hash ? { txHash: tx.tx_hash } : {}) }
}
