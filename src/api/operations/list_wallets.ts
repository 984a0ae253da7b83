/** list_wallets (wire-formats B4 getWallets). */
import { z } from 'zod'
import { OrganizationScoped, Wallet } from '../common.js'
import { defineQuery } from '../operation.js'

/** Lists the organization's wallets. */
export const listWallets = defineQuery({
  name: 'list_wallets',
  path: '/public/v1/query/list_wallets',
  request: OrganizationScoped,
  response: z.object({ wallets: z.array(Wallet) }),
})
