import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { exportSecrets } from '../../api/operations/export_secrets.js'
import { hexToBytes } from '../../crypto/encoding.js'
import { uncompressP256PublicKey } from '../../crypto/p256.js'
import { getSecret, secretSealPurpose } from '../store/orgSecrets.js'
import { exportTo } from './shared/exportBundle.js'
import type { ActivityHandler } from './types.js'

/**
 * export_secrets (features/secrets "Export"): each secret in an export bundle to its
 * `targetPublicKey`, made as export_private_key's is (shared/exportBundle.ts; what `@turnkey/crypto`
 * `decryptSecretBundle` opens), in the order asked. It runs only once policies allowed the whole
 * activity, and exports all or none: one unknown id or bad key refuses the batch.
 *
 * @throws NOT_FOUND when parameters.secrets[i].secretId names no secret of the organization
 * @throws INVALID_ARGUMENT when parameters.secrets[i].targetPublicKey is not a hex P-256 public key
 */
export const handler: ActivityHandler<z.infer<typeof exportSecrets.parameters>> = async (ctx, p) => {
  // Every target key is checked before any secret is read: a malformed request is a 400 whatever it names.
  for (const [i, s] of p.secrets.entries()) {
    const field = `parameters.secrets[${i}].targetPublicKey`
    uncompressP256PublicKey(hexToBytes(s.targetPublicKey, field), field)
  }
  const secretPayloads: string[] = []
  for (const [i, s] of p.secrets.entries()) {
    const at = `parameters.secrets[${i}]`
    const row = await getSecret(ctx.tx, ctx.organizationId, s.secretId)
    if (!row) throw fieldError('NOT_FOUND', `${at}.secretId`, 'the organization has no secret with this id')
    const value = ctx.rt.secrets.open(row.value_enc, secretSealPurpose.value(ctx.organizationId, row.id))
    try {
      secretPayloads.push(await exportTo(ctx, s.targetPublicKey, value, `${at}.targetPublicKey`))
    } finally {
      value.fill(0)
    }
  }
  return { secretPayloads }
}
