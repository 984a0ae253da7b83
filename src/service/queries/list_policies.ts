import { listPolicies, policyToWire } from '../store/policies.js'
import type { QueryHandler } from './types.js'

/** list_policies (the official client's getPolicies): `{organizationId}` → `{policies}`, oldest first, not paged (as hosted). */
export const handler: QueryHandler = async ({ sql, organizationId }) => ({
  policies: (await listPolicies(sql, organizationId)).map(policyToWire),
})
