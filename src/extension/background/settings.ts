/**
 * User settings (issue 7 "settings screen"): service and relay URLs and the auto-lock time.
 * Persisted in `storage.local` as a versioned record (style.md habit 9), parsed with zod on
 * read (habit 5); anything unreadable falls back to the defaults. Not secret.
 */
import { z } from 'zod'
import type { StorageAreaLike } from './storageArea'

/** Storage key of the settings record. */
export const SETTINGS_KEY = 'sigil.settings'

/** Version of the stored settings record. */
export const SETTINGS_VERSION = 1

const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((s) => {
    try {
      const u = new URL(s)
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.username === '' && u.password === ''
    } catch {
      return false
    }
  }, 'must be an http(s) URL')
  .transform((s) => s.replace(/\/+$/, ''))

/** Settings as the popup edits them. */
export const SettingsSchema = z.object({
  apiBaseUrl: httpUrl,
  relayUrl: httpUrl,
  autoLockMinutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60),
})
/** Validated settings. */
export type Settings = z.output<typeof SettingsSchema>

/** Out of the box: the local service and relay of `npm start` (wire-formats A6). */
export const DEFAULT_SETTINGS: Settings = {
  apiBaseUrl: 'http://127.0.0.1:8787',
  relayUrl: 'http://127.0.0.1:8787/auth',
  autoLockMinutes: 15,
}

const Stored = z.object({ v: z.literal(SETTINGS_VERSION), settings: SettingsSchema })

/** Read the settings; defaults when nothing (valid) is stored. */
export async function loadSettings(area: StorageAreaLike): Promise<Settings> {
  const raw = (await area.get(SETTINGS_KEY))[SETTINGS_KEY]
  const parsed = Stored.safeParse(raw)
  return parsed.success ? parsed.data.settings : { ...DEFAULT_SETTINGS }
}

/** Validate and store new settings; returns what was stored. */
export async function saveSettings(area: StorageAreaLike, input: z.input<typeof SettingsSchema>): Promise<Settings> {
  const settings = SettingsSchema.parse(input)
  await area.set({ [SETTINGS_KEY]: { v: SETTINGS_VERSION, settings } })
  return settings
}
