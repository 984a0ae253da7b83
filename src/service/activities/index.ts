import type { ActivityHandler } from './types.js'
import { handler as createApiKeys } from './create_api_keys.js'
import { handler as createAuthenticators } from './create_authenticators.js'
import { handler as createSubOrganization } from './create_sub_organization.js'
import { handler as createUsers } from './create_users.js'
import { handler as deleteApiKeys } from './delete_api_keys.js'
import { handler as deleteAuthenticators } from './delete_authenticators.js'
import { handler as deleteUsers } from './delete_users.js'
import { handler as removeOrganizationFeature } from './remove_organization_feature.js'
import { handler as setOrganizationFeature } from './set_organization_feature.js'
import { handler as updateRootQuorum } from './update_root_quorum.js'

/**
 * Activity type → handler: the closed table of what this service executes. approve and
 * reject are added by the engine. A type absent here is refused with a 400 (A2).
 */
export const ACTIVITY_HANDLERS: Record<string, ActivityHandler> = {
  ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8: createSubOrganization,
  ACTIVITY_TYPE_CREATE_USERS_V3: createUsers,
  ACTIVITY_TYPE_CREATE_API_KEYS_V2: createApiKeys,
  ACTIVITY_TYPE_DELETE_API_KEYS: deleteApiKeys,
  ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2: createAuthenticators,
  ACTIVITY_TYPE_DELETE_AUTHENTICATORS: deleteAuthenticators,
  ACTIVITY_TYPE_DELETE_USERS: deleteUsers,
  ACTIVITY_TYPE_UPDATE_ROOT_QUORUM: updateRootQuorum,
  ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE: setOrganizationFeature,
  ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE: removeOrganizationFeature,
}
