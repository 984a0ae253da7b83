/**
 * What the private-key activities share: creating one key (generated or imported) with its
 * addresses and tags, and finding one by id with a 404 naming the field.
 */
import type { PrivateKeyParams } from '../../../api/operations/create_private_keys.js'
import { fieldError, invalidField } from '../../../api/errors.js'
import { addressFromPublicKey } from '../../../chains/derive.js'
import type { AddressFormat, Curve } from '../../../chains/types.js'
import { bytesToHex } from '../../../crypto/encoding.js'
import type { Sql } from '../../store/sql.js'
import {
  getPrivateKey,
  insertPrivateKey,
  type PrivateKeyAddress,
  type PrivateKeyWithAddresses,
  privateKeyNameTaken,
  privateKeyPurpose,
} from '../../store/privateKeys.js'
import type { ActivityContext } from '../../activityContext.js'
import { namingFields } from '../../fieldNames.js'
import { requireTag } from './tags.js'

/** The organization's private key, or a 404 naming `field` (another organization's key reads the same). */
export async function requirePrivateKey(sql: Sql, orgId: string, id: string, field: string): Promise<PrivateKeyWithAddresses> {
  const key = await getPrivateKey(sql, orgId, id)
  if (!key) throw fieldError('NOT_FOUND', field, 'no such private key in the organization')
  return key
}

/** Every id names a private key of the organization (404 naming `field[i]`); duplicates dropped. */
export async function requirePrivateKeys(sql: Sql, orgId: string, ids: readonly string[], field: string): Promise<string[]> {
  const out = new Set<string>()
  for (const [i, id] of ids.entries()) out.add((await requirePrivateKey(sql, orgId, id, `${field}[${i}]`)).id)
  return [...out]
}

/**
 * Stores a private key `(curve, key pair)` named and tagged as `p` asks, with one address per
 * requested format; the secret is sealed, then wiped. Fields are named under `field`.
 *
 * @throws INVALID_ARGUMENT when the name is blank or a format does not fit the curve
 * @throws ALREADY_EXISTS when the organization has a private key of that name
 * @throws NOT_FOUND when a tag id names no private-key tag of the organization
 */
export async function storePrivateKey(
  ctx: ActivityContext,
  p: Omit<PrivateKeyParams, 'privateKeyTags'> & { privateKeyTags?: readonly string[] },
  keyPair: { privateKey: Uint8Array; publicKey: Uint8Array },
  field: string,
  opts: { imported: boolean; nameField?: string },
): Promise<{ privateKeyId: string; addresses: PrivateKeyAddress[] }> {
  const nameField = opts.nameField ?? `${field}.privateKeyName`
  const name = p.privateKeyName.trim()
  if (!name) throw invalidField(nameField, 'must not be blank')
  if (await privateKeyNameTaken(ctx.tx, ctx.organizationId, name))
    throw fieldError('ALREADY_EXISTS', nameField, `a private key named '${name}' already exists`)
  const tags = new Set<string>()
  for (const [i, id] of (p.privateKeyTags ?? []).entries()) {
    tags.add((await requireTag(ctx.tx, ctx.organizationId, 'TAG_TYPE_PRIVATE_KEY', id, `${field}.privateKeyTags[${i}]`)).id)
  }
  const addresses = p.addressFormats.map((format, i) =>
    namingFields(
      (f) => (f === 'addressFormat' ? `${field}.addressFormats[${i}]` : `${field}.${f}`),
      (): PrivateKeyAddress => ({ format, address: addressFromPublicKey(p.curve as Curve, format as AddressFormat, keyPair.publicKey) }),
    ),
  )
  const id = crypto.randomUUID()
  try {
    await insertPrivateKey(
      ctx.tx,
      {
        id,
        organization_id: ctx.organizationId,
        name,
        curve: p.curve,
        public_key: bytesToHex(keyPair.publicKey),
        private_key_enc: ctx.rt.secrets.seal(keyPair.privateKey, privateKeyPurpose(id)),
        tags: [...tags],
        imported: opts.imported,
        created_at: ctx.now,
      },
      addresses,
    )
  } finally {
    keyPair.privateKey.fill(0)
  }
  return { privateKeyId: id, addresses }
}
