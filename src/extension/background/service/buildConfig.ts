/**
 * Build-time options for distributions (the service identity the wallet pins), set as
 * environment variables of `wxt build` (README "Building for a distribution"):
 * - `WXT_SIGIL_SERVICE_URL`, `WXT_SIGIL_RELAY_URL`: the default service and relay;
 * - `WXT_SIGIL_SERVICE_KEY`: the identity key pinned out of the box (130 hex, 04…);
 * - `WXT_SIGIL_LOCK_SETTINGS=true`: Settings cannot change the service at all.
 * Without them the build targets the development service of `npm start`, pinning its
 * published development key.
 */
import { DEV_SERVICE_IDENTITY_KEY } from '../../../api/serviceIdentity'

export type BuildConfig = {
  apiBaseUrl: string
  relayUrl: string
  identityKey: string
  lockSettings: boolean
}

const env: Partial<ImportMetaEnv> = (import.meta as { env?: Partial<ImportMetaEnv> }).env ?? {}

/** The options this build was made with. */
export const BUILD_CONFIG: BuildConfig = {
  apiBaseUrl: (env.WXT_SIGIL_SERVICE_URL || 'http://127.0.0.1:8787').replace(/\/+$/, ''),
  relayUrl: (env.WXT_SIGIL_RELAY_URL || `${(env.WXT_SIGIL_SERVICE_URL || 'http://127.0.0.1:8787').replace(/\/+$/, '')}/auth`).replace(
    /\/+$/,
    '',
  ),
  identityKey: (env.WXT_SIGIL_SERVICE_KEY || DEV_SERVICE_IDENTITY_KEY).toLowerCase(),
  lockSettings: env.WXT_SIGIL_LOCK_SETTINGS === 'true',
}
