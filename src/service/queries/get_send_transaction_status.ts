import { fieldError } from '../../api/errors.js'
import type { QueryHandler } from './types.js'
import { getSend } from '../store/sends.js'

/**
 * get_send_transaction_status (service-interface.md): `txStatus` INITIALIZED, BROADCASTING,
 * INCLUDED or FAILED; `eth.txHash` or `solana.signature` once signed; `txError` and `error`
 * (revert chain or Solana details) when FAILED.
 *
 * @throws NOT_FOUND when sendTransactionStatusId names no send transaction of the organization
 */
export const handler: QueryHandler<{ sendTransactionStatusId: string }> = async ({ sql, organizationId }, req) => {
  const send = await getSend(sql, organizationId, req.sendTransactionStatusId)
  if (!send) throw fieldError('NOT_FOUND', 'sendTransactionStatusId', 'no send transaction with this id in the organization')
  const error = send.error ? (JSON.parse(send.error) as { message?: string }) : undefined
  return {
    txStatus: send.status,
    ...(send.tx_hash ? (send.family === 'evm' ? { eth: { txHash: send.tx_hash } } : { solana: { signature: send.tx_hash } }) : {}),
    ...(error ? { txError: error.message ?? 'failed', error } : {}),
  }
}
