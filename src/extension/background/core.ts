/**
 * The background's session core: one session at a time, its signing key sealed in
 * the KeyStore (wrapped in IndexedDB, the wrapping key in memory-only
 * `storage.session`, a non-extractable copy in memory) and its metadata in `storage.session`,
 * re-hydrated when the service worker wakes; a key slot without a live session is deleted then.
 * Idle auto-lock and expiry run on `alarms`; lock, logout and expiry wipe keys, session and
 * pending steps, and notify wipe listeners (pending approvals are rejected there, style.md
 * habit 7). Lock, logout and auto-lock also revoke the key at the service (session/revocation.ts).
 *
 * Renewal (session/renewal.ts): while the wallet is unlocked, the session key is replaced by a
 * fresh one before it ends, on an alarm at 2/3 of its life and on demand when a request finds
 * less than a margin left. The switch is one assignment of `active`, so a request sees the old
 * session or the new one, never a mix; the old key is revoked once the requests that hold it
 * are done. An idle wallet is not renewed: the auto-lock still ends it.
 */
import { createClient, type SigilClient } from '../../api/client'
import type { Stamper } from '../../api/stamper'
import { createWebCryptoStamper } from '../../crypto/stamp'
import { issueSession, renewAt, renewMarginMs } from './session/renewal'
import { ExtensionError, isSessionKeyRejected } from './failures'
import { isKeyPair, KEY_SLOTS, keepKey, type KeySlot, type KeyStore } from './session/keyStore'
import { clearAllPending } from './login/pending'
import { createRelayClient, type RelayClient } from './service/relay'
import {
  pendingFor,
  readPendingRevocation,
  REVOKE_ALARM,
  REVOKE_KEY,
  REVOKE_RETRY_MS,
  revokeApiKey,
  type RevokeOutcome,
} from './session/revocation'
import {
  LAST_END_KEY,
  readLastEnd,
  readSessionRecord,
  SESSION_KEY,
  writeSessionRecord,
  type EndReason,
  type SessionRecord,
} from './session/sessionRecord'
import { verifyService, type VerifiedService } from './service/trust'
import { loadSettings, savePreferences, type PreferencesSchema, type Settings } from './service/settings'
import type { StorageAreaLike } from './storage/storageArea'
import type { z } from 'zod'

/** How long a successful check of the service's identity is reused. */
export const SERVICE_CHECK_TTL_MS = 5 * 60_000

/** Alarm names. */
export const AUTO_LOCK_ALARM = 'sigil-autolock'
export const EXPIRY_ALARM = 'sigil-expiry'
export const RENEW_ALARM = 'sigil-renew'

/** The slice of `browser.alarms` used. */
export type AlarmsLike = {
  create(name: string, info: { when: number }): unknown
  clear(name: string): Promise<unknown>
}

/** Everything the core touches outside itself (injected; fakes in unit tests). */
export type CoreDeps = {
  keyStore: KeyStore
  /** `browser.storage.local`: settings. */
  local: StorageAreaLike
  /** `browser.storage.session`: session metadata and pending steps. */
  session: StorageAreaLike
  alarms: AlarmsLike
  /** Open a URL in a new tab (`browser.tabs.create`). */
  openTab(url: string): Promise<void>
  /**
   * Runs an OAuth authorization in the browser's own window (`browser.identity.launchWebAuthFlow`,
   * interactive) and resolves with the URL it was redirected to; absent where the browser has none.
   */
  webAuthFlow?: (url: string) => Promise<string>
  /** The redirect URL the browser intercepts for {@link webAuthFlow} (`browser.identity.getRedirectURL`). */
  authRedirectUrl?: () => string
  fetch?: typeof globalThis.fetch
  now?: () => number
}

/** A live session: its record and a stamper over the non-extractable key. */
export type ActiveSession = { record: SessionRecord; stamper: Stamper & { publicKeyHex: string } }

/** Data a new session starts with (`authenticatedAt` defaults to now: a login is a proof). */
export type NewSession = Omit<SessionRecord, 'v' | 'lastActiveAt' | 'createdAt' | 'authenticatedAt' | 'renewedAt'> & {
  authenticatedAt?: number
}

/** The core used by every popup method. */
export type Core = {
  deps: CoreDeps
  now(): number
  settings(): Promise<Settings>
  savePreferences(input: z.input<typeof PreferencesSchema>): Promise<Settings>
  /** The configured service and relay, checked against the pinned identity (cached a few minutes). */
  service(): Promise<VerifiedService>
  /** Forget the cached check (after the connection changed). */
  forgetService(): void
  /** A client of the verified relay. */
  relay(): Promise<RelayClient>
  /** A typed API client for the verified service, stamped by `stamper`. */
  api(stamper: Stamper): Promise<SigilClient>
  /** The live session or null (expired/idle sessions are wiped on the way). */
  current(): Promise<ActiveSession | null>
  /** The live session, marked active; throws NOT_LOGGED_IN / SESSION_EXPIRED. */
  requireSession(): Promise<ActiveSession>
  /** Run `fn` with the session's client; a refused session key ends the session. */
  withSession<T>(fn: (client: SigilClient, session: ActiveSession) => Promise<T>): Promise<T>
  /**
   * Start a session with `signingKey` (extractable, sealed here and dropped), or with the key
   * already sealed in `{ sealedSlot }` (moved, never unwrapped).
   */
  startSession(data: NewSession, signingKey: CryptoKey | { sealedSlot: KeySlot }): Promise<SessionRecord>
  wipe(reason: EndReason): Promise<void>
  onAlarm(name: string): Promise<void>
  /** Worker start: re-hydrate (deleting a key slot without a live session), retry a pending revocation. */
  startup(): Promise<void>
  /** Replace the session key by a fresh one now (the renewal alarm and on-demand renewal call this); the session after. */
  renew(): Promise<ActiveSession | null>
  /** Record that the user proved themselves again (a password re-check): sets `authenticatedAt`. */
  markAuthenticated(): Promise<number>
  /** Retry a pending revocation now; `undefined` when none is pending. */
  retryRevocation(): Promise<RevokeOutcome | undefined>
  /** Called with the reason on every wipe; returns an unsubscribe function. */
  onWipe(listener: (reason: EndReason) => void): () => void
  /** Called with the record each time a session starts (a dApp waiting for a login goes on); returns an unsubscribe function. */
  onSession(listener: (record: SessionRecord) => void): () => void
  lastEnd(): ReturnType<typeof readLastEnd>
}

/** Create the {@link Core}. */
export function createCore(deps: CoreDeps): Core {
  const now = deps.now ?? Date.now
  const listeners = new Set<(reason: EndReason) => void>()
  const sessionListeners = new Set<(record: SessionRecord) => void>()
  /** `undefined` until re-hydrated from storage after a (re)start. */
  let active: ActiveSession | null | undefined
  let hydrating: Promise<ActiveSession | null> | undefined
  /** Requests running in each session (by its object): a renewed-away key is revoked when its count is 0. */
  const inflight = new Map<ActiveSession, number>()
  /** Sessions replaced by a renewal whose key waits for its requests before it is revoked. */
  const retired = new Set<ActiveSession>()
  let renewing: Promise<ActiveSession | null> | undefined

  const settings = () => loadSettings(deps.local)
  const fetchOpt = deps.fetch ? { fetch: deps.fetch } : {}

  function activate(record: SessionRecord, key: CryptoKey): ActiveSession {
    return { record, stamper: createWebCryptoStamper({ privateKey: key, publicKeyHex: record.publicKeyHex }) }
  }

  async function hydrate(): Promise<ActiveSession | null> {
    // After a browser restart the wrapping key is gone: every sealed slot is unreadable, drop them.
    await deps.keyStore.sweep?.()
    const record = await readSessionRecord(deps.session)
    if (!record) {
      // A key without a live session (browser restart, or a start cut short) must not linger.
      await deps.keyStore.delete('session')
      return null
    }
    const key = await deps.keyStore.get('session')
    if (key === undefined || isKeyPair(key)) {
      await wipe('expired')
      return null
    }
    return activate(record, key)
  }

  async function wipe(reason: EndReason, keep?: KeySlot): Promise<void> {
    // Lock, logout and auto-lock revoke the key; an expired (or refused) key needs no revoking.
    const ending = reason === 'expired' ? null : active === undefined ? await loaded() : active
    active = null
    if (ending) {
      await deps.keyStore.move('session', 'revoking')
      await deps.local.set({ [REVOKE_KEY]: pendingFor(ending.record) })
    }
    await Promise.allSettled([
      ...KEY_SLOTS.filter((slot) => slot !== 'revoking' && slot !== keep).map((slot) => deps.keyStore.delete(slot)),
      deps.session.remove(SESSION_KEY),
      clearAllPending(deps.session),
      deps.session.remove('sigil.lastOnRamp'),
      deps.alarms.clear(AUTO_LOCK_ALARM),
      deps.alarms.clear(EXPIRY_ALARM),
      deps.alarms.clear(RENEW_ALARM),
    ])
    await deps.session.set({ [LAST_END_KEY]: { reason, at: now() } })
    for (const l of listeners) {
      try {
        l(reason)
      } catch {
        // a listener's failure must not stop the wipe
      }
    }
    if (ending) await revoke(ending.stamper)
  }

  let revoking: Promise<RevokeOutcome | undefined> = Promise.resolve(undefined)

  /** Attempt the pending revocation (with `stamper`, or the sealed key of the `revoking` slot). */
  function revoke(stamper?: Stamper): Promise<RevokeOutcome | undefined> {
    const attempt = async (): Promise<RevokeOutcome | undefined> => {
      const pending = await readPendingRevocation(deps.local)
      if (!pending) return undefined
      const drop = () =>
        Promise.allSettled([deps.local.remove(REVOKE_KEY), deps.keyStore.delete('revoking'), deps.alarms.clear(REVOKE_ALARM)])
      const key = stamper ? undefined : await deps.keyStore.get('revoking')
      if (now() >= pending.expiresAt || (!stamper && (key === undefined || isKeyPair(key)))) {
        await drop()
        return 'gone'
      }
      const signer = stamper ?? createWebCryptoStamper({ privateKey: key as CryptoKey, publicKeyHex: pending.publicKeyHex })
      const { apiBaseUrl } = await settings()
      const outcome = await revokeApiKey({ apiBaseUrl, stamper: signer, ...fetchOpt }, pending)
      if (outcome === 'offline') await deps.alarms.create(REVOKE_ALARM, { when: now() + REVOKE_RETRY_MS })
      else await drop()
      return outcome
    }
    revoking = revoking.then(attempt, attempt)
    return revoking
  }

  async function loaded(): Promise<ActiveSession | null> {
    if (active === undefined) {
      hydrating ??= hydrate().finally(() => (hydrating = undefined))
      const value = await hydrating
      if (active === undefined) active = value
    }
    return active
  }

  /** The session, or the reason it is gone (expired/idle sessions are wiped here). */
  async function check(): Promise<ActiveSession | 'expired' | 'auto-lock' | null> {
    const s = await loaded()
    if (!s) return null
    const t = now()
    if (t >= s.record.expiresAt) {
      await wipe('expired')
      return 'expired'
    }
    const { autoLockMinutes } = await settings()
    if (t - s.record.lastActiveAt >= autoLockMinutes * 60_000) {
      await wipe('auto-lock')
      return 'auto-lock'
    }
    return s
  }

  async function touch(s: ActiveSession): Promise<void> {
    const t = now()
    s.record = { ...s.record, lastActiveAt: t }
    await writeSessionRecord(deps.session, s.record)
    const { autoLockMinutes } = await settings()
    await deps.alarms.create(AUTO_LOCK_ALARM, { when: t + autoLockMinutes * 60_000 })
  }

  async function requireSession(): Promise<ActiveSession> {
    const s = await check()
    if (s === 'expired') throw new ExtensionError('SESSION_EXPIRED', 'Your session has expired. Please log in again.')
    if (s === 'auto-lock')
      throw new ExtensionError('SESSION_EXPIRED', 'The wallet locked itself after a while without use. Please log in again.')
    if (s === null) throw new ExtensionError('NOT_LOGGED_IN', 'You are not logged in.')
    await touch(s)
    const issued = s.record.renewedAt ?? s.record.createdAt
    if (s.record.expiresAt - now() < renewMarginMs(issued, s.record.expiresAt)) {
      // Nearly over: renew first so the request does not meet the end of the session.
      const renewed = await renew().catch(() => null)
      if (renewed) return renewed
      const still = await check()
      if (typeof still !== 'object' || still === null)
        throw new ExtensionError('SESSION_EXPIRED', 'Your session has expired. Please log in again.')
      return still
    }
    return s
  }

  /** Arm the renewal alarm of `record`. */
  async function armRenewal(record: SessionRecord): Promise<void> {
    const { sessionSeconds } = await settings()
    await deps.alarms.create(RENEW_ALARM, { when: renewAt(record.renewedAt ?? record.createdAt, record.expiresAt, sessionSeconds) })
  }

  /** Revoke the key of a session a renewal replaced, once no request uses it (best effort: it expires anyway). */
  function retire(old: ActiveSession): void {
    if ((inflight.get(old) ?? 0) > 0) {
      retired.add(old)
      return
    }
    retired.delete(old)
    void settings()
      .then(({ apiBaseUrl }) => revokeApiKey({ apiBaseUrl, stamper: old.stamper, ...fetchOpt }, pendingFor(old.record)))
      .catch(() => undefined)
  }

  /** One renewal at a time; `null` when there is no session to renew (or it ended meanwhile). */
  function renew(): Promise<ActiveSession | null> {
    renewing ??= renewOnce().finally(() => (renewing = undefined))
    return renewing
  }

  async function renewOnce(): Promise<ActiveSession | null> {
    const s = await check()
    if (typeof s !== 'object' || s === null) return null
    const { sessionSeconds } = await settings()
    let issued: Awaited<ReturnType<typeof issueSession>>
    try {
      issued = await issueSession(
        { service: await service(), stamper: s.stamper, ...fetchOpt, now },
        { organizationId: s.record.organizationId, userId: s.record.userId },
        sessionSeconds,
      )
    } catch (err) {
      if (isSessionKeyRejected(err) && active === s) await wipe('expired')
      else if (active === s && now() < s.record.expiresAt) {
        // Unreachable for now: try again before the end (on-demand renewal tries too).
        const left = s.record.expiresAt - now()
        await deps.alarms.create(RENEW_ALARM, { when: now() + Math.max(2_000, Math.min(60_000, Math.floor(left / 3))) })
      }
      throw err
    }
    const kept = await keepKey(deps.keyStore, 'renewing', issued.key.privateKey)
    const record: SessionRecord = {
      ...s.record,
      publicKeyHex: issued.key.publicKeyHex,
      expiresAt: issued.expiresAt,
      renewedAt: now(),
    }
    if (issued.apiKeyId) record.apiKeyId = issued.apiKeyId
    else delete record.apiKeyId
    if (active !== s) {
      // Locked, logged out or replaced while the service answered: the new key must not live on.
      await deps.keyStore.delete('renewing')
      const { apiBaseUrl } = await settings()
      await revokeApiKey({ apiBaseUrl, stamper: activate(record, kept).stamper, ...fetchOpt }, pendingFor(record))
      return active ?? null
    }
    // The switch: one assignment, so every request sees the old session or the new one.
    const next = activate(record, kept)
    active = next
    await deps.keyStore.move('renewing', 'session')
    if (active !== next) return active ?? null
    await writeSessionRecord(deps.session, record)
    if (active !== next) {
      // A wipe ran during the write: make sure the record it removed stays removed.
      await deps.session.remove(SESSION_KEY)
      return null
    }
    await deps.alarms.create(EXPIRY_ALARM, { when: record.expiresAt })
    await armRenewal(record)
    retire(s)
    return next
  }

  let verified: { key: string; at: number; value: Promise<VerifiedService> } | undefined
  async function service(): Promise<VerifiedService> {
    const s = await settings()
    const key = `${s.apiBaseUrl}\n${s.relayUrl}\n${s.identityKey}`
    const t = now()
    if (!verified || verified.key !== key || t - verified.at > SERVICE_CHECK_TTL_MS) {
      const value = verifyService({ apiBaseUrl: s.apiBaseUrl, relayUrl: s.relayUrl, pinnedKey: s.identityKey }, deps.fetch)
      verified = { key, at: t, value }
      // A failed check is not cached: the next call tries again.
      value.catch(() => {
        if (verified?.value === value) verified = undefined
      })
    }
    return verified.value
  }

  async function api(stamper: Stamper): Promise<SigilClient> {
    const { apiBaseUrl } = await service()
    return createClient({ baseUrl: apiBaseUrl, stamper, ...fetchOpt })
  }

  return {
    deps,
    now,
    settings,
    async savePreferences(input) {
      const saved = await savePreferences(deps.local, input)
      // A new session length applies to the live session's next renewal.
      const s = active ?? null
      if (s) await armRenewal(s.record)
      return saved
    },
    service,
    forgetService() {
      verified = undefined
    },
    async relay() {
      const { relayUrl } = await service()
      return createRelayClient({ baseUrl: relayUrl, ...fetchOpt })
    },
    api,
    async current() {
      const s = await check()
      return typeof s === 'object' ? s : null
    },
    requireSession,
    async withSession(fn) {
      const s = await requireSession()
      inflight.set(s, (inflight.get(s) ?? 0) + 1)
      try {
        return await fn(await api(s.stamper), s)
      } catch (err) {
        if (isSessionKeyRejected(err)) {
          // Only the live key's refusal ends the session (a renewed-away key is not the session).
          if (active === s) await wipe('expired')
          throw new ExtensionError('SESSION_EXPIRED', 'The service no longer accepts this session. Please log in again.')
        }
        throw err
      } finally {
        const left = (inflight.get(s) ?? 1) - 1
        if (left > 0) inflight.set(s, left)
        else {
          inflight.delete(s)
          if (retired.has(s)) retire(s)
        }
      }
    },
    async startSession(data, signingKey) {
      const sealedSlot = 'sealedSlot' in signingKey ? signingKey.sealedSlot : undefined
      if ((await loaded()) !== null) await wipe('logout', sealedSlot)
      const t = now()
      const record: SessionRecord = { v: 1, ...data, authenticatedAt: data.authenticatedAt ?? t, createdAt: t, lastActiveAt: t }
      // Sealed at rest; only the store's non-extractable copy is kept in memory.
      let key: CryptoKey
      if (sealedSlot) {
        await deps.keyStore.move(sealedSlot, 'session')
        const moved = await deps.keyStore.get('session')
        if (moved === undefined || isKeyPair(moved))
          throw new ExtensionError('NO_PENDING_LOGIN', 'The login key is gone. Please try again.')
        key = moved
      } else {
        key = await keepKey(deps.keyStore, 'session', signingKey as CryptoKey)
      }
      await writeSessionRecord(deps.session, record)
      await deps.session.remove(LAST_END_KEY)
      const { autoLockMinutes } = await settings()
      await deps.alarms.create(AUTO_LOCK_ALARM, { when: t + autoLockMinutes * 60_000 })
      await deps.alarms.create(EXPIRY_ALARM, { when: record.expiresAt })
      await armRenewal(record)
      active = activate(record, key)
      for (const l of sessionListeners) {
        try {
          l(record)
        } catch {
          // a listener's failure must not stop the login
        }
      }
      return record
    },
    wipe: (reason) => wipe(reason),
    async startup() {
      const s = await loaded()
      // A renewal due while the worker slept runs now.
      if (s) {
        const { sessionSeconds } = await settings()
        if (now() >= renewAt(s.record.renewedAt ?? s.record.createdAt, s.record.expiresAt, sessionSeconds)) await renew().catch(() => null)
        else await armRenewal(s.record)
      }
      await revoke()
    },
    renew,
    async markAuthenticated() {
      const s = await requireSession()
      s.record = { ...s.record, authenticatedAt: now() }
      await writeSessionRecord(deps.session, s.record)
      return s.record.authenticatedAt
    },
    retryRevocation: () => revoke(),
    async onAlarm(name) {
      if (name === REVOKE_ALARM) await revoke()
      // check() inside renew() locks an idle wallet instead of renewing it.
      if (name === RENEW_ALARM) await renew().catch(() => null)
      if (name === AUTO_LOCK_ALARM || name === EXPIRY_ALARM) {
        const s = await check()
        // Alarms may fire a little early; re-arm the idle alarm when the session is still fresh.
        if (typeof s === 'object' && s !== null && name === AUTO_LOCK_ALARM) {
          const { autoLockMinutes } = await settings()
          await deps.alarms.create(AUTO_LOCK_ALARM, { when: s.record.lastActiveAt + autoLockMinutes * 60_000 })
        }
      }
    },
    onWipe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    onSession(listener) {
      sessionListeners.add(listener)
      return () => sessionListeners.delete(listener)
    },
    lastEnd: () => readLastEnd(deps.session),
  }
}
