/**
 * "Continue with …" in the background (src/extension/background/login/oauth.ts), with a fake browser
 * whose fetch goes to the real local service (its relay and its dev identity provider) and whose
 * sign-in window is driven over HTTP as a person would: the authorize page, the email form, the
 * redirect. The happy path signs up then logs in to the same account; a wrong `state`, an ID token
 * for another nonce and a closed window are refused before anything reaches the relay.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createCore } from '@/src/extension/background/core'
import { loginWithOauth, oauthProviders } from '@/src/extension/background/login/oauth'
import { EXTENSION_ORIGIN } from '@/src/api/identity'
import { startTestService, type TestService } from '../../../../integration/helpers/service'
import { fakeDeps, pinService } from '../../fakeDeps'

const REDIRECT = 'https://enibeleniamgnfhbmpkkldfacbjikdfa.chromiumapp.org/oidc'
let svc: TestService

beforeAll(async () => {
  svc = await startTestService()
}, 60_000)
afterAll(async () => {
  await svc?.stop()
})

/** Plays the person in the provider's window: loads the page, submits the email, returns the redirect. */
async function signInAs(email: string, tamper: (u: URL) => void = () => {}) {
  return async (url: string) => {
    const u = new URL(url)
    tamper(u)
    const page = await fetch(u)
    expect(page.status).toBe(200)
    const form = new URLSearchParams([...u.searchParams.entries(), ['email', email]])
    const res = await fetch(`${u.origin}${u.pathname}`, { method: 'POST', body: form, redirect: 'manual', headers: { Origin: u.origin } })
    expect(res.status).toBe(302)
    return res.headers.get('location') as string
  }
}

async function browser(flow?: (url: string) => Promise<string>) {
  const f = fakeDeps()
  const paths: string[] = []
  vi.mocked(f.deps.fetch).mockImplementation((async (url: string, init?: RequestInit) => {
    paths.push(new URL(url).pathname)
    return fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), Origin: EXTENSION_ORIGIN } })
  }) as never)
  f.deps.now = () => Date.now()
  const deps = { ...f.deps, ...(flow ? { webAuthFlow: flow, authRedirectUrl: () => REDIRECT } : {}) }
  const core = createCore(deps)
  await pinService(f.deps.local, svc.url)
  return { core, paths }
}

describe('OAuth login in the background', () => {
  it('lists the providers the relay announces only when the browser can run a sign-in window', async () => {
    const without = await browser()
    expect(await oauthProviders(without.core)).toEqual([])
    const withFlow = await browser(await signInAs('a@example.test'))
    expect(await oauthProviders(withFlow.core)).toEqual([{ name: 'Sigil dev', issuer: `${svc.url}/dev/oidc` }])
  })

  it('signs up on first use, then logs in to the same account; the session key is its own', async () => {
    const email = `bg-${Date.now()}@example.test`
    const issuer = `${svc.url}/dev/oidc`
    const first = await browser(await signInAs(email))
    const a = await loginWithOauth(first.core, { issuer })
    expect(a).toMatchObject({ method: 'oauth', username: email })
    expect(first.paths).toContain('/auth/v1/signup_v2')
    const second = await browser(await signInAs(email))
    const b = await loginWithOauth(second.core, { issuer })
    expect(b.organizationId).toBe(a.organizationId)
    expect(b.publicKeyHex).not.toBe(a.publicKeyHex)
    expect(second.paths).not.toContain('/auth/v1/signup_v2')
  })

  it('refuses a redirect with another state, a token for another nonce, and a closed window, reaching no account path', async () => {
    const issuer = `${svc.url}/dev/oidc`
    const wrongState = await browser(async (url) => {
      const back = new URL(await (await signInAs('s@example.test'))(url))
      back.searchParams.set('state', 'forged')
      return back.toString()
    })
    await expect(loginWithOauth(wrongState.core, { issuer })).rejects.toMatchObject({ code: 'SERVICE_UNVERIFIED' })
    expect(wrongState.paths.some((p) => p.startsWith('/auth/v1/account') || p.startsWith('/auth/v1/signup'))).toBe(false)

    const otherNonce = await browser(await signInAs('n@example.test', (u) => u.searchParams.set('nonce', 'f'.repeat(64))))
    await expect(loginWithOauth(otherNonce.core, { issuer })).rejects.toMatchObject({ code: 'SERVICE_UNVERIFIED' })
    expect(otherNonce.paths.some((p) => p.startsWith('/auth/v1/account'))).toBe(false)

    const closed = await browser(async () => {
      throw new Error('The user did not approve access.')
    })
    await expect(loginWithOauth(closed.core, { issuer })).rejects.toMatchObject({
      code: 'NO_PENDING_LOGIN',
      message: 'Sign-in with Sigil dev was closed before it finished.',
    })
    await expect(loginWithOauth(closed.core, { issuer: 'https://evil.example' })).rejects.toMatchObject({ field: 'issuer' })
  })
})

describe('a provider configured for the implicit flow (response_type=id_token)', () => {
  it('takes the ID token from the redirect fragment, checks state and nonce, and logs in', async () => {
    const { startTestIssuer } = await import('../../../../helpers/oidcIssuer')
    const { parseOidcIssuers } = await import('@/src/service/oidc/issuers')
    const idp = await startTestIssuer({ audience: 'ext-client' })
    const implicitSvc = await startTestService({
      devOidc: false,
      oidcIssuers: parseOidcIssuers(
        JSON.stringify([
          {
            issuer: idp.issuer,
            audiences: ['ext-client'],
            jwksUri: idp.jwksUri,
            name: 'Implicit IdP',
            authorizationEndpoint: `${idp.issuer}/authorize`,
            flow: 'implicit',
          },
        ]),
      ),
    })
    try {
      const seen: URL[] = []
      const flow = async (url: string) => {
        const u = new URL(url)
        seen.push(u)
        const token = await idp.sign({ sub: 'imp-1', email: 'imp@example.test', nonce: u.searchParams.get('nonce') })
        return `${REDIRECT}#id_token=${token}&state=${u.searchParams.get('state')}`
      }
      const f = fakeDeps()
      vi.mocked(f.deps.fetch).mockImplementation((async (url: string, init?: RequestInit) =>
        fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), Origin: EXTENSION_ORIGIN } })) as never)
      f.deps.now = () => Date.now()
      const core = createCore({ ...f.deps, webAuthFlow: flow, authRedirectUrl: () => REDIRECT })
      await pinService(f.deps.local, implicitSvc.url)
      expect(await oauthProviders(core)).toEqual([{ name: 'Implicit IdP', issuer: idp.issuer }])
      const record = await loginWithOauth(core, { issuer: idp.issuer })
      expect(record).toMatchObject({ method: 'oauth', username: 'imp@example.test' })
      expect(seen[0]?.searchParams.get('response_type')).toBe('id_token')
      expect(seen[0]?.searchParams.get('code_challenge')).toBeNull()

      // A fragment whose state is not ours is refused.
      const forged = createCore({
        ...f.deps,
        webAuthFlow: async (url) => (await flow(url)).replace(/state=[^&]+$/, 'state=forged'),
        authRedirectUrl: () => REDIRECT,
      })
      await expect(loginWithOauth(forged, { issuer: idp.issuer })).rejects.toMatchObject({ code: 'SERVICE_UNVERIFIED' })
    } finally {
      await implicitSvc.stop()
      await idp.stop()
    }
  })
})
