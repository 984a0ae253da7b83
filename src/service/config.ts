import { resolve } from 'node:path'
import { z } from 'zod'
import type { OnRampProvider } from '../api/enumLists.js'
import { EXTENSION_ORIGIN } from '../api/identity.js'
import { type Network, resolveNetworks } from '../chains/networks.js'
import { type SponsorKeys, parseSponsorKeys } from './chains/sponsor.js'
import { DEV_SERVICE_IDENTITY_PRIVATE_KEY } from './devIdentity.js'
import { type Cidr, parseCidrList } from './net/cidr.js'
import { parseOidcIssuers, type TrustedIssuer } from './oidc/issuers.js'
import { type Oauth2Endpoints, parseOauth2Endpoints } from './oidc/oauth2Endpoints.js'
import type { Oauth2Provider } from '../api/oauth2.js'

/** The origin-list entry that stands for every Firefox add-on origin `moz-extension://<UUID>` (src/service/auth/origins.ts). */
export const ANY_FIREFOX_EXTENSION = 'moz-extension://*'

/**
 * The service's configuration, resolved once from the environment (wire-formats A6)
 * and passed explicitly. Nothing else reads `process.env`.
 */
const Env = z.object({
  SIGIL_HOST: z.string().default('127.0.0.1'),
  SIGIL_PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  SIGIL_DATA_DIR: z.string().default('.sigil'),
  /** The embedded database when DATABASE_URL is unset: PostgreSQL from node_modules, or PGlite (src/service/store/db.ts). */
  SIGIL_DATABASE: z.enum(['postgres', 'pglite']).default('postgres'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional(),
  SIGIL_MASTER_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'SIGIL_MASTER_KEY must be 64 hex characters (32 bytes)')
    .optional(),
  SIGIL_TIMESTAMP_WINDOW_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 60 * 1000),
  /**
   * Extra allowed origins (comma separated) for CORS and WebAuthn, beside the extension's own;
   * `moz-extension://*` allows every Firefox add-on origin for CORS and the relay (src/service/auth/origins.ts).
   */
  SIGIL_ALLOWED_ORIGINS: z.string().default(''),
  /** Extra WebAuthn RP IDs (comma separated). */
  SIGIL_RP_IDS: z.string().default(''),
  SIGIL_DEV_MAILBOX: z.enum(['on', 'off']).optional(),
  SIGIL_SMTP_URL: z.string().optional(),
  SIGIL_SMS_WEBHOOK_URL: z.string().url().optional(),
  /** Where USD prices of assets are read for balances' `display.usd` (src/service/chains/prices.ts); none: no fiat values. */
  SIGIL_PRICE_URL: z.string().url().optional(),
  SIGIL_PUBLIC_URL: z.string().url().optional(),
  /**
   * The identity key: 64 hex characters, or `dev` for the published development key
   * that development builds of the extension pin. Unset: the key made on first start.
   */
  SIGIL_IDENTITY_KEY: z
    .string()
    .regex(/^(dev|[0-9a-fA-F]{64})$/, 'SIGIL_IDENTITY_KEY must be 64 hex characters (32 bytes) or "dev"')
    .optional(),
  /** More origins the service answers at, for its signed identity (comma separated). */
  SIGIL_SERVICE_ORIGINS: z.string().default(''),
  /** On-ramp provider base URLs; unset: Sigil's own sandbox provider page. */
  SIGIL_ONRAMP_ALPHA_URL: z.string().url().optional(),
  SIGIL_ONRAMP_ALPHA_SANDBOX_URL: z.string().url().optional(),
  SIGIL_ONRAMP_BETA_URL: z.string().url().optional(),
  SIGIL_ONRAMP_BETA_SANDBOX_URL: z.string().url().optional(),
  /** Sender of service email; the display name defaults to `Notifications`. */
  SIGIL_MAIL_FROM: z.string().default('no-reply@sigil.local'),
  /**
   * Addresses (`otp@acme.example`) and domains (`acme.example`) that requests may name as the sender
   * or reply-to of service email (no other, so a request cannot mail in another's name);
   * SIGIL_MAIL_FROM's address is always allowed.
   */
  SIGIL_MAIL_SENDERS: z.string().default(''),
  /** Origins (`https://app.acme.example`) that magic links in service email may point to (no others). */
  SIGIL_MAIL_LINK_ORIGINS: z.string().default(''),
  /** OTP rate limit: at most this many OTPs per contact (and per userIdentifier) per window. */
  SIGIL_OTP_MAX_PER_WINDOW: z.coerce.number().int().positive().default(10),
  SIGIL_OTP_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
  /** The auth relay mounted at /auth: on by default. */
  SIGIL_RELAY: z.enum(['on', 'off']).default('on'),
  /** Networks beside the dev chains, or other RPC URLs for them: `caip2=url,…`. */
  SIGIL_RPC: z.string().optional(),
  /** ERC-20 tokens of EVM networks: `caip2=address:symbol:decimals[:name[:stable]],…`. */
  SIGIL_TOKENS: z.string().optional(),
  /** The gas sponsor of EVM networks (pays sponsored sends): `caip2=0x<private key>,…`; the dev chain's outside production. */
  SIGIL_GAS_SPONSOR_KEYS: z.string().optional(),
  /** The Gas Station (SigilBatchExecutor) address of EVM networks: `caip2=0xaddress,…`. */
  SIGIL_GAS_STATION: z.string().optional(),
  /** The USD price of EVM networks' native coin, for sponsorship limits: `caip2=price,…`. */
  SIGIL_NATIVE_USD: z.string().optional(),
  /** Block explorers of networks: `caip2=https://…,…` (transactions link to `<url>/tx/<hash>`). */
  SIGIL_EXPLORERS: z.string().optional(),
  /** The dev faucet at POST /dev/faucet: on unless production. */
  SIGIL_DEV_FAUCET: z.enum(['on', 'off']).optional(),
  /** Trusted OIDC issuers: a JSON array, see src/service/oidc/issuers.ts. */
  SIGIL_OIDC_ISSUERS: z.string().optional(),
  /** How long a fetch of an issuer's keys (or discovery document) may take. */
  SIGIL_OIDC_FETCH_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(5000),
  /** The development identity provider at /dev/oidc: on unless production. */
  SIGIL_DEV_OIDC: z.enum(['on', 'off']).optional(),
  /** Token and userinfo endpoints of the OAuth 2.0 providers (oauth2_authenticate): JSON, see src/service/oidc/oauth2Endpoints.ts. */
  SIGIL_OAUTH2_ENDPOINTS: z.string().optional(),
  SIGIL_LOG: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Webhooks: deliver to loopback/private addresses; on unless production. */
  SIGIL_WEBHOOK_PRIVATE_URLS: z.enum(['on', 'off']).optional(),
  /** One webhook delivery attempt's timeout (a claim on a row lasts this plus 10 s). */
  SIGIL_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** A request's headers and body must arrive within this: a stalled body is cut off, so a slow client holds no connection. */
  SIGIL_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /** Body bytes all requests still being received may hold together (at least one 1 MiB body). */
  SIGIL_MAX_BUFFERED_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(64 * 1024 * 1024),
  /** Open connections one client address (an IPv6 /64) may hold. */
  SIGIL_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(256),
  /** Proxies (CIDR blocks, comma separated) whose X-Forwarded-For names the client (src/service/http/clientAddress.ts). */
  SIGIL_TRUSTED_PROXIES: z.string().default(''),
  NODE_ENV: z.string().optional(),
})

export type ServiceConfig = {
  host: string
  port: number
  dataDir: string
  databaseUrl: string | undefined
  /** The embedded engine when `databaseUrl` is unset. */
  database: 'postgres' | 'pglite'
  masterKeyHex: string | undefined
  timestampWindowMs: number
  /**
   * Origins allowed for CORS, the relay and as WebAuthn `clientDataJSON.origin`; the entry
   * `moz-extension://*` (any Firefox add-on) counts for CORS and the relay only.
   */
  allowedOrigins: string[]
  /** WebAuthn RP IDs accepted (the rpIdHash is SHA-256 of one of them). */
  rpIds: string[]
  devMailbox: boolean
  smtpUrl: string | undefined
  smsWebhookUrl: string | undefined
  /** USD price source of balances' `display.usd` (`SIGIL_PRICE_URL`); undefined: balances carry no fiat value. */
  priceUrl?: string | undefined
  /** Base URL people reach the service at (links in emails, sandbox on-ramp pages). */
  publicUrl: string | undefined
  /** Identity key override (hex private key); undefined: the stored `verifier` key. */
  identityKeyHex: string | undefined
  /** Extra origins named in the signed identity, beside the listening address and publicUrl. */
  serviceOrigins: string[]
  /** On-ramp provider base URLs by provider and mode; undefined → the built-in sandbox page. */
  onRampUrls: OnRampProviderUrls
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent'
  production: boolean
  /** Default sender address of service email. */
  mailFrom: string
  /**
   * What a request may name as sender or reply-to of service email: lower-case addresses
   * and domains (a domain allows its addresses, not its subdomains'); `mailFrom`'s address always.
   */
  mailSenders: string[]
  /** Origins magic links may point to: the extension's, `publicUrl`'s, and these. */
  mailLinkOrigins: string[]
  /** OTP rate limit per contact / userIdentifier: `max` OTPs per `windowMs`. */
  otpRateLimit: { max: number; windowMs: number }
  /** Mount the auth relay at /auth. */
  relay: boolean
  /** Networks by CAIP-2 id: the dev chains plus `SIGIL_RPC`, with the ERC-20 tokens of `SIGIL_TOKENS` and the Gas Station settings of `SIGIL_GAS_STATION`/`SIGIL_NATIVE_USD`. */
  networks: Network[]
  /** Gas sponsor keys by CAIP-2 id (`SIGIL_GAS_SPONSOR_KEYS`; the dev chain's sponsor outside production). */
  gasSponsorKeys: SponsorKeys
  /** Serve the dev faucet (POST /dev/faucet). */
  devFaucet: boolean
  /** OIDC issuers whose ID tokens sign users up and in. */
  oidcIssuers: TrustedIssuer[]
  /** Serve (and trust) the development identity provider at /dev/oidc. */
  devOidc: boolean
  /** Endpoints of OAuth 2.0 providers set by `SIGIL_OAUTH2_ENDPOINTS` (the others: their own, or the dev identity provider). */
  oauth2Endpoints: Partial<Record<Oauth2Provider, Oauth2Endpoints>>
  /** Timeout of one fetch of an issuer's keys or discovery document. */
  oidcFetchTimeoutMs: number
  /** Webhook delivery (src/service/webhooks/README.md). */
  webhooks: WebhookConfig
  /** Limits of the HTTP server (src/service/http/admission.ts). */
  http: HttpLimits
  /**
   * Proxies whose `X-Forwarded-For` names the client for the IP allow-list (`SIGIL_TRUSTED_PROXIES`);
   * none: the socket's peer is the client and the header is ignored.
   */
  trustedProxies?: Cidr[]
}

/** What unauthenticated clients may hold of the HTTP server (every body is unauthenticated until read). */
export type HttpLimits = {
  /** A request's headers and body must arrive within this; else 408 and the connection is closed. */
  requestTimeoutMs: number
  /** Body bytes reserved by all requests being received (each its Content-Length, or the body limit if chunked); beyond: 503. */
  maxBufferedBodyBytes: number
  /** Open connections per client address (an IPv4 address or an IPv6 /64); the excess are closed. */
  maxConnectionsPerAddress: number
}

/** Webhook delivery settings; `allowPrivateUrls` is dev mode's (loopback and private receivers allowed). */
export type WebhookConfig = {
  allowPrivateUrls: boolean
  /** Attempts per delivery before it is given up (DEAD). */
  maxAttempts: number
  /** First retry delay; each next one doubles (capped at `maxBackoffMs`), with jitter. */
  backoffMs: number
  maxBackoffMs: number
  /** Per attempt, connection to response headers. */
  timeoutMs: number
}

/** Base URLs of one on-ramp provider: `live` for sandboxMode false, `sandbox` for true. */
export type OnRampProviderUrls = Record<OnRampProvider, { live: string | undefined; sandbox: string | undefined }>

const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)

/**
 * A comma-separated origin list (`SIGIL_ALLOWED_ORIGINS`, the relay's `--allowed-origins`), refusing
 * any wildcard but the one for Firefox add-ons (a `*` elsewhere would match nothing); `setting` names it in the error.
 */
export function allowedOriginsList(value: string, setting = 'SIGIL_ALLOWED_ORIGINS'): string[] {
  const origins = list(value)
  const bad = origins.find((o) => o.includes('*') && o !== ANY_FIREFOX_EXTENSION)
  if (bad !== undefined) {
    throw new Error(
      `invalid configuration: ${setting}: ${JSON.stringify(bad.slice(0, 100))} holds a wildcard; only ${ANY_FIREFOX_EXTENSION} may`,
    )
  }
  return origins
}

function identityKey(value: string | undefined, production: boolean): string | undefined {
  if (value !== 'dev') return value?.toLowerCase()
  if (production) throw new Error('invalid configuration: SIGIL_IDENTITY_KEY: the development key is refused in production')
  return DEV_SERVICE_IDENTITY_PRIVATE_KEY
}

/** Resolves and validates the configuration; throws a message naming the bad variable. */
export function resolveConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<ServiceConfig> = {},
): ServiceConfig {
  const parsed = Env.safeParse(env)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(`invalid configuration: ${issue?.path.join('.')}: ${issue?.message}`)
  }
  const e = parsed.data
  const production = e.NODE_ENV === 'production'
  let networks: Network[]
  let oidcIssuers: TrustedIssuer[]
  let oauth2Endpoints: Partial<Record<Oauth2Provider, Oauth2Endpoints>>
  let gasSponsorKeys: SponsorKeys
  let trustedProxies: Cidr[]
  try {
    trustedProxies = parseCidrList(e.SIGIL_TRUSTED_PROXIES, 'SIGIL_TRUSTED_PROXIES')
    gasSponsorKeys = parseSponsorKeys(e.SIGIL_GAS_SPONSOR_KEYS, production)
    networks = resolveNetworks(e.SIGIL_RPC, e.SIGIL_TOKENS, {
      gasStations: e.SIGIL_GAS_STATION,
      nativeUsd: e.SIGIL_NATIVE_USD,
      explorers: e.SIGIL_EXPLORERS,
    })
    oidcIssuers = parseOidcIssuers(e.SIGIL_OIDC_ISSUERS)
    oauth2Endpoints = parseOauth2Endpoints(e.SIGIL_OAUTH2_ENDPOINTS)
  } catch (err) {
    throw new Error(`invalid configuration: ${(err as Error).message}`)
  }
  const config: ServiceConfig = {
    host: e.SIGIL_HOST,
    port: e.SIGIL_PORT,
    dataDir: resolve(e.SIGIL_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    database: e.SIGIL_DATABASE,
    masterKeyHex: e.SIGIL_MASTER_KEY?.toLowerCase(),
    timestampWindowMs: e.SIGIL_TIMESTAMP_WINDOW_MS,
    // Development answers pages on localhost (any port) and the Firefox build, whose origin is a
    // UUID drawn per profile (any `moz-extension://<UUID>`); production only what the operator configured.
    allowedOrigins: [
      EXTENSION_ORIGIN,
      ...(production ? [] : ['http://localhost', ANY_FIREFOX_EXTENSION]),
      ...allowedOriginsList(e.SIGIL_ALLOWED_ORIGINS),
    ],
    // Chromium hashes the full `chrome-extension://<id>` string as the RP ID (toolchain.md §5).
    rpIds: [EXTENSION_ORIGIN, ...(production ? [] : ['localhost']), ...list(e.SIGIL_RP_IDS)],
    devMailbox: e.SIGIL_DEV_MAILBOX ? e.SIGIL_DEV_MAILBOX === 'on' : !production,
    smtpUrl: e.SIGIL_SMTP_URL,
    smsWebhookUrl: e.SIGIL_SMS_WEBHOOK_URL,
    priceUrl: e.SIGIL_PRICE_URL,
    publicUrl: e.SIGIL_PUBLIC_URL,
    identityKeyHex: identityKey(e.SIGIL_IDENTITY_KEY, production),
    serviceOrigins: list(e.SIGIL_SERVICE_ORIGINS),
    onRampUrls: {
      FIAT_ON_RAMP_PROVIDER_ALPHA: { live: e.SIGIL_ONRAMP_ALPHA_URL, sandbox: e.SIGIL_ONRAMP_ALPHA_SANDBOX_URL },
      FIAT_ON_RAMP_PROVIDER_BETA: { live: e.SIGIL_ONRAMP_BETA_URL, sandbox: e.SIGIL_ONRAMP_BETA_SANDBOX_URL },
    },
    logLevel: e.SIGIL_LOG,
    production,
    mailFrom: e.SIGIL_MAIL_FROM,
    mailSenders: list(e.SIGIL_MAIL_SENDERS.toLowerCase()),
    mailLinkOrigins: list(e.SIGIL_MAIL_LINK_ORIGINS),
    otpRateLimit: { max: e.SIGIL_OTP_MAX_PER_WINDOW, windowMs: e.SIGIL_OTP_WINDOW_SECONDS * 1000 },
    relay: e.SIGIL_RELAY === 'on',
    networks,
    gasSponsorKeys,
    devFaucet: e.SIGIL_DEV_FAUCET ? e.SIGIL_DEV_FAUCET === 'on' : !production,
    oidcIssuers,
    devOidc: e.SIGIL_DEV_OIDC ? e.SIGIL_DEV_OIDC === 'on' : !production,
    oauth2Endpoints,
    oidcFetchTimeoutMs: e.SIGIL_OIDC_FETCH_TIMEOUT_MS,
    webhooks: {
      allowPrivateUrls: e.SIGIL_WEBHOOK_PRIVATE_URLS ? e.SIGIL_WEBHOOK_PRIVATE_URLS === 'on' : !production,
      maxAttempts: 8,
      backoffMs: 1_000,
      maxBackoffMs: 5 * 60_000,
      timeoutMs: e.SIGIL_WEBHOOK_TIMEOUT_MS,
    },
    http: {
      requestTimeoutMs: e.SIGIL_REQUEST_TIMEOUT_MS,
      maxBufferedBodyBytes: e.SIGIL_MAX_BUFFERED_BODY_BYTES,
      maxConnectionsPerAddress: e.SIGIL_MAX_CONNECTIONS_PER_ADDRESS,
    },
    trustedProxies,
  }
  return { ...config, ...overrides }
}
