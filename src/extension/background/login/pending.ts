/**
 * Multi-step logins waiting for the user (an OTP code, a passkey assertion, a recovery
 * bundle, a passkey sign-up's verified email). Kept in `storage.session` so a service-worker
 * restart between steps is harmless; their ephemeral keys are in the KeyStore. Every record
 * expires after {@link PENDING_TTL_MS}.
 */
import { z } from 'zod'
import { OtpType } from '../../../api/enums'
import type { StorageAreaLike } from '../storage/storageArea'

/** How long a pending step stays usable. */
export const PENDING_TTL_MS = 10 * 60 * 1000

const SCHEMAS = {
  otp: z.object({
    otpId: z.string(),
    otpType: OtpType,
    contact: z.string(),
    /** The service's OTP encryption target bundle, signature checked against the pinned key. */
    targetBundle: z.string(),
    createdAt: z.number(),
  }),
  passkeyLogin: z.object({
    body: z.string(),
    url: z.string(),
    publicKeyHex: z.string(),
    /** The one credential this login accepts, when Sigil knows which it expects. */
    credentialId: z.string().optional(),
    /** Or the credentials it accepts (the account's passkeys), when Sigil knows the account but not the passkey. */
    credentialIds: z.array(z.string()).max(10).optional(),
    createdAt: z.number(),
  }),
  /** A service the user is about to connect to (service/connect.ts): shown, not yet confirmed. */
  connect: z.object({ apiBaseUrl: z.string(), relayUrl: z.string(), identityKey: z.string(), createdAt: z.number() }),
  recovery: z.object({ email: z.string(), organizationId: z.string(), userId: z.string(), createdAt: z.number() }),
  /** Passkey sign-up's email step: the code request, then the verification token for `email`. */
  passkeySignup: z.object({
    email: z.string(),
    userName: z.string().optional(),
    otpId: z.string(),
    targetBundle: z.string(),
    verificationToken: z.string().optional(),
    tokenId: z.string().optional(),
    createdAt: z.number(),
  }),
}

/** Kinds of pending steps. */
export type PendingKind = keyof typeof SCHEMAS
/** The record of one pending kind. */
export type Pending<K extends PendingKind> = z.output<(typeof SCHEMAS)[K]>

const key = (kind: PendingKind) => `sigil.pending.${kind}`

/** Read a pending step; `undefined` when absent, unreadable or older than the TTL. */
export async function readPending<K extends PendingKind>(area: StorageAreaLike, kind: K, now: number): Promise<Pending<K> | undefined> {
  const parsed = SCHEMAS[kind].safeParse((await area.get(key(kind)))[key(kind)])
  if (!parsed.success) return undefined
  const value = parsed.data as Pending<K>
  return now - value.createdAt > PENDING_TTL_MS || value.createdAt > now + 60_000 ? undefined : value
}

/** Store a pending step. */
export async function writePending<K extends PendingKind>(area: StorageAreaLike, kind: K, value: Pending<K>): Promise<void> {
  await area.set({ [key(kind)]: value })
}

/** Forget a pending step. */
export async function clearPending(area: StorageAreaLike, kind: PendingKind): Promise<void> {
  await area.remove(key(kind))
}

/** Forget every pending step. */
export async function clearAllPending(area: StorageAreaLike): Promise<void> {
  for (const kind of Object.keys(SCHEMAS) as PendingKind[]) await area.remove(key(kind))
}
