import { getContractAddress } from 'viem'
import { fieldError } from '../../api/errors.js'
import type { EvmSendRequest } from '../sends/evm.js'
import type { QueryHandler } from './types.js'
import { getSend, type SendRow } from '../store/sends.js'

/**
 * get_send_transaction_status (service-interface.md): `txStatus` INITIALIZED, BROADCASTING,
 * INCLUDED or FAILED; `eth.txHash` or `solana.signature` once signed; `eth.contractAddress` of a
 * contract creation once included (the CREATE address of the sender at the signed nonce, which is
 * the receipt's); `txError` and `error` (revert chain or Solana details) when FAILED — for a Gas
 * Station batch, naming the failing call ("call 2 of 3 reverted: …") with its revert decoded; a
 * send a newer one of the same sender at its nonce replaced (speed up, cancel) reads "replaced: …".
 *
 * @throws NOT_FOUND when sendTransactionStatusId names no send transaction of the organization
 */
export const handler: QueryHandler<{ sendTransactionStatusId: string }> = async ({ sql, organizationId }, req) => {
  const send = await getSend(sql, organizationId, req.sendTransactionStatusId)
  if (!send) throw fieldError('NOT_FOUND', 'sendTransactionStatusId', 'no send transaction with this id in the organization')
  const error = send.error ? (JSON.parse(send.error) as { message?: string }) : undefined
  const created = contractCreated(send)
  return {
    txStatus: send.status,
    ...(send.tx_hash
      ? send.family === 'evm'
        ? { eth: { txHash: send.tx_hash, ...(created ? { contractAddress: created } : {}) } }
        : { solana: { signature: send.tx_hash } }
      : {}),
    ...(error ? { txError: error.message ?? 'failed' } : {}),
    ...(error ? { error } : {}),
  }
}

/** The address of the contract an included creation send deployed. */
function contractCreated(send: SendRow): string | undefined {
  if (send.family !== 'evm' || send.status !== 'INCLUDED' || send.nonce === null) return undefined
  const req = JSON.parse(send.request) as EvmSendRequest
  if (req.to !== undefined || req.batch || req.undelegate || !req.data) return undefined
  return getContractAddress({ from: send.from_address as `0x${string}`, nonce: BigInt(send.nonce) }).toLowerCase()
}
