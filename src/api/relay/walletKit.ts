/**
 * The relay's `/v1/wallet_kit_config` (wire-formats B6 "Auth proxy"): the parent organization and
 * the sign-in methods it offers; Sigil adds the OIDC providers a client runs its OAuth flow with.
 */
import { z } from 'zod'

/** An OIDC provider the relay announces, as a client needs it to run the authorization-code flow with PKCE. */
export const RelayOauthProvider = z.object({
  name: z.string().min(1).max(40),
  issuer: z.url({ protocol: /^https?$/ }),
  clientId: z.string().min(1).max(512),
  authorizationEndpoint: z.url({ protocol: /^https?$/ }).optional(),
  tokenEndpoint: z.url({ protocol: /^https?$/ }).optional(),
  /** `code`: authorization code + PKCE at the token endpoint; `implicit`: the ID token comes in the redirect. */
  flow: z.enum(['code', 'implicit']).default('code'),
})
export type RelayOauthProvider = z.output<typeof RelayOauthProvider>

/** `/v1/wallet_kit_config` response, as a client reads it: providers it cannot read are left out. */
export const WalletKitConfigResponse = z
  .object({ organizationId: z.string().min(1), oauthProviders: z.array(RelayOauthProvider).max(20).optional().catch(undefined) })
  .loose()
