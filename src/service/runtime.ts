import type { ServiceConfig } from './config.js'
import type { ServiceKeys } from './keys.js'
import type { Logger } from './logger.js'
import type { OidcVerifier } from './oidc/verify.js'
import type { Database } from './store/sql.js'
import type { SecretBox } from './store/secrets.js'
import type { WebhookFilters } from '../api/webhooks.js'
import type { ClaimedDelivery } from './store/webhooks.js'

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

/*
 * The workers and caches the runtime holds, as its users see them. The runtime declares them so that
 * it imports none of the folders that build them (`mail/outbox.ts` `createOutbox`, `sends/tracker.ts`
 * `createSendTracker`, `webhooks/`), and those folders import the runtime without a cycle.
 */

/** The mail and SMS delivery worker (`mail/outbox.ts`). */
export type Outbox = {
  /** Starts delivering (the service starts it once it listens): first what an earlier run left pending. */
  start(rt: Runtime): void
  /** Messages were committed: deliver now. */
  kick(): void
  stop(): void
}

/** The worker that builds, signs, broadcasts and follows sends (`sends/tracker.ts`). */
export type SendTracker = {
  /** Starts following sends (the service starts it once it listens): first what an earlier run left. */
  start(rt: Runtime): void
  /** A send was committed: look now. */
  kick(): void
  stop(): Promise<void>
}

/** The webhook delivery worker (`webhooks/dispatcher.ts`). */
export type WebhookDispatcher = {
  /** Starts delivering, signed with the runtime's webhook key (the service starts it once it listens; until then it takes nothing). */
  start(rt: Runtime): void
  /** Rows were committed: look now. */
  wake(): void
  /** Whether rows queued now may come claimed by this instance (its backlog is short). */
  canTake(): boolean
  /** Delivers rows this instance queued claimed, now that their transaction committed. */
  take(deliveries: ClaimedDelivery[]): void
  stop(): Promise<void>
}

/** One active subscription: an endpoint that hears `eventType` events its filters accept. */
export type WebhookTarget = { endpointId: string; url: string; eventType: string; filters: WebhookFilters }

/** The instance's cache of active subscriptions per organization; `generation` moves on every endpoint change (`webhooks/events.ts`). */
export type WebhookTargets = {
  generation: number
  entries: Map<string, { targets: WebhookTarget[]; at: number; generation: number }>
}

/** The service-wide webhook signing key (`webhooks/signing.ts`). */
export type WebhookSigner = {
  keyId: string
  /** Hex of the 32-byte Ed25519 public key (what `verifyTurnkeyWebhookSignature` takes). */
  publicKeyHex: string
  /** Hex of the 64-byte signature over the signed input of one delivery. */
  sign(input: { timestampMs: string; eventId: string; body: Uint8Array }): string
  jwks(): { keys: WebhookJwk[] }
}

/** The public half of the webhook signing key as published at the JWKS route. */
export type WebhookJwk = {
  kid: string
  kty: 'OKP'
  crv: 'Ed25519'
  alg: 'EdDSA'
  use: 'sig'
  x: string
  turnkey_signature_algorithm: 'ed25519'
  turnkey_signature_version: 'v1'
}
