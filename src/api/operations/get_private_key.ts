/** get_private_key (hosted OpenAPI v1GetPrivateKeyRequest / v1GetPrivateKeyResponse). */
import { z } from 'zod'
import { OrganizationScoped, PrivateKey } from '../common.js'
import { defineQuery } from '../operation.js'

/** Reads one private key (never its secret). */
export const getPrivateKey = defineQuery({
  name: 'get_private_key',
  path: '/public/v1/query/get_private_key',
  request: OrganizationScoped.extend({ privateKeyId: z.string().min(1, { error: 'required' }) }),
  response: z.object({ privateKey: PrivateKey }),
})
