import type { z } from 'zod'
import type { createSubOrganization } from '../../api/operations/create_sub_organization.js'
import { invalidField } from '../../api/errors.js'
import { insertOrganization, setFeature, setQuorum } from '../store/organizations.js'
import { createUser } from './shared/users.js'
import type { ActivityHandler } from './types.js'
import { createWalletIn } from './shared/wallets.js'
import { checkSignupToken } from './shared/signupToken.js'

type Params = z.infer<typeof createSubOrganization.parameters>

/** The `disable*` flags become organization features (service-interface §3). */
const DISABLE_FLAGS = [
  ['disableEmailRecovery', 'FEATURE_NAME_EMAIL_RECOVERY'],
  ['disableEmailAuth', 'FEATURE_NAME_EMAIL_AUTH'],
  ['disableSmsAuth', 'FEATURE_NAME_SMS_AUTH'],
  ['disableOtpEmailAuth', 'FEATURE_NAME_OTP_EMAIL_AUTH'],
] as const

/**
 * create_sub_organization V8 (service-interface §3).
 *
 * @throws INVALID_ARGUMENT when parameters.rootUsers is empty or fewer than parameters.rootQuorumThreshold, parameters.clientSignature is given without a verificationToken or does not sign the sign-up message with the token's key, a root user's fields or credentials are invalid, or an account of parameters.wallet has an invalid curve, path or addressFormat
 * @throws TOKEN_INVALID when parameters.verificationToken is not an unexpired token of this service issued in this organization or an ancestor for the first root user's email or phone, or is not bound to a public key while a clientSignature is given
 * @throws ALREADY_EXISTS when a root user's passkey is already registered, or parameters.wallet.accounts repeats an account (curve, path and address format)
 */
export const handler: ActivityHandler<Params> = async (ctx, p) => {
  if (p.rootUsers.length === 0) throw invalidField('parameters.rootUsers', 'at least one root user is required')
  if (p.rootQuorumThreshold > p.rootUsers.length) {
    throw invalidField('parameters.rootQuorumThreshold', `must not exceed the number of root users (${p.rootUsers.length})`)
  }
  if (p.verificationToken) await checkSignupToken(ctx, p.verificationToken, p.rootUsers[0], p.clientSignature)
  else if (p.clientSignature) throw invalidField('parameters.clientSignature', 'needs a verificationToken')
  const orgId = crypto.randomUUID()
  await insertOrganization(ctx.tx, {
    id: orgId,
    name: p.subOrganizationName,
    parentId: ctx.organizationId,
    quorumThreshold: p.rootQuorumThreshold,
    now: ctx.now,
  })
  const rootUserIds: string[] = []
  for (const [i, u] of p.rootUsers.entries()) {
    rootUserIds.push(await createUser(ctx, orgId, { ...u, userTags: [] }, `parameters.rootUsers[${i}]`))
  }
  await setQuorum(ctx.tx, orgId, p.rootQuorumThreshold, rootUserIds, ctx.now)
  for (const [flag, feature] of DISABLE_FLAGS) {
    if (p[flag]) await setFeature(ctx.tx, orgId, feature, 'disabled')
  }
  if (!p.wallet) return { subOrganizationId: orgId, rootUserIds }
  const wallet = await createWalletIn(ctx, orgId, p.wallet, 'parameters.wallet')
  return { subOrganizationId: orgId, wallet, rootUserIds }
}
