/**
 * Every method of the official `@turnkey/http` client that Sigil serves is
 * accepted with the activity type that method sends. The client is walked through its `stamp*`
 * methods (they build the request without sending it); the types come from its OpenAPI types.
 */
import { TurnkeyClient } from '@turnkey/http'
import { describe, expect, it } from 'vitest'
import { coverage, hostedPaths } from '../../../scripts/apiCoverage.js'
import { queryByPath, submitByPath } from '../../../src/api/registry.js'

const stamper = { stamp: async () => ({ stampHeaderName: 'X-Stamp', stampHeaderValue: 'unused' }) }

/** Method name → path, from the client itself. */
async function clientPaths(): Promise<Map<string, string>> {
  const client = new TurnkeyClient({ baseUrl: 'http://sigil.invalid' }, stamper)
  const out = new Map<string, string>()
  const members = client as unknown as Record<string, unknown>
  for (const [name, fn] of Object.entries(members)) {
    if (!name.startsWith('stamp') || typeof fn !== 'function') continue
    // `stampX` builds the request of method `x`; `stampLogin` itself is the stamp_login method.
    const base = name.slice('stamp'.length)
    if (typeof members[base.charAt(0).toLowerCase() + base.slice(1)] !== 'function') continue
    const r = (await fn({})) as { url?: unknown }
    if (typeof r?.url === 'string') out.set(base, new URL(r.url).pathname)
  }
  return out
}

describe('the official client against the registry', () => {
  it('reads the hosted paths and the type each submit path declares', () => {
    const hosted = hostedPaths()
    expect(hosted.length).toBeGreaterThan(150)
    expect(hosted.find((h) => h.path === '/public/v1/submit/create_users')?.type).toBe('ACTIVITY_TYPE_CREATE_USERS_V4')
    expect(hosted.find((h) => h.path === '/public/v1/query/get_activity')?.kind).toBe('query')
  })

  it('every client method Sigil serves accepts the type that method sends', async () => {
    const methods = await clientPaths()
    expect(methods.size).toBeGreaterThan(150)
    const typeByPath = new Map(hostedPaths().map((h) => [h.path, h.type]))
    const served: string[] = []
    const refused: string[] = []
    for (const [method, path] of methods) {
      const submit = submitByPath.get(path)
      if (!submit && !queryByPath.has(path)) continue
      served.push(method)
      const type = typeByPath.get(path)
      if (submit && type && !submit.some((d) => d.type === type)) refused.push(`${method} (${path}) sends ${type}`)
    }
    expect(refused).toEqual([])
    // What Sigil serves includes the everyday calls of the issue that it answers so far.
    expect(served).toEqual(expect.arrayContaining(['CreateUsers', 'GetActivity', 'SignRawPayload', 'CreatePolicy', 'GetPolicies']))
  })

  it('the coverage table agrees with the registry', () => {
    const rows = coverage()
    for (const r of rows) expect(r.served).toBe(submitByPath.has(r.path) || queryByPath.has(r.path))
    expect(rows.filter((r) => r.typeAccepted === false)).toEqual([])
  })
})
