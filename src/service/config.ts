import { resolve } from 'node:path'
import { z } from 'zod'
import { EXTENSION_ORIGIN } from '../extension/identity.js'

/**
 * The service's configuration, resolved once from the environment (wire-formats A6)
 * and passed explicitly. Nothing else reads `process.env`.
 */
const Env = z.object({
  SIGIL_HOST: z.string().default('127.0.0.1'),
  SIGIL_PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  SIGIL_DATA_DIR: z.string().default('.sigil'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional(),
  SIGIL_MASTER_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'SIGIL_MASTER_KEY must be 64 hex characters (32 bytes)')
    .optional(),
  SIGIL_TIMESTAMP_WINDOW_MS: z.coerce.number().int().positive().default(5 * 60 * 1000),
  /** Extra allowed origins (comma separated) for CORS and WebAuthn, beside the extension's own. */
  SIGIL_ALLOWED_ORIGINS: z.string().default(''),
  /** Extra WebAuthn RP IDs (comma separated). */
  SIGIL_RP_IDS: z.string().default(''),
  SIGIL_DEV_MAILBOX: z.enum(['on', 'off']).optional(),
  SIGIL_SMTP_URL: z.string().optional(),
  SIGIL_SMS_WEBHOOK_URL: z.string().url().optional(),
  SIGIL_PUBLIC_URL: z.string().url().optional(),
  SIGIL_LOG: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  NODE_ENV: z.string().optional(),
})

export type ServiceConfig = {
  host: string
  port: number
  dataDir: string
  databaseUrl: string | undefined
  masterKeyHex: string | undefined
  timestampWindowMs: number
  /** Origins allowed for CORS and as WebAuthn `clientDataJSON.origin`. */
  allowedOrigins: string[]
  /** WebAuthn RP IDs accepted (the rpIdHash is SHA-256 of one of them). */
  rpIds: string[]
  devMailbox: boolean
  smtpUrl: string | undefined
  smsWebhookUrl: string | undefined
  /** Base URL people reach the service at (links in emails, sandbox on-ramp pages). */
  publicUrl: string | undefined
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent'
  production: boolean
}

const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)

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
  const config: ServiceConfig = {
    host: e.SIGIL_HOST,
    port: e.SIGIL_PORT,
    dataDir: resolve(e.SIGIL_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    masterKeyHex: e.SIGIL_MASTER_KEY?.toLowerCase(),
    timestampWindowMs: e.SIGIL_TIMESTAMP_WINDOW_MS,
    allowedOrigins: [EXTENSION_ORIGIN, 'http://localhost', ...list(e.SIGIL_ALLOWED_ORIGINS)],
    // Chromium hashes the full `chrome-extension://<id>` string as the RP ID (toolchain.md §5).
    rpIds: [EXTENSION_ORIGIN, 'localhost', ...list(e.SIGIL_RP_IDS)],
    devMailbox: e.SIGIL_DEV_MAILBOX ? e.SIGIL_DEV_MAILBOX === 'on' : !production,
    smtpUrl: e.SIGIL_SMTP_URL,
    smsWebhookUrl: e.SIGIL_SMS_WEBHOOK_URL,
    publicUrl: e.SIGIL_PUBLIC_URL,
    logLevel: e.SIGIL_LOG,
    production,
  }
  return { ...config, ...overrides }
}
