import type { z } from 'zod'
import { SigilError } from '../../api/errors.js'
import type { updateFiatOnRampCredential } from '../../api/operations/update_fiat_on_ramp_credential.js'
import { decryptOnRampSecret } from '../onramp/secrets.js'
import { credentialClash, getCredential, updateCredential } from '../store/onramp.js'
import type { ActivityHandler } from './types.js'

/**
 * update_fiat_on_ramp_credential (service-interface.md submit 12; `fiatOnrampCredentialId`):
 * replaces provider, keys and secrets of one credential; its sandboxMode is kept.
 */
export const handler: ActivityHandler<z.infer<typeof updateFiatOnRampCredential.parameters>> = async (ctx, p) => {
  const row = await getCredential(ctx.tx, ctx.organizationId, p.fiatOnrampCredentialId)
  if (!row) {
    const field = 'parameters.fiatOnrampCredentialId'
    throw new SigilError('NOT_FOUND', `${field}: no such on-ramp credential in the organization`, {
      fieldViolations: [{ field, description: 'no such on-ramp credential in the organization' }],
    })
  }
  if (await credentialClash(ctx.tx, ctx.organizationId, p.onrampProvider, row.sandbox_mode, row.id)) {
    const description = `the organization already has another credential for this provider with sandboxMode ${row.sandbox_mode}`
    throw new SigilError('ALREADY_EXISTS', `parameters.onrampProvider: ${description}`, {
      fieldViolations: [{ field: 'parameters.onrampProvider', description }],
    })
  }
  const key = ctx.rt.keys.onramp.privateKey
  const secretApiKey = await decryptOnRampSecret(p.encryptedSecretApiKey, key, 'parameters.encryptedSecretApiKey')
  const privateApiKey = p.encryptedPrivateApiKey
    ? await decryptOnRampSecret(p.encryptedPrivateApiKey, key, 'parameters.encryptedPrivateApiKey')
    : undefined
  try {
    await updateCredential(ctx.tx, ctx.rt.secrets, {
      id: row.id,
      provider: p.onrampProvider,
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
  return { fiatOnRampCredentialId: row.id }
}
