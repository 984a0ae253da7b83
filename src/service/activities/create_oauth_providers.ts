import type { z } from 'zod'
import type { createOauthProviders, createOauthProvidersV1 } from '../../api/operations/create_oauth_providers.js'
import { insertOauthProvider } from '../store/users.js'
import { requireUser } from './shared/lookup.js'
import { oauthIdentity } from './shared/users.js'
import type { ActivityContext } from '../activityContext.js'
import type { ActivityHandler } from './types.js'

async function create(ctx: ActivityContext, p: z.infer<typeof createOauthProviders.parameters>) {
  await requireUser(ctx.tx, ctx.organizationId, p.userId, 'parameters.userId')
  const providerIds: string[] = []
  for (const [i, o] of p.oauthProviders.entries()) {
    const id = await oauthIdentity(ctx, o, `parameters.oauthProviders[${i}]`, { requireToken: true })
    const providerId = crypto.randomUUID()
    await insertOauthProvider(ctx.tx, {
      id: providerId,
      orgId: ctx.organizationId,
      userId: p.userId,
      providerName: o.providerName,
      issuer: id.iss,
      audience: id.aud,
      subject: id.sub,
      verified: id.verified,
      now: ctx.now,
    })
    providerIds.push(providerId)
  }
  return { providerIds }
}

/**
 * create_oauth_providers V2: adds OAuth providers to a user, each by an OIDC token (verified: trusted
 * issuer, accepted audience, unexpired); all or none; `{providerIds}` in order.
 *
 * An identity is added only with a verified ID token of it: `oidcClaims` alone (the hosted
 * shape allows them) are refused, naming `parameters.oauthProviders[i].oidcToken`, since anyone who
 * knows a person's issuer, audience and subject could otherwise attach that identity to an older
 * account of his and receive that person's OAuth logins. Claims beside a token must name its identity.
 *
 * @throws NOT_FOUND when parameters.userId names no user of the organization
 * @throws TOKEN_INVALID when an oidcToken of parameters.oauthProviders does not verify
 * @throws INVALID_ARGUMENT when a provider has no oidcToken (claims alone are refused), or its oidcClaims name another identity than its token
 * @throws UNAVAILABLE when an issuer's signing keys cannot be fetched
 */
export const handlerV2: ActivityHandler<z.infer<typeof createOauthProviders.parameters>> = create

/**
 * create_oauth_providers V1: as V2, providers by OIDC token only.
 *
 * @throws NOT_FOUND when parameters.userId names no user of the organization
 * @throws TOKEN_INVALID when an oidcToken of parameters.oauthProviders does not verify
 * @throws UNAVAILABLE when an issuer's signing keys cannot be fetched
 */
export const handler: ActivityHandler<z.infer<typeof createOauthProvidersV1.parameters>> = create
