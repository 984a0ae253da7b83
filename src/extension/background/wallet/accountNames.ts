/**
 * Account names the user gives in the popup, per user, persisted in
 * `storage.local` as one versioned record parsed on read (style.md habit 9). Not secret (public
 * addresses and labels). An account without a stored name shows its default ("Account 1…").
 */
import { z } from 'zod'
import type { ActiveSession } from '../core'
import type { StorageAreaLike } from '../storage/storageArea'

/** Storage key of the names record. */
export const ACCOUNT_NAMES_KEY = 'sigil.accountNames'

/** Version of the stored record. */
export const ACCOUNT_NAMES_VERSION = 1

/** Longest name kept. */
export const ACCOUNT_NAME_MAX = 32

const Names = z.record(z.string().max(128), z.string().max(ACCOUNT_NAME_MAX))
const Stored = z.object({ v: z.literal(ACCOUNT_NAMES_VERSION), users: z.record(z.string(), Names) })

const userKey = (s: ActiveSession) => `${s.record.organizationId}/${s.record.userId}`

async function load(area: StorageAreaLike): Promise<Record<string, Record<string, string>>> {
  const parsed = Stored.safeParse((await area.get(ACCOUNT_NAMES_KEY))[ACCOUNT_NAMES_KEY])
  return parsed.success ? parsed.data.users : {}
}

/** The session user's names by address. */
export async function readAccountNames(area: StorageAreaLike, s: ActiveSession): Promise<{ names: Record<string, string> }> {
  const users = await load(area)
  const key = userKey(s)
  return { names: Object.hasOwn(users, key) ? (users[key] ?? {}) : {} }
}

/** Name `address` for the session user; an empty name goes back to the default. */
export async function renameAccount(
  area: StorageAreaLike,
  s: ActiveSession,
  p: { address: string; name: string },
): Promise<{ names: Record<string, string> }> {
  const users = await load(area)
  const key = userKey(s)
  const { [p.address]: _old, ...rest } = Object.hasOwn(users, key) ? (users[key] ?? {}) : {}
  const names = p.name === '' ? rest : { ...rest, [p.address]: p.name }
  await area.set({ [ACCOUNT_NAMES_KEY]: { v: ACCOUNT_NAMES_VERSION, users: { ...users, [key]: names } } })
  return { names }
}
