import type { z } from 'zod'
import type { initImportSecrets } from '../../api/operations/init_import_secrets.js'
import { insertSecretImportKey, secretSealPurpose } from '../store/orgSecrets.js'
import { mintImportKey } from './shared/importKeys.js'
import type { ActivityHandler } from './types.js'

/**
 * init_import_secrets (features/secrets "Import"): `numSecrets` single-use ingress keys, minted as
 * import keys are (shared/importKeys.ts), each announced in a target bundle signed by the service
 * signer with the organization and the submitting user (what `@turnkey/crypto`
 * `encryptSecretToBundle` verifies). The keys stay pending for that user until import_secrets uses
 * them; an organization keeps at most MAX_PENDING_SECRET_IMPORT_KEYS (the oldest go).
 */
export const handler: ActivityHandler<z.infer<typeof initImportSecrets.parameters>> = async (ctx, p) => {
  const userId = ctx.submitter.userId
  const enclaveTargetMessages: string[] = []
  for (let i = 0; i < p.numSecrets; i++) {
    const key = mintImportKey(ctx, userId, (publicKey) => secretSealPurpose.importKey(ctx.organizationId, publicKey))
    await insertSecretImportKey(ctx.tx, {
      organization_id: ctx.organizationId,
      public_key: key.publicKey,
      user_id: userId,
      private_key_enc: key.privateKeyEnc,
      created_at: ctx.now,
    })
    enclaveTargetMessages.push(key.targetBundle)
  }
  return { enclaveTargetMessages }
}
