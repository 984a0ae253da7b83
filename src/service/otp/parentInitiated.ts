import { SigilError } from '../../api/errors.js'
import { getOrganization } from '../store/organizations.js'
import type { ActivityContext } from '../activityContext.js'

/**
 * OTP, email-auth and email-recovery flows of a sub-organization are started by its parent (hosted
 * rules): refused when the submitter's own organization is the activity's organization
 * and that organization has a parent. The root organization starts them for itself, a parent (or
 * any ancestor) for its sub-organizations.
 *
 * @throws PERMISSION_DENIED when a sub-organization's own credential submits the activity for itself
 */
export async function requireParentInitiated(ctx: ActivityContext, what: string): Promise<void> {
  if (ctx.submitter.organizationId !== ctx.organizationId) return
  const org = await getOrganization(ctx.tx, ctx.organizationId)
  if (org?.parent_id) {
    throw new SigilError(
      'PERMISSION_DENIED',
      `${what} of a sub-organization is started by its parent organization, not by the sub-organization`,
    )
  }
}
