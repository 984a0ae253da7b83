import { listSmartContractInterfaces, smartContractInterfaceToWire } from '../store/smartContractInterfaces.js'
import type { QueryHandler } from './types.js'

/** list_smart_contract_interfaces: `{organizationId}` → `{smartContractInterfaces}`, every one, oldest first (not paged, as hosted). */
export const handler: QueryHandler = async ({ sql, organizationId }) => ({
  smartContractInterfaces: (await listSmartContractInterfaces(sql, organizationId)).map(smartContractInterfaceToWire),
})
