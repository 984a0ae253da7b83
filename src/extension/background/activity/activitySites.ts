/**
 * Which site asked for an activity ("Signed a message for app.example"). The
 * service does not know and need not: when a dApp request the user approved in our window
 * completes as an activity (a signature, a send), the background records the requesting origin
 * (from the browser, never from the page) under the activity's id in the persistent area. The
 * popup's Activity rows read it back. Not secret (like the connected sites); versioned, parsed
 * on read, the newest {@link MAX_ACTIVITY_SITES} kept.
 */
import { z } from 'zod'
import type { StorageAreaLike } from '../storage/storageArea'

/** Storage key of the activity → origin record. */
export const ACTIVITY_SITES_KEY = 'sigil.activitySites'
/** How many activities are remembered (older ones lose their site name, nothing else). */
export const MAX_ACTIVITY_SITES = 500

const Entry = z.object({ id: z.string().min(1).max(128), origin: z.string().url().max(2048), at: z.number().int() })
const ActivitySites = z.object({ v: z.literal(1), entries: z.array(Entry).max(MAX_ACTIVITY_SITES) })

async function load(area: StorageAreaLike): Promise<Array<z.infer<typeof Entry>>> {
  const parsed = ActivitySites.safeParse((await area.get(ACTIVITY_SITES_KEY))[ACTIVITY_SITES_KEY])
  return parsed.success ? parsed.data.entries : []
}

/** One write at a time per area: two sites' requests completing together must not drop each other's entry. */
const writes = new WeakMap<StorageAreaLike, Promise<void>>()

/** Remember that `origin` asked for the activity `activityId` (best effort: a storage failure loses only the name). */
export function recordActivitySite(area: StorageAreaLike, activityId: string, origin: string, now: number): Promise<void> {
  const write = async () => {
    const entries = (await load(area)).filter((e) => e.id !== activityId)
    entries.push({ id: activityId, origin, at: now })
    await area.set({ [ACTIVITY_SITES_KEY]: { v: 1, entries: entries.slice(-MAX_ACTIVITY_SITES) } })
  }
  // The signature or send already happened; a failed write only leaves the row without the site.
  const next = (writes.get(area) ?? Promise.resolve()).then(write).catch(() => undefined)
  writes.set(area, next)
  return next
}

/** Activity id → requesting origin, for the activities dApps asked for. */
export async function activitySites(area: StorageAreaLike): Promise<Map<string, string>> {
  return new Map((await load(area)).map((e) => [e.id, e.origin]))
}

/** How a row names the site: its host (with a port when it has one), e.g. `app.example`. */
export function siteName(origin: string): string {
  try {
    return new URL(origin).host || origin
  } catch {
    return origin
  }
}
