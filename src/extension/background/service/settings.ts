/**
 * User settings (the settings screen; the service identity the wallet pins): the
 * service and relay URLs with the identity key pinned for them, the auto-lock time and the
 * length of one session key.
 * Persisted as a versioned record (style.md habit 9), parsed with zod on read (habit 5);
 * anything unreadable falls back to the build's defaults. Not secret.
 *
 * The URLs and the pinned key change together, only through the "connect to a service"
 * step (connect.ts); {@link savePreferences} changes the rest.
 */
import { z } from 'zod'
import { P256PublicKeyHex } from '../../../api/serviceIdentity'
import { BUILD_CONFIG } from './buildConfig'
import type { StorageAreaLike } from '../storage/storageArea'

/** Storage key of the settings record. */
export const SETTINGS_KEY = 'sigil.settings'

/** Version of the stored settings record (2: the pinned identity key). */
export const SETTINGS_VERSION = 2

/** Loopback hosts, the only ones reachable over plain `http:`. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase()
  return h === 'localhost' || h.endsWith('.localhost') || h === '[::1]' || /^127(\.\d{1,3}){3}$/.test(h)
}

/** A service or relay URL: `https:`, or `http:` on a loopback host only; no credentials, query or fragment. */
export const ServiceUrl = z
  .string()
  .trim()
  .max(2048)
  .superRefine((s, ctx) => {
    let u: URL
    try {
      u = new URL(s)
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an http(s) URL' })
      return
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:') ctx.addIssue({ code: 'custom', message: 'must be an http(s) URL' })
    else if (u.protocol === 'http:' && !isLoopbackHost(u.hostname))
      ctx.addIssue({ code: 'custom', message: 'must use https: (plain http: only for 127.0.0.1 or localhost)' })
    else if (u.username !== '' || u.password !== '' || u.search !== '' || u.hash !== '')
      ctx.addIssue({ code: 'custom', message: 'must not carry credentials, a query or a fragment' })
  })
  .transform((s) => s.replace(/\/+$/, ''))

const AutoLockMinutes = z
  .number()
  .int()
  .min(1)
  .max(24 * 60)

/** Where the wallet talks to: URLs and the identity key pinned for them. */
export const ConnectionSchema = z.object({ apiBaseUrl: ServiceUrl, relayUrl: ServiceUrl, identityKey: P256PublicKeyHex })
export type Connection = z.output<typeof ConnectionSchema>

/** Shortest and longest session asked of the service; the wallet renews it while unlocked. */
export const SESSION_SECONDS_MIN = 20
export const SESSION_SECONDS_MAX = 24 * 3600
/** The session length out of the box (the service's default too). */
export const DEFAULT_SESSION_SECONDS = 900

const SessionSeconds = z.number().int().min(SESSION_SECONDS_MIN).max(SESSION_SECONDS_MAX)

/** Where an updated phishing list is fetched from (dapp/phishing.ts): an https URL (http only on loopback), or empty for the bundled list only. */
export const PhishingListUrl = z.union([z.literal(''), ServiceUrl])

/** What the popup may change without reconnecting (each optional: only what is given changes). */
export const PreferencesSchema = z.object({
  autoLockMinutes: AutoLockMinutes.optional(),
  sessionSeconds: SessionSeconds.optional(),
  phishingListUrl: PhishingListUrl.optional(),
})

/**
 * Validated settings. `sessionSeconds` is the length of one session key: the background renews it
 * before it ends while the wallet is in use, so it bounds how long a stolen session key works,
 * not how long the user stays in (that is `autoLockMinutes`).
 */
export const SettingsSchema = ConnectionSchema.extend({
  autoLockMinutes: AutoLockMinutes,
  sessionSeconds: SessionSeconds.default(DEFAULT_SESSION_SECONDS),
  /** An updated phishing list's URL; empty or absent: the list bundled with the build. */
  phishingListUrl: PhishingListUrl.optional(),
})
export type Settings = z.output<typeof SettingsSchema>

/** Out of the box: the build's service (the local `npm start` one in development builds). */
export const DEFAULT_SETTINGS: Settings = {
  apiBaseUrl: BUILD_CONFIG.apiBaseUrl,
  relayUrl: BUILD_CONFIG.relayUrl,
  identityKey: BUILD_CONFIG.identityKey,
  autoLockMinutes: 15,
  sessionSeconds: DEFAULT_SESSION_SECONDS,
}

const Stored = z.object({ v: z.literal(SETTINGS_VERSION), settings: SettingsSchema })
/** Version 1 had no pinned key: only its auto-lock time is kept (its URLs were never verified). */
const StoredV1 = z.object({ v: z.literal(1), settings: z.object({ autoLockMinutes: AutoLockMinutes }).loose() })

/** Read the settings; the build's defaults when nothing (valid) is stored. A locked build always uses its own service. */
export async function loadSettings(area: StorageAreaLike): Promise<Settings> {
  const raw = (await area.get(SETTINGS_KEY))[SETTINGS_KEY]
  const parsed = Stored.safeParse(raw)
  if (parsed.success) {
    if (!BUILD_CONFIG.lockSettings) return parsed.data.settings
    const { autoLockMinutes, sessionSeconds, phishingListUrl } = parsed.data.settings
    return { ...DEFAULT_SETTINGS, autoLockMinutes, sessionSeconds, ...(phishingListUrl ? { phishingListUrl } : {}) }
  }
  const v1 = StoredV1.safeParse(raw)
  return v1.success ? { ...DEFAULT_SETTINGS, autoLockMinutes: v1.data.settings.autoLockMinutes } : { ...DEFAULT_SETTINGS }
}

async function store(area: StorageAreaLike, settings: Settings): Promise<Settings> {
  await area.set({ [SETTINGS_KEY]: { v: SETTINGS_VERSION, settings } })
  return settings
}

/** Change the preferences (auto-lock); the connection stays. */
export async function savePreferences(area: StorageAreaLike, input: z.input<typeof PreferencesSchema>): Promise<Settings> {
  const prefs = PreferencesSchema.parse(input)
  const current = await loadSettings(area)
  return store(area, {
    ...current,
    autoLockMinutes: prefs.autoLockMinutes ?? current.autoLockMinutes,
    sessionSeconds: prefs.sessionSeconds ?? current.sessionSeconds,
    ...((prefs.phishingListUrl ?? current.phishingListUrl) ? { phishingListUrl: prefs.phishingListUrl ?? current.phishingListUrl } : {}),
  })
}

/** Pin a new connection (connect.ts, after the user confirmed the fingerprint). */
export async function saveConnection(area: StorageAreaLike, input: z.input<typeof ConnectionSchema>): Promise<Settings> {
  const connection = ConnectionSchema.parse(input)
  return store(area, { ...(await loadSettings(area)), ...connection })
}
