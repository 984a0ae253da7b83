/**
 * list_smart_contract_interfaces (hosted OpenAPI PublicApiService_GetSmartContractInterfaces:
 * v1GetSmartContractInterfacesRequest / Response). Not paged, as the hosted request takes no
 * pagination: every interface of the organization (at most MAX_SMART_CONTRACT_INTERFACES).
 */
import { z } from 'zod'
import { OrganizationScoped, SmartContractInterface } from '../common.js'
import { defineQuery } from '../operation.js'

/** Lists the organization's smart-contract interfaces, oldest first. */
export const listSmartContractInterfaces = defineQuery({
  name: 'list_smart_contract_interfaces',
  path: '/public/v1/query/list_smart_contract_interfaces',
  request: OrganizationScoped,
  response: z.object({ smartContractInterfaces: z.array(SmartContractInterface) }),
})
