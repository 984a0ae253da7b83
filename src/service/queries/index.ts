import type { QueryHandler } from '../http/dispatch.js'
import { handler as getActivity } from './get_activity.js'
import { handler as getOrganizationConfigs } from './get_organization_configs.js'
import { handler as getUser } from './get_user.js'
import { handler as listActivities } from './list_activities.js'
import { handler as listUsers } from './list_users.js'
import { handler as whoami } from './whoami.js'

/** Query name → handler: the closed table of queries this service answers. */
export const QUERY_HANDLERS: Record<string, QueryHandler> = {
  get_activity: getActivity,
  list_activities: listActivities,
  list_users: listUsers,
  get_user: getUser,
  whoami,
  get_organization_configs: getOrganizationConfigs,
}
