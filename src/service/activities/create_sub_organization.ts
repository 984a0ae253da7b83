import type { z } from 'zod'
import { withP256 } from '../../api/common.js'
import type {
  createSubOrganization,
  createSubOrganizationV1,
  createSubOrganizationV2,
  createSubOrganizationV3,
  createSubOrganizationV4,
  createSubOrganizationV5,
  createSubOrganizationV6,
  createSubOrganizationV7,
} from '../../api/operations/create_sub_organization.js'
import { invalidField } from '../../api/errors.js'
import { generateKeyPair } from '../../chains/keys.js'
import type { Curve } from '../../chains/types.js'
import { renamed } from '../fieldNames.js'
import { storePrivateKey } from './shared/privateKeys.js'
import { insertOrganization, insertQuorumMembers, setFeature } from '../store/organizations.js'
import { deferring } from '../store/transactions.js'
import { createUser } from './shared/users.js'
import type { ActivityHandler } from './types.js'
import { createWalletIn } from './shared/wallets.js'
import { checkSignupToken } from './shared/signupToken.js'

type Params = z.infer<typeof createSubOrganization.parameters>
type ParamsOf<D extends { parameters: z.ZodType }> = z.infer<D['parameters']>

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
 * @throws INVALID_ARGUMENT when parameters.rootUsers is empty or fewer than parameters.rootQuorumThreshold, parameters.clientSignature is given without a verificationToken, is missing with one, or does not sign the sign-up message of exactly these credentials with the token's key, a signed sign-up has more than one root user, a root user's fields or credentials are invalid, or an account of parameters.wallet has an invalid curve, path or addressFormat
 * @throws TOKEN_INVALID when parameters.verificationToken is not an unexpired token of this service issued in this organization or an ancestor for the root user's email or phone, or is not bound to a public key
 * @throws ALREADY_EXISTS when a root user's passkey is already registered, or parameters.wallet.accounts repeats an account (curve, path and address format)
 */
export const handler = async (ctx: Parameters<ActivityHandler<Params>>[0], p: Params) => {
  if (p.rootUsers.length === 0) throw invalidField('parameters.rootUsers', 'at least one root user is required')
  if (p.rootQuorumThreshold > p.rootUsers.length) {
    throw invalidField('parameters.rootQuorumThreshold', `must not exceed the number of root users (${p.rootUsers.length})`)
  }
  if (p.verificationToken) await checkSignupToken(ctx, p.verificationToken, p, p.clientSignature)
  else if (p.clientSignature) throw invalidField('parameters.clientSignature', 'needs a verificationToken')
  const orgId = crypto.randomUUID()
  // The new organization's rows only insert: held back and sent with the activity's record, one
  // statement for a whole sign-up (Transaction.defer).
  const inserts = deferring(ctx.tx)
  await insertOrganization(inserts, {
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
  await insertQuorumMembers(inserts, orgId, rootUserIds)
  for (const [flag, feature] of DISABLE_FLAGS) {
    if (p[flag]) await setFeature(inserts, orgId, feature, 'disabled')
  }
  if (!p.wallet) return { subOrganizationId: orgId, rootUserIds }
  const wallet = await createWalletIn(ctx, orgId, p.wallet, 'parameters.wallet')
  return { subOrganizationId: orgId, wallet, rootUserIds }
}

/** Root users of V1 to V2 intents: API keys without `curveType` are P-256; no OAuth providers unless given. */
function rootUsersOf<U extends { apiKeys: Array<{ apiKeyName: string; publicKey: string; expirationSeconds?: string | undefined }> }>(
  users: U[],
): Array<Omit<U, 'apiKeys'> & { apiKeys: ReturnType<typeof withP256>[] }> {
  return users.map((u) => ({ ...u, apiKeys: u.apiKeys.map(withP256) }))
}

/** V1 to V4 (no OAuth providers in their root users). */
const noOauth = <U>(users: U[]) => users.map((u) => ({ ...u, oauthProviders: [] }))

/** The V1 intent's names in errors: `name` and `rootAuthenticator` rather than V8's fields. */
function v1Field(field: string): string {
  if (field === 'parameters.subOrganizationName') return 'parameters.name'
  return field.replace(/^parameters\.rootUsers\[0\]\.authenticators\[0\]/, 'parameters.rootAuthenticator')
}

/**
 * create_sub_organization V1: one root user (named "Root user") with the passkey of
 * `rootAuthenticator`, threshold 1; `{subOrganizationId, rootUserIds}`.
 */
export const handlerV1: ActivityHandler<ParamsOf<typeof createSubOrganizationV1>> = async (ctx, p) => {
  try {
    const r = await handler(ctx, {
      subOrganizationName: p.name,
      rootUsers: [{ userName: 'Root user', apiKeys: [], authenticators: [p.rootAuthenticator], oauthProviders: [] }],
      rootQuorumThreshold: 1,
    })
    return { subOrganizationId: r.subOrganizationId, rootUserIds: r.rootUserIds }
  } catch (e) {
    throw renamed(e, v1Field)
  }
}

/** create_sub_organization V2: root users V1 (P-256 API keys), no wallet; `{subOrganizationId, rootUserIds}`. */
export const handlerV2: ActivityHandler<ParamsOf<typeof createSubOrganizationV2>> = async (ctx, p) => {
  const r = await handler(ctx, { ...p, rootUsers: noOauth(rootUsersOf(p.rootUsers)) })
  return { subOrganizationId: r.subOrganizationId, rootUserIds: r.rootUserIds }
}

/**
 * create_sub_organization V3: as V2, then each of `privateKeys` generated in the new
 * sub-organization; `{subOrganizationId, privateKeys: [{privateKeyId, addresses}], rootUserIds}`.
 */
export const handlerV3: ActivityHandler<ParamsOf<typeof createSubOrganizationV3>> = async (ctx, p) => {
  const { privateKeys, ...rest } = p
  const r = await handler(ctx, { ...rest, rootUsers: noOauth(rootUsersOf(rest.rootUsers)) })
  const inSub = { ...ctx, organizationId: r.subOrganizationId }
  const keys = []
  for (const [i, k] of privateKeys.entries()) {
    keys.push(await storePrivateKey(inSub, k, generateKeyPair(k.curve as Curve), `parameters.privateKeys[${i}]`, { imported: false }))
  }
  return { subOrganizationId: r.subOrganizationId, privateKeys: keys, rootUserIds: r.rootUserIds }
}

/** create_sub_organization V4: root users V1 (P-256 API keys), a wallet, two `disable*` flags. */
export const handlerV4: ActivityHandler<ParamsOf<typeof createSubOrganizationV4>> = (ctx, p) =>
  handler(ctx, { ...p, rootUsers: noOauth(rootUsersOf(p.rootUsers)) })

/** create_sub_organization V5: V4 with OAuth providers (by token) in root users. */
export const handlerV5: ActivityHandler<ParamsOf<typeof createSubOrganizationV5>> = (ctx, p) =>
  handler(ctx, { ...p, rootUsers: rootUsersOf(p.rootUsers) })

/** create_sub_organization V6: V5 with API keys that name their curve. */
export const handlerV6: ActivityHandler<ParamsOf<typeof createSubOrganizationV6>> = (ctx, p) => handler(ctx, p)

/** create_sub_organization V7: V8 but OAuth providers by token only. */
export const handlerV7: ActivityHandler<ParamsOf<typeof createSubOrganizationV7>> = (ctx, p) => handler(ctx, p)
