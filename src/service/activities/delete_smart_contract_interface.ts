import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { deleteSmartContractInterface } from '../../api/operations/delete_smart_contract_interface.js'
import { deleteSmartContractInterface as deleteRow } from '../store/smartContractInterfaces.js'
import type { ActivityHandler } from './types.js'

/**
 * delete_smart_contract_interface (hosted OpenAPI v1DeleteSmartContractInterfaceIntent): removes one
 * of the organization's interfaces; reverts are no longer decoded with it.
 *
 * @throws NOT_FOUND when parameters.smartContractInterfaceId names no smart contract interface of the organization
 */
export const handler: ActivityHandler<z.infer<typeof deleteSmartContractInterface.parameters>> = async (ctx, p) => {
  if (!(await deleteRow(ctx.tx, ctx.organizationId, p.smartContractInterfaceId))) {
    throw fieldError('NOT_FOUND', 'parameters.smartContractInterfaceId', 'no such smart contract interface in the organization')
  }
  return { smartContractInterfaceId: p.smartContractInterfaceId }
}
