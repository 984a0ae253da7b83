/** delete_smart_contract_interface (hosted OpenAPI v1DeleteSmartContractInterfaceIntent). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** Deletes one of the organization's smart-contract interfaces: ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE. */
export const deleteSmartContractInterface = defineSubmit({
  name: 'delete_smart_contract_interface',
  path: '/public/v1/submit/delete_smart_contract_interface',
  type: 'ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE',
  intentKey: 'deleteSmartContractInterfaceIntent',
  resultKey: 'deleteSmartContractInterfaceResult',
  parameters: z.object({ smartContractInterfaceId: z.string().min(1, { error: 'required' }).max(128) }),
  result: z.object({ smartContractInterfaceId: z.string() }),
})
