/**
 * What a Gas Station batch's revert says, in the send's `error`: the failing call by its position
 * ("call 2 of 3 reverted: …", with that call's revert decoded as a single send's would be), an
 * expired deadline, or a signature the contract refused (wrong account or stale batch nonce).
 */
import { decodeBatchRevert } from '../../chains/gasStation/batch.js'
import { type CustomErrorAbis, type EthTxError, describeRevert } from './revert.js'

export async function batchFailure(
  account: string,
  calls: ReadonlyArray<{ to: string }>,
  data: string | undefined,
  when: 'simulation' | 'execution',
  customErrors: CustomErrorAbis | undefined,
): Promise<EthTxError | { message: string }> {
  const decoded = decodeBatchRevert(data)
  if (decoded && 'index' in decoded) {
    const call = calls[decoded.index]
    const inner = await describeRevert(call?.to, decoded.reason === '0x' ? undefined : decoded.reason, when, customErrors)
    const [entry] = inner.revertChain
    const reason = entry?.displayMessage ?? 'execution reverted'
    return {
      message: `call ${decoded.index + 1} of ${calls.length} ${when === 'simulation' ? 'would revert' : 'reverted'}: ${reason}`,
      revertChain: inner.revertChain,
      eth: { revertChain: inner.revertChain },
    }
  }
  if (decoded && 'expired' in decoded)
    return { message: `the batch's deadline (${decoded.expired}, unix seconds) passed before it was executed; send it again` }
  if (decoded && 'badSignature' in decoded)
    return {
      message: `the Gas Station refused the batch signature of ${account}: the batch nonce (gasStationNonce) is not the account's current one`,
    }
  return describeRevert(account, data, when, customErrors)
}
