/** list_private_keys: what `@turnkey/http` `getPrivateKeys` calls (hosted OpenAPI v1GetPrivateKeysRequest / Response). */
import { z } from 'zod'
import { OrganizationScoped, PrivateKey } from '../common.js'
import { defineQuery } from '../operation.js'

/** Lists the organization's private keys, oldest first. */
export const listPrivateKeys = defineQuery({
  name: 'list_private_keys',
  path: '/public/v1/query/list_private_keys',
  request: OrganizationScoped,
  response: z.object({ privateKeys: z.array(PrivateKey) }),
})
