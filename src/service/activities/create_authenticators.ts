import type { z } from 'zod'
import type { createAuthenticators } from '../../api/operations/create_authenticators.js'
import { registerAuthenticator } from './shared/credentials.js'
import { requireUser } from './shared/lookup.js'
import type { ActivityHandler } from './types.js'

/** create_authenticators V2: each WebAuthn attestation verified before it is stored. */
export const handler: ActivityHandler<z.infer<typeof createAuthenticators.parameters>> = async (ctx, p) => {
  await requireUser(ctx.tx, ctx.organizationId, p.userId, 'parameters.userId')
  const authenticatorIds: string[] = []
  for (const [i, a] of p.authenticators.entries()) {
    authenticatorIds.push(await registerAuthenticator(ctx, ctx.organizationId, p.userId, a, `parameters.authenticators[${i}]`))
  }
  return { authenticatorIds }
}
