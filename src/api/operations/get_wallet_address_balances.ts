/** get_wallet_address_balances (hosted OpenAPI v1GetWalletAddressBalancesRequest/Response). */
import { z } from 'zod'
import { OrganizationScoped } from '../common.js'
import { defineQuery } from '../operation.js'

/** One asset's balance: atomic units as a decimal string, plus display values. */
export const AssetBalance = z.object({
  caip19: z.string().optional(),
  symbol: z.string().optional(),
  balance: z.string().optional(),
  decimals: z.number().int().optional(),
  display: z.object({ usd: z.string().optional(), crypto: z.string().optional() }).optional(),
  name: z.string().optional(),
  tokenProgram: z.string().optional(),
})
export type AssetBalance = z.infer<typeof AssetBalance>

/** Balances of one of the organization's wallet addresses on one network (CAIP-2). */
export const getWalletAddressBalances = defineQuery({
  name: 'get_wallet_address_balances',
  path: '/public/v1/query/get_wallet_address_balances',
  request: OrganizationScoped.extend({
    address: z.string().min(1, { error: 'required' }).max(128),
    caip2: z.string().min(1, { error: 'required' }).max(64),
  }),
  response: z.object({ balances: z.array(AssetBalance) }),
})
