/**
 * The last account's way back in, kept in the persistent area so the login
 * screen can offer it after a lock or logout: how it logged in, its email, whether it has a
 * passkey and, when it used one, that passkey's credential id (so the next login asks for that
 * credential only). Nothing here is secret: no key, code, bundle or session.
 */
import { z } from 'zod'
import { LOGIN_METHODS } from '../session/sessionRecord'
import type { StorageAreaLike } from '../storage/storageArea'

/** Storage key (persistent area) of the last login. */
export const LAST_LOGIN_KEY = 'sigil.lastLogin'

/** A WebAuthn credential id, base64url. */
export const CredentialId = z
  .string()
  .min(1)
  .max(1366)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be a base64url credential id')

/** The stored last login (version 1). */
export const LastLogin = z.object({
  v: z.literal(1),
  method: z.enum(LOGIN_METHODS),
  email: z.string().max(320).optional(),
  hasPasskey: z.boolean(),
  credentialId: CredentialId.optional(),
  /**
   * The account's passkeys when it logged in another way (email or SMS): the unlock then accepts
   * one of these only, never a passkey of another account on the same authenticator.
   */
  credentialIds: z.array(CredentialId).max(10).optional(),
})
/** A parsed last login. */
export type LastLogin = z.output<typeof LastLogin>

/** Read the last login; `undefined` when absent or unreadable. */
export async function readLastLogin(area: StorageAreaLike): Promise<LastLogin | undefined> {
  const parsed = LastLogin.safeParse((await area.get(LAST_LOGIN_KEY))[LAST_LOGIN_KEY])
  return parsed.success ? parsed.data : undefined
}

/** Remember the last login. */
export async function writeLastLogin(area: StorageAreaLike, value: Omit<LastLogin, 'v'>): Promise<void> {
  await area.set({ [LAST_LOGIN_KEY]: { v: 1, ...value } })
}
