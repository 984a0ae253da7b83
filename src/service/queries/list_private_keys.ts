import { listPrivateKeys, privateKeyToWire } from '../store/privateKeys.js'
import type { QueryHandler } from './types.js'

/** list_private_keys (`getPrivateKeys` of the official client): `{organizationId}` → `{privateKeys}`, oldest first. */
export const handler: QueryHandler = async ({ sql, organizationId }) => ({
  privateKeys: (await listPrivateKeys(sql, organizationId)).map(privateKeyToWire),
})
