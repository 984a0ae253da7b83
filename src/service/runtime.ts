import type { ServiceConfig } from './config.js'
import type { ServiceKeys } from './keys.js'
import type { Logger } from './logger.js'
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
}
