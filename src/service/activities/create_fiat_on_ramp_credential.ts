import type { z } from 'zod'
import { SigilError } from '../../api/errors.js'
import type { createFiatOnRampCredential } from '../../api/operations/create_fiat_on_ramp_credential.js'
import { decryptOnRampSecret } from '../onramp/secrets.js'
import { credentialClash, insertCredential } from '../store/onramp.js'
import type { ActivityHandler } from './types.js'

/**
 * create_fiat_on_ramp_credential (service-interface.md submit 11): one credential per
 * (organization, provider, sandboxMode); secrets are decrypted in memory and sealed at rest.
 */
export const handler: ActivityHandler<z.infer<typeof createFiatOnRampCredential.parameters>> = async (ctx, p) => {
  const sandboxMode = p.sandboxMode ?? false
  if (await credentialClash(ctx.tx, ctx.organizationId, p.onrampProvider, sandboxMode)) {
    const description = `the organization already has a credential for this provider with sandboxMode ${sandboxMode}`
    throw new SigilError('ALREADY_EXISTS', `parameters.onrampProvider: ${description}`, {
      fieldViolations: [{ field: 'parameters.onrampProvider', description }],
    })
  }
  const key = ctx.rt.keys.onramp.privateKey
  const secretApiKey = await decryptOnRampSecret(p.encryptedSecretApiKey, key, 'parameters.encryptedSecretApiKey')
  const privateApiKey = p.encryptedPrivateApiKey
    ? await decryptOnRampSecret(p.encryptedPrivateApiKey, key, 'parameters.encryptedPrivateApiKey')
    : undefined
  const id = crypto.randomUUID()
  try {
    await insertCredential(ctx.tx, ctx.rt.secrets, {
      id,
      orgId: ctx.organizationId,
      provider: p.onrampProvider,
      sandboxMode,
      projectId: p.projectId || undefined,
      publishableApiKey: p.publishableApiKey,
      secretApiKey,
      privateApiKey,
      now: ctx.now,
    })
  } finally {
    secretApiKey.fill(0)
    privateApiKey?.fill(0)
  }
  return { fiatOnRampCredentialId: id }
}
