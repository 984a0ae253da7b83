import type { z } from 'zod'
import { invalidField } from '../../api/errors.js'
import type { createAuthenticators, createAuthenticatorsV1 } from '../../api/operations/create_authenticators.js'
import { registerAuthenticator } from './shared/credentials.js'
import { requireUser } from './shared/lookup.js'
import { fromLegacyAuthenticator, withLegacyAuthenticatorFields } from './shared/legacyAuthenticators.js'
import type { ActivityHandler } from './types.js'

/**
 * create_authenticators V2: each WebAuthn attestation verified before it is stored.
 *
 * @throws NOT_FOUND when parameters.userId names no user of the organization
 * @throws INVALID_ARGUMENT when an attestation's clientDataJson is not base64url JSON or names an origin that is not allowed, or the attestation does not verify or its key is not a valid P-256 point
 * @throws ALREADY_EXISTS when an authenticator's credential id is already registered, in any organization
 */
export const handler: ActivityHandler<z.infer<typeof createAuthenticators.parameters>> = async (ctx, p) => {
  await requireUser(ctx.tx, ctx.organizationId, p.userId, 'parameters.userId')
  const authenticatorIds: string[] = []
  for (const [i, a] of p.authenticators.entries()) {
    authenticatorIds.push(await registerAuthenticator(ctx, ctx.organizationId, p.userId, a, `parameters.authenticators[${i}]`))
  }
  return { authenticatorIds }
}

/**
 * create_authenticators V1: authenticators in the legacy form, each naming the same user as
 * parameters.userId, verified as V2's are.
 *
 * @throws INVALID_ARGUMENT when an authenticator's userId is not parameters.userId, its attestation type is not public-key or its rawId differs from its id, or as V2
 */
export const handlerV1: ActivityHandler<z.infer<typeof createAuthenticatorsV1.parameters>> = async (ctx, p) => {
  const authenticators = p.authenticators.map((a, i) => {
    const field = `parameters.authenticators[${i}]`
    if (a.userId !== p.userId) throw invalidField(`${field}.userId`, 'must be parameters.userId')
    return fromLegacyAuthenticator(a, field)
  })
  return withLegacyAuthenticatorFields(() => handler(ctx, { userId: p.userId, authenticators }))
}
