import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import pg from 'pg'
import { createApiKeyStamper } from '../../../src/crypto/stamp.js'
import { resolveConfig, type ServiceConfig } from '../../../src/service/config.js'
import { startServer as startService, type RunningServer } from '../../../src/server/start.js'
import type { Logger } from '../../../src/service/logger.js'
import type { Stamper } from '../../../src/api/stamper.js'

export type TestService = RunningServer & {
  dataDir: string
  databaseUrl: string | undefined
  adminStamper: Stamper & { publicKeyHex: string }
  /** POSTs `body` (an object or exact string) to `path`, stamped by `stamper` (admin by default). */
  post(path: string, body: unknown, stamper?: Stamper | null, headers?: Record<string, string>): Promise<{ status: number; json: any }>
  stop(): Promise<void>
}

/** The engine a service of this run uses when DATABASE_URL is unset. */
export const embeddedEngine = (): 'postgres' | 'pglite' => (process.env.SIGIL_DATABASE === 'pglite' ? 'pglite' : 'postgres')

/** A fresh database per service: a new PostgreSQL database when DATABASE_URL is set, else a temp data dir. */
export async function freshDatabaseUrl(): Promise<string | undefined> {
  const base = process.env.DATABASE_URL
  if (!base) return undefined
  const name = `sigil_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const client = new pg.Client({ connectionString: base })
  await client.connect()
  await client.query(`CREATE DATABASE ${name}`)
  await client.end()
  const url = new URL(base)
  url.pathname = `/${name}`
  return url.toString()
}

/** Starts the real service on 127.0.0.1:<free port> with a fresh data dir and database. */
export async function startTestService(
  overrides: Partial<ServiceConfig> & { now?: () => number; dataDir?: string; logger?: Logger } = {},
): Promise<TestService> {
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'sigil-test-'))
  const databaseUrl = 'databaseUrl' in overrides ? overrides.databaseUrl : await freshDatabaseUrl()
  const { now, logger, ...configOverrides } = overrides
  // The embedded engine is the product's default (PostgreSQL from node_modules) unless the run says
  // SIGIL_DATABASE=pglite (the test command's PGlite pass).
  const config = resolveConfig(
    { SIGIL_LOG: 'silent', SIGIL_DATABASE: process.env.SIGIL_DATABASE },
    { port: 0, dataDir, databaseUrl, ...configOverrides },
  )
  const svc = await startService(config, { ...(now ? { now } : {}), ...(logger ? { logger } : {}) })
  const adminStamper = createApiKeyStamper({ privateKeyHex: svc.admin.privateKey })
  const post: TestService['post'] = async (path, body, stamper = adminStamper, headers = {}) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body)
    const h: Record<string, string> = { 'Content-Type': 'application/json', ...headers }
    if (stamper) {
      const s = await stamper.stamp(text)
      h[s.stampHeaderName] = s.stampHeaderValue
    }
    const res = await fetch(`${svc.url}${path}`, { method: 'POST', headers: h, body: text })
    const raw = await res.text()
    let json: any
    try {
      json = JSON.parse(raw)
    } catch {
      json = raw
    }
    return { status: res.status, json }
  }
  return {
    ...svc,
    dataDir,
    databaseUrl,
    adminStamper,
    post,
    async stop() {
      await svc.close()
      if (!overrides.dataDir) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** A submit body in the official SDKs' key order (wire-formats B4). */
export function submitBody(type: string, organizationId: string, parameters: unknown, extra: Record<string, unknown> = {}) {
  return { parameters, organizationId, timestampMs: String(Date.now()), type, ...extra }
}

/** The hosted service's official client (`@turnkey/http`, unmodified) stamped with the test service's admin key (root user). */
export function adminTurnkeyClient(svc: TestService): TurnkeyClient {
  return new TurnkeyClient(
    { baseUrl: svc.url },
    new ApiKeyStamper({ apiPublicKey: svc.admin.publicKey, apiPrivateKey: svc.admin.privateKey }),
  )
}
