import { fieldError } from '../../api/errors.js'
import { getSmartContractInterface, smartContractInterfaceToWire } from '../store/smartContractInterfaces.js'
import type { QueryHandler } from './types.js'

/**
 * get_smart_contract_interface: `{organizationId, smartContractInterfaceId}` → `{smartContractInterface}`.
 *
 * @throws NOT_FOUND when smartContractInterfaceId names no smart contract interface of the organization
 */
export const handler: QueryHandler<{ smartContractInterfaceId: string }> = async ({ sql, organizationId }, req) => {
  const row = await getSmartContractInterface(sql, organizationId, req.smartContractInterfaceId)
  if (!row) throw fieldError('NOT_FOUND', 'smartContractInterfaceId', 'no such smart contract interface in the organization')
  return { smartContractInterface: smartContractInterfaceToWire(row) }
}
