/** get_smart_contract_interface (hosted OpenAPI v1GetSmartContractInterfaceRequest / Response). */
import { z } from 'zod'
import { OrganizationScoped, SmartContractInterface } from '../common.js'
import { defineQuery } from '../operation.js'

/** Reads one smart-contract interface of the organization. */
export const getSmartContractInterface = defineQuery({
  name: 'get_smart_contract_interface',
  path: '/public/v1/query/get_smart_contract_interface',
  request: OrganizationScoped.extend({ smartContractInterfaceId: z.string().min(1, { error: 'required' }) }),
  response: z.object({ smartContractInterface: SmartContractInterface }),
})
