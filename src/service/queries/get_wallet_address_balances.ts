import { fieldError } from '../../api/errors.js'
import { requireAccount } from '../signing/walletLookup.js'
import { balancesOf, requireNetwork } from '../chains/assets.js'
import { withUsd } from '../chains/prices.js'
import type { QueryHandler } from './types.js'

/** The address format each network family takes. */
const FORMAT_OF_FAMILY = { evm: 'ADDRESS_FORMAT_ETHEREUM', solana: 'ADDRESS_FORMAT_SOLANA' } as const

/**
 * get_wallet_address_balances: `{organizationId, address, caip2}` → `{balances}` read from the
 * network's node: the native asset, then each ERC-20 token configured for the network
 * (`SIGIL_TOKENS`; `eip155:<chainId>/erc20:<address>`), zero balances included; a token whose
 * contract cannot answer `balanceOf` is left out (and logged). The address must be one of the
 * organization's wallet accounts, in the format the network takes (404 / 400 naming `address`);
 * an unknown network is a 400 naming `caip2`. `display.usd` is set only where the operator's price
 * source (`SIGIL_PRICE_URL`, chains/prices.ts) gives the asset's price; none by default.
 *
 * @throws INVALID_ARGUMENT when caip2 is not a configured network, or the account's address format is not the one that network takes
 * @throws NOT_FOUND when address names no wallet account of the organization
 * @throws FAILED_PRECONDITION when the network's node is not reachable, does not answer in time, refuses the call or answers without a result
 */
export const handler: QueryHandler<{ address: string; caip2: string }> = async ({ sql, rt, organizationId }, req) => {
  const network = requireNetwork(rt.config.networks, req.caip2, 'caip2')
  const account = await requireAccount(sql, organizationId, req.address, 'address')
  if (account.address_format !== FORMAT_OF_FAMILY[network.family]) {
    throw fieldError(
      'INVALID_ARGUMENT',
      'address',
      `a ${account.address_format} account has no balance on ${network.caip2}, which takes ${FORMAT_OF_FAMILY[network.family]} addresses`,
    )
  }
  return { balances: await withUsd(rt.config.priceUrl, await balancesOf(network, account.address, rt.log), rt.log) }
}
