/** get_wallet (wire-formats B4 getWallet). */
import { z } from 'zod'
import { OrganizationScoped, Wallet } from '../common.js'
import { defineQuery } from '../operation.js'

/** Reads one wallet. */
export const getWallet = defineQuery({
  name: 'get_wallet',
  path: '/public/v1/query/get_wallet',
  request: OrganizationScoped.extend({ walletId: z.string().min(1, { error: 'required' }) }),
  response: z.object({ wallet: Wallet }),
})
