import type { z } from 'zod'
import { fieldError, invalidField } from '../../api/errors.js'
import { MAX_SECRET_BYTES } from '../../api/limits.js'
import type { importSecrets } from '../../api/operations/import_secrets.js'
import { bytesToHex, hexToBytes } from '../../crypto/encoding.js'
import { uncompressP256PublicKey } from '../../crypto/p256.js'
import { insertSecret, secretNameTaken, secretSealPurpose, takeSecretImportKey } from '../store/orgSecrets.js'
import { openWithImportKey } from './shared/importKeys.js'
import type { ActivityHandler } from './types.js'

type Params = z.infer<typeof importSecrets.parameters>

/** The static properties as stored and listed: `{key, value}` pairs, keys unique. */
function staticPropertiesOf(s: Params['secrets'][number], at: string): Array<{ key: string; value: string }> {
  const seen = new Set<string>()
  return (s.staticProperties ?? []).map((kv, j) => {
    if (seen.has(kv.key)) throw invalidField(`${at}.staticProperties[${j}].key`, 'repeats a key of this secret')
    seen.add(kv.key)
    return { key: kv.key, value: kv.value ?? '' }
  })
}

/**
 * import_secrets (features/secrets "Import"): each `secretPayload` is the `{encappedPublic,
 * ciphertext}` envelope `@turnkey/crypto` `encryptSecretToBundle` makes for an ingress key from
 * init_import_secrets; it is opened with that key (which is then deleted: single use), and the
 * value sealed under the master key bound to its organization and id. All or none.
 *
 * @throws INVALID_ARGUMENT when parameters.secrets[i].targetPublicKey is not a P-256 public key, is named twice, or a static property key repeats
 * @throws FAILED_PRECONDITION when parameters.secrets[i].targetPublicKey is no pending ingress key of the organization, or was issued to another user
 * @throws BUNDLE_INVALID when parameters.secrets[i].secretPayload does not open with its ingress key
 * @throws INVALID_ARGUMENT when a decrypted secret is empty or larger than MAX_SECRET_BYTES
 * @throws ALREADY_EXISTS when parameters.secrets[i].name is taken in the organization or repeats in the request
 */
export const handler: ActivityHandler<Params> = async (ctx, p) => {
  const names = new Set<string>()
  const targets = new Set<string>()
  const secretIds: string[] = []
  for (const [i, s] of p.secrets.entries()) {
    const at = `parameters.secrets[${i}]`
    const target = bytesToHex(uncompressP256PublicKey(hexToBytes(s.targetPublicKey, `${at}.targetPublicKey`), `${at}.targetPublicKey`))
    if (targets.has(target))
      throw invalidField(`${at}.targetPublicKey`, 'names an ingress key another secret of this request uses (each is single-use)')
    targets.add(target)
    if (s.name !== undefined) {
      if (names.has(s.name) || (await secretNameTaken(ctx.tx, ctx.organizationId, s.name))) {
        throw fieldError('ALREADY_EXISTS', `${at}.name`, 'the organization already has a secret of this name')
      }
      names.add(s.name)
    }
    const staticProperties = staticPropertiesOf(s, at)
    const key = await takeSecretImportKey(ctx.tx, ctx.organizationId, target)
    if (!key) {
      throw fieldError(
        'FAILED_PRECONDITION',
        `${at}.targetPublicKey`,
        'is no pending ingress key of the organization: call init_import_secrets first',
      )
    }
    if (key.user_id !== ctx.submitter.userId) {
      throw fieldError('FAILED_PRECONDITION', `${at}.targetPublicKey`, 'was issued by init_import_secrets to another user')
    }
    const value = await openWithImportKey(
      ctx,
      { privateKeyEnc: key.private_key_enc, purpose: secretSealPurpose.importKey(ctx.organizationId, target) },
      s.secretPayload,
      `${at}.secretPayload`,
    )
    try {
      if (value.length === 0 || value.length > MAX_SECRET_BYTES) {
        throw invalidField(`${at}.secretPayload`, `must hold a secret of 1 to ${MAX_SECRET_BYTES} bytes (got ${value.length})`)
      }
      const id = crypto.randomUUID()
      await insertSecret(ctx.tx, {
        id,
        organizationId: ctx.organizationId,
        name: s.name,
        staticProperties,
        valueEnc: ctx.rt.secrets.seal(value, secretSealPurpose.value(ctx.organizationId, id)),
        now: ctx.now,
      })
      secretIds.push(id)
    } finally {
      value.fill(0)
    }
  }
  return { secretIds }
}
