import type { ServiceConfig } from './config.js'
import type { ServiceKeys } from './keys.js'
import type { Logger } from './logger.js'
import type { OidcVerifier } from './oidc/verify.js'
import type { Database } from './store/sql.js'
import type { SecretBox } from './store/secrets.js'
import type { Outbox } from './mail/outbox.js'
import type { SendTracker } from './sends/tracker.js'
import type { WebhookDispatcher } from './webhooks/dispatcher.js'
import type { WebhookTargets } from './webhooks/events.js'
import type { WebhookSigner } from './webhooks/signing.js'

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
  /** Delivers queued email and SMS once committed; present when SMTP or SMS is configured (else messages stay in the dev mailbox). */
  outbox: Outbox | undefined
  /** Builds, signs, broadcasts and follows sends once their activity committed. */
  sendTracker: SendTracker
  /** Webhooks: the signing key (published at the JWKS route), the subscription cache, the dispatcher. */
  webhooks: { signer: WebhookSigner; targets: WebhookTargets; dispatcher: WebhookDispatcher }
}
