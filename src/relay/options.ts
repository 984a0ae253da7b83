import { EXTENSION_ORIGIN } from '../api/identity.js'
import type { RelayOauthProvider } from '../api/relay/walletKit.js'
import { ANY_FIREFOX_EXTENSION } from '../service/config.js'
import type { RateLimit } from './rateLimit.js'

/** The parent organization's API key, as in `admin-api-key.json` (wire-formats A6). */
export type RelayApiKey = { organizationId: string; privateKey: string; publicKey?: string }

/** What a relay needs. */
export type RelayOptions = {
  /** Base URL of the upstream service (or a function giving it at request time, when mounted in-process). */
  upstream: string | ((c: unknown) => string)
  /** The parent organization and its API key: the relay acts as this organization. */
  apiKey: RelayApiKey | (() => RelayApiKey)
  /** Origins whose browsers and extensions may call the relay (checked on every request; `moz-extension://*`: any Firefox add-on). */
  allowedOrigins: readonly string[]
  /** `appName` of the emails the relay asks for. */
  appName?: string
  /** The verifier public key of verification tokens; fetched from the upstream's /healthz when absent. */
  verifierPublicKeyHex?: string
  limits?: { perAddress: RateLimit; perContact: RateLimit }
  /** Answer CORS preflights itself (standalone); mounted in the service, the service does it. */
  cors?: boolean
  fetch?: typeof globalThis.fetch
  now?: () => number
  /** The OIDC providers sign-up and login may use ("Continue with …"), announced by /v1/wallet_kit_config. */
  oauthProviders?: () => RelayOauthProvider[]
}

/**
 * The origins a relay answers, so no other web page can drive sign-ups and logins through it: the
 * extension's and the configured ones, plus pages on `http://localhost` (any port) and Firefox
 * add-ons (`moz-extension://<UUID>`, drawn per profile) outside production only.
 */
export function relayAllowedOrigins(configured: readonly string[], production: boolean): string[] {
  return [EXTENSION_ORIGIN, ...(production ? [] : ['http://localhost', ANY_FIREFOX_EXTENSION]), ...configured]
}
