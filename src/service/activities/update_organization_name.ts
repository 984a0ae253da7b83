import type { z } from 'zod'
import { invalidField } from '../../api/errors.js'
import type { updateOrganizationName } from '../../api/operations/update_organization_name.js'
import { setOrganizationName } from '../store/organizations.js'
import type { ActivityHandler } from './types.js'

/**
 * update_organization_name: renames the organization (a root quorum activity: policies never allow
 * it to other users); `{organizationId, organizationName}`.
 *
 * @throws INVALID_ARGUMENT when parameters.organizationName is blank
 */
export const handler: ActivityHandler<z.infer<typeof updateOrganizationName.parameters>> = async (ctx, p) => {
  const name = p.organizationName.trim()
  if (name === '') throw invalidField('parameters.organizationName', 'must not be blank')
  await setOrganizationName(ctx.tx, ctx.organizationId, name, ctx.now)
  return { organizationId: ctx.organizationId, organizationName: name }
}
