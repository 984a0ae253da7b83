/**
 * Keep the extension's storage out of reach of content scripts: settings, site
 * grants and the selected chain live in `storage.local`, and Chrome lets content scripts read
 * and write it by default, so a compromised renderer could redirect the service URLs or grant
 * itself a connection. Our content scripts only relay messages and never touch storage.
 *
 * Chrome (102+ for `session`, local too in current versions): `setAccessLevel('TRUSTED_CONTEXTS')`
 * limits an area to extension pages and the service worker. The level is not persisted, so the
 * background sets it on every start (top level of the worker, before any listener runs).
 *
 * Firefox: `storage.local` stays readable and writable by content scripts, and there is no
 * `setAccessLevel` on `storage.local` (nor on `storage.session`: undefined in Firefox ESR 153, so
 * the background logs `session` as unsupported there). `storage.session`, which holds the key
 * store's wrapping key, needs none: Firefox exposes it to privileged extension contexts only and
 * not to content scripts unless an extension widens it (MDN, storage.session and
 * StorageArea.setAccessLevel: "only available to privileged (trusted) extension contexts"), the
 * level Chrome reaches with the call above. So wherever `storage.local` could not be restricted, the
 * background keeps its persistent state ({@link PERSISTENT_KEYS}) in the extension's own
 * IndexedDB instead (idbStorageArea.ts; origin `moz-extension://…`, which content scripts, running
 * in the page's origin, cannot open): {@link choosePersistentArea}. The first such start moves
 * what an older version left in `storage.local` there, once; a marker in IndexedDB records that,
 * so a value a content script plants in `storage.local` later is never imported. Once there, the
 * state stays in IndexedDB even if a later browser can restrict `storage.local` (no data loss when
 * Firefox gains `setAccessLevel` for it).
 */
import { ADDED_CHAINS_KEY, CHAIN_KEY } from '../dapp/evm/chains'
import { WATCHED_ASSETS_KEY } from '../dapp/evm/watchAsset'
import { PERMISSIONS_KEY } from '../dapp/evm/permissions'
import { REVOKE_KEY } from '../session/revocation'
import { SETTINGS_KEY } from '../service/settings'
import type { StorageAreaLike } from './storageArea'

/** The optional `setAccessLevel` of a storage area (missing on older browsers and Firefox's local). */
export type AccessLevelArea = {
  setAccessLevel?: (opts: { accessLevel: 'TRUSTED_CONTEXTS' | 'TRUSTED_AND_UNTRUSTED_CONTEXTS' }) => Promise<void>
}

/** What happened per area: restricted, unsupported by this browser, or failed (with the message). */
export type AccessLevelResult = Record<string, 'restricted' | 'unsupported' | `failed: ${string}`>

/** Restrict every given area to trusted contexts; never throws (a failure is reported, not fatal). */
export async function restrictStorageToTrustedContexts(areas: Record<string, AccessLevelArea | undefined>): Promise<AccessLevelResult> {
  const result: AccessLevelResult = {}
  for (const [name, area] of Object.entries(areas)) {
    if (typeof area?.setAccessLevel !== 'function') {
      result[name] = 'unsupported'
      continue
    }
    try {
      await area.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' })
      result[name] = 'restricted'
    } catch (err) {
      result[name] = `failed: ${err instanceof Error ? err.message : String(err)}`
    }
  }
  return result
}

/** The `storage.local` keys the background owns: settings, site grants, sites' chains, added networks, watched tokens, pending revocation. */
export const PERSISTENT_KEYS: readonly string[] = [
  SETTINGS_KEY,
  PERMISSIONS_KEY,
  CHAIN_KEY,
  ADDED_CHAINS_KEY,
  WATCHED_ASSETS_KEY,
  REVOKE_KEY,
]

/** IndexedDB key of the one-time migration marker (present: IndexedDB holds the persistent state). */
export const MIGRATION_KEY = 'sigil.storageBackend'

const MigrationMarker = (at: number) => ({ v: 1, backend: 'indexeddb', at })

/** Where the persistent state lives, and why (for the log; never values). */
export type PersistentAreaChoice = {
  area: StorageAreaLike
  backend: 'storage.local' | 'indexeddb'
  /** Why this backend, for the log. */
  reason: string
  /** Keys moved from `storage.local` into IndexedDB by this start (names only). */
  migrated: string[]
}

/** What {@link choosePersistentArea} needs: the browser's `storage.local`, how restricting it went, an IndexedDB area. */
export type PersistentAreaOptions = {
  local: StorageAreaLike
  /** The `local` outcome of {@link restrictStorageToTrustedContexts} (undefined when not tried). */
  localAccess: AccessLevelResult[string] | undefined
  /** Create the IndexedDB area (may throw where IndexedDB is missing). */
  openIdb: () => StorageAreaLike
  now?: () => number
}

const errorText = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err))

/**
 * Pick the area for the background's persistent state; never throws.
 *
 * - IndexedDB already holds it (marker present): IndexedDB; leftovers in `storage.local` are removed.
 * - `storage.local` restricted to trusted contexts: `storage.local`.
 * - Otherwise: IndexedDB, after copying {@link PERSISTENT_KEYS} from `storage.local` in one
 *   transaction with the marker, then removing them from `storage.local`.
 * - IndexedDB unusable: `storage.local` (the state must stay usable; the reason says it is unprotected).
 */
export async function choosePersistentArea(opts: PersistentAreaOptions): Promise<PersistentAreaChoice> {
  const { local } = opts
  const restricted = opts.localAccess === 'restricted'
  const onLocal = (reason: string): PersistentAreaChoice => ({ area: local, backend: 'storage.local', reason, migrated: [] })
  let idb: StorageAreaLike
  let marked: boolean
  try {
    idb = opts.openIdb()
    marked = (await idb.get(MIGRATION_KEY))[MIGRATION_KEY] !== undefined
  } catch (err) {
    return onLocal(
      restricted ? 'restricted to trusted contexts' : `NOT restricted (${opts.localAccess}) and IndexedDB unavailable (${errorText(err)})`,
    )
  }
  const dropLeftovers = () => Promise.allSettled(PERSISTENT_KEYS.map((k) => local.remove(k)))
  if (marked) {
    await dropLeftovers()
    return { area: idb, backend: 'indexeddb', reason: 'moved there by an earlier start', migrated: [] }
  }
  if (restricted) return onLocal('restricted to trusted contexts')
  try {
    const items: Record<string, unknown> = {}
    for (const key of PERSISTENT_KEYS) {
      const value = (await local.get(key))[key]
      if (value !== undefined) items[key] = value
    }
    await idb.set({ ...items, [MIGRATION_KEY]: MigrationMarker((opts.now ?? Date.now)()) })
    await dropLeftovers()
    return { area: idb, backend: 'indexeddb', reason: `storage.local not restricted (${opts.localAccess})`, migrated: Object.keys(items) }
  } catch (err) {
    return onLocal(`NOT restricted (${opts.localAccess}) and moving to IndexedDB failed (${errorText(err)})`)
  }
}

/** One log line for a choice: the backend, why, and how many keys were moved (never values). */
export function describePersistentArea(choice: PersistentAreaChoice): string {
  const moved =
    choice.migrated.length > 0 ? `; moved ${choice.migrated.length} key(s) from storage.local: ${choice.migrated.join(', ')}` : ''
  return `storage: settings, grants and chain in ${choice.backend} (${choice.reason})${moved}`
}

/** The console methods {@link setUpStorage} logs with. */
export type StorageLog = Pick<Console, 'info' | 'warn'>

/**
 * Background start: restrict `local` and `session` to trusted contexts, then choose the persistent
 * area ({@link choosePersistentArea}) and log the outcome (never values). Never rejects.
 */
export async function setUpStorage(opts: {
  local: StorageAreaLike & AccessLevelArea
  session: AccessLevelArea | undefined
  openIdb: () => StorageAreaLike
  log?: StorageLog
}): Promise<StorageAreaLike> {
  const log = opts.log ?? console
  const access = await restrictStorageToTrustedContexts({ local: opts.local, session: opts.session })
  for (const [area, outcome] of Object.entries(access)) if (outcome.startsWith('failed')) log.warn(`storage.${area}: ${outcome}`)
  const choice = await choosePersistentArea({ local: opts.local, localAccess: access.local, openIdb: opts.openIdb })
  const unprotected = choice.backend === 'storage.local' && access.local !== 'restricted'
  if (unprotected) log.warn(describePersistentArea(choice))
  else log.info(describePersistentArea(choice))
  return choice.area
}
