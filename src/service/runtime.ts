import type { ServiceConfig } from './config.js'
import type { ServiceKeys } from './keys.js'
import type { Logger } from './logger.js'
import type { DevIdentityProvider } from '../devchain/oidcProvider.js'
import type { OidcVerifier } from './oidc/verify.js'
import type { Database } from './store/sql.js'
import type { SecretBox } from './store/secrets.js'

/** Everything a request handler may use, built once at start and passed explicitly. */
export type Runtime = {
  config: ServiceConfig
  db: Database
  secrets: SecretBox
  keys: ServiceKeys
  log: Logger
  /** Milliseconds since the epoch; injectable for tests. */
  now: () => number
  rootOrganizationId: string
  /** Where this instance listens (`http://host:port`), known once the server is bound. */
  baseUrl: string
  /** Verifies OIDC ID tokens against the trusted issuers. */
  oidc: OidcVerifier
  /** The development identity provider at /dev/oidc, when served. */
  devIdp: DevIdentityProvider | undefined
}
