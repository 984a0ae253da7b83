/**
 * A Firefox add-on's origin (`moz-extension://<UUID>`, drawn per profile) at the real service and
 * its mounted relay: with the defaults `npm start` uses, the preflight, the signed identity and
 * relay calls are answered with no origin set by hand; with production's defaults the same
 * requests are refused (403, ORIGIN_NOT_ALLOWED) until the operator allows `moz-extension://*`.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RELAY_IDENTITY_PATH, SERVICE_IDENTITY_PATH } from '../../src/api/serviceIdentity.js'
import { resolveConfig } from '../../src/service/config.js'
import { startTestService, type TestService } from './helpers/service.js'

const FIREFOX = `moz-extension://${randomUUID()}`

function preflight(url: string, origin: string) {
  return fetch(url, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type, x-stamp' },
  })
}

function relayPost(svc: TestService, path: string, origin: string) {
  return fetch(`${svc.url}/auth${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: origin }, body: '{}' })
}

/** The `reason`s a wire error body names. */
async function reasons(res: Response): Promise<string[]> {
  const body = (await res.json()) as { details?: Array<{ reason?: string }> }
  return (body.details ?? []).map((d) => d.reason ?? '')
}

describe('a Firefox add-on origin at the service and relay', () => {
  let dev: TestService
  let production: TestService
  let operator: TestService

  beforeAll(async () => {
    // The development defaults (NODE_ENV unset, as `npm start` runs the service): nothing set by hand.
    dev = await startTestService()
    production = await startTestService({ allowedOrigins: resolveConfig({ NODE_ENV: 'production' }).allowedOrigins })
    operator = await startTestService({
      allowedOrigins: resolveConfig({ NODE_ENV: 'production', SIGIL_ALLOWED_ORIGINS: 'moz-extension://*' }).allowedOrigins,
    })
  })

  afterAll(async () => {
    await Promise.all([dev?.stop(), production?.stop(), operator?.stop()])
  })

  it('development: the interface and the relay answer the preflight for that origin', async () => {
    for (const url of [`${dev.url}/public/v1/query/whoami`, `${dev.url}/auth/v1/otp_init`]) {
      const res = await preflight(url, FIREFOX)
      expect(res.status).toBe(204)
      expect(res.headers.get('access-control-allow-origin')).toBe(FIREFOX)
      expect(res.headers.get('access-control-allow-headers')).toMatch(/Content-Type/)
      expect(res.headers.get('access-control-allow-credentials')).toBeNull()
    }
  })

  it('development: the signed identity and relay calls are readable by that origin', async () => {
    const identity = await fetch(`${dev.url}${SERVICE_IDENTITY_PATH}`, { headers: { Origin: FIREFOX } })
    expect(identity.status).toBe(200)
    expect(identity.headers.get('access-control-allow-origin')).toBe(FIREFOX)
    const relayed = await relayPost(dev, RELAY_IDENTITY_PATH, FIREFOX)
    expect(relayed.status).toBe(200)
    expect(relayed.headers.get('access-control-allow-origin')).toBe(FIREFOX)
    expect(await relayed.json()).toEqual(await identity.json())
    const config = await relayPost(dev, '/v1/wallet_kit_config', FIREFOX)
    expect(config.status).toBe(200)
    expect(((await config.json()) as { organizationId: string }).organizationId).toBe(dev.admin.organizationId)
  })

  it('development: a malformed moz-extension origin is refused as any stranger is', async () => {
    for (const origin of ['moz-extension://x', `${FIREFOX}.evil.com`, `${FIREFOX}:80`]) {
      expect((await preflight(`${dev.url}/auth/v1/otp_init`, origin)).status).toBe(403)
      const res = await relayPost(dev, '/v1/wallet_kit_config', origin)
      expect(res.status).toBe(403)
      expect(await reasons(res)).toContain('ORIGIN_NOT_ALLOWED')
    }
  })

  it('production defaults: the preflight is refused and the relay says ORIGIN_NOT_ALLOWED', async () => {
    const pre = await preflight(`${production.url}/auth/v1/otp_init`, FIREFOX)
    expect(pre.status).toBe(403)
    expect(pre.headers.get('access-control-allow-origin')).toBeNull()
    expect((await preflight(`${production.url}/public/v1/query/whoami`, FIREFOX)).status).toBe(403)
    const identity = await fetch(`${production.url}${SERVICE_IDENTITY_PATH}`, { headers: { Origin: FIREFOX } })
    expect(identity.headers.get('access-control-allow-origin')).toBeNull()
    const res = await relayPost(production, RELAY_IDENTITY_PATH, FIREFOX)
    expect(res.status).toBe(403)
    expect(await reasons(res)).toContain('ORIGIN_NOT_ALLOWED')
  })

  it('production with SIGIL_ALLOWED_ORIGINS=moz-extension://*: any add-on origin is answered, a malformed one is not', async () => {
    const pre = await preflight(`${operator.url}/auth/v1/otp_init`, FIREFOX)
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-origin')).toBe(FIREFOX)
    expect((await relayPost(operator, RELAY_IDENTITY_PATH, FIREFOX)).status).toBe(200)
    const bad = await relayPost(operator, RELAY_IDENTITY_PATH, `${FIREFOX}:80`)
    expect(bad.status).toBe(403)
    expect(await reasons(bad)).toContain('ORIGIN_NOT_ALLOWED')
    // localhost pages stay out in production
    expect((await relayPost(operator, RELAY_IDENTITY_PATH, 'http://localhost:5173')).status).toBe(403)
  })
})
