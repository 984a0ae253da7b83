/**
 * A background core logged in to the real local service (its relay and dev identity provider), as
 * the OAuth login does in the browser, with a clock that tests can move ahead of the service's.
 * Every request's path is recorded, so a test can say what reached the service.
 */
import { vi } from 'vitest'
import { createCore } from '@/src/extension/background/core'
import { loginWithOauth } from '@/src/extension/background/login/oauth'
import { EXTENSION_ORIGIN } from '@/src/api/identity'
import { fakeDeps, pinService } from '../../fakeDeps'
import type { TestService } from '../../../../integration/helpers/service'

const REDIRECT = 'https://enibeleniamgnfhbmpkkldfacbjikdfa.chromiumapp.org/oidc'

/** The person in the provider's window: loads the page, submits `email`, returns the redirect. */
function signInAs(email: string) {
  return async (url: string) => {
    const u = new URL(url)
    await fetch(u)
    const form = new URLSearchParams([...u.searchParams.entries(), ['email', email]])
    const res = await fetch(`${u.origin}${u.pathname}`, { method: 'POST', body: form, redirect: 'manual', headers: { Origin: u.origin } })
    return res.headers.get('location') as string
  }
}

/**
 * The clock shared by the test service and the wallets talking to it: only `Date` is faked, so
 * stamps' timestamps, session JWTs and key expiry at the service all move together.
 */
export type SharedClock = { now(): number; advance(ms: number): void; restore(): void }

/** A {@link SharedClock} starting at the real time. */
export function sharedClock(): SharedClock {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true })
  return {
    now: () => Date.now(),
    advance: (ms) => vi.setSystemTime(Date.now() + ms),
    restore: () => vi.useRealTimers(),
  }
}

/** A fresh browser profile pinned to `svc` (whose clock is `clock`), logged in as `email` (a new account on first use). */
export async function liveSession(
  svc: TestService,
  clock: SharedClock = sharedClock(),
  email = `live-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`,
) {
  const f = fakeDeps()
  const paths: string[] = []
  vi.mocked(f.deps.fetch).mockImplementation((async (url: string, init?: RequestInit) => {
    paths.push(new URL(url).pathname)
    return fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), Origin: EXTENSION_ORIGIN } })
  }) as never)
  f.deps.now = clock.now
  const core = createCore({ ...f.deps, webAuthFlow: signInAs(email), authRedirectUrl: () => REDIRECT })
  await pinService(f.deps.local, svc.url)
  const record = await loginWithOauth(core, { issuer: `${svc.url}/dev/oidc` })
  return {
    core,
    f,
    paths,
    record,
    email,
    /** Move the clock (wallet and service) `ms` ahead. */
    advance: (ms: number) => clock.advance(ms),
  }
}
