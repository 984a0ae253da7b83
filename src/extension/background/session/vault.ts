/**
 * Local unlock with a wallet password. At setup a long-lived device credential is made for this
 * browser: a P-256 key registered in the user's own organization as an API key that expires
 * ({@link DEVICE_KEY_DAYS} days, create_api_keys stamped by the live session). Its PKCS#8 is kept
 * only sealed in `storage.local`: AES-256-GCM under a key derived from the password with scrypt
 * (memory-hard, @noble/hashes; {@link KDF}), the account's ids and the key's public half bound as
 * associated data. Without the password the stored record holds no usable key.
 *
 * Unlock derives the key, opens the seal (a wrong password fails the GCM tag here and nothing
 * reaches the service), then stamps `stamp_login` with the device key for a fresh session key
 * (session/renewal.ts), so no email is needed. Failed attempts are counted in `storage.local`
 * (they survive a worker restart) and from the {@link FREE_ATTEMPTS}th on each next attempt waits
 * 1 s, 2 s, 4 s … up to {@link MAX_DELAY_MS}. Lock keeps the sealed credential; logout removes it
 * and revokes the key at the service. The password never leaves the background, is never stored
 * and never logged; derived keys and the decrypted PKCS#8 are zeroed after use.
 */
import { scryptAsync } from '@noble/hashes/scrypt.js'
import { z } from 'zod'
import { createClient } from '../../../api/client'
import { base64 } from '@scure/base'
import { utf8Encode } from '../../../crypto/encoding'
import { createP256WebCryptoKeyPair, createWebCryptoStamper } from '../../../crypto/stamp'
import type { Core } from '../core'
import { ExtensionError, isSessionKeyRejected } from '../failures'
import type { SessionRecord } from './sessionRecord'
import { issueSession } from './renewal'
import type { StorageAreaLike } from '../storage/storageArea'

/** `storage.local` key of the sealed device credential. */
export const VAULT_KEY = 'sigil.vault'
/** `storage.local` key of the failed-attempt counter. */
export const ATTEMPTS_KEY = 'sigil.vaultAttempts'
/** `storage.local` key set once the password was offered after a login (offered once per browser profile). */
export const OFFERED_KEY = 'sigil.passwordOffered'

/** How long the device credential is valid at the service. */
export const DEVICE_KEY_DAYS = 30
/** scrypt parameters: N = 2^17, r = 8 (128 MiB), p = 1. */
export const KDF = { N: 2 ** 17, r: 8, p: 1, dkLen: 32 } as const
/** Failures allowed before attempts are slowed down. */
export const FREE_ATTEMPTS = 3
/** Longest wait between attempts. */
export const MAX_DELAY_MS = 5 * 60_000

/** A wallet password: 8 to 256 characters. */
export const Password = z.string().min(8, 'must be at least 8 characters').max(256, 'must be at most 256 characters')

const b64 = z
  .string()
  .max(4096)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/)

/** The stored, sealed device credential (version 1). Nothing here is secret without the password. */
const Vault = z.object({
  v: z.literal(1),
  organizationId: z.string().min(1),
  userId: z.string().min(1),
  username: z.string(),
  apiKeyId: z.string().min(1),
  publicKeyHex: z.string().regex(/^0[23][0-9a-f]{64}$/),
  expiresAt: z.number(),
  // Exactly this build's parameters: a record edited to weaker ones (cheaper guessing) is not read.
  kdf: z.object({ alg: z.literal('scrypt'), N: z.literal(KDF.N), r: z.literal(KDF.r), p: z.literal(KDF.p), salt: b64 }),
  iv: b64,
  sealed: b64,
})
type Vault = z.output<typeof Vault>

const Attempts = z.object({ failures: z.number().int().min(0), nextAt: z.number() })

async function readVault(local: StorageAreaLike): Promise<Vault | undefined> {
  const parsed = Vault.safeParse((await local.get(VAULT_KEY))[VAULT_KEY])
  return parsed.success ? parsed.data : undefined
}

async function readAttempts(local: StorageAreaLike): Promise<z.output<typeof Attempts>> {
  const parsed = Attempts.safeParse((await local.get(ATTEMPTS_KEY))[ATTEMPTS_KEY])
  return parsed.success ? parsed.data : { failures: 0, nextAt: 0 }
}

/** The wait after `failures` failed attempts: none for the first {@link FREE_ATTEMPTS}, then 1 s doubling, capped. */
export function delayAfter(failures: number): number {
  if (failures < FREE_ATTEMPTS) return 0
  return Math.min(MAX_DELAY_MS, 1000 * 2 ** (failures - FREE_ATTEMPTS))
}

/** What the popup may know: whether a password is set, for which account, and how long to wait. */
export type VaultStatus = { hasPassword: boolean; username: string | null; retryAfterMs: number; offer: boolean }

/** The vault's state for the popup (no secrets). */
export async function vaultStatus(core: Core): Promise<VaultStatus> {
  const local = core.deps.local
  const vault = await readVault(local)
  const usable = vault !== undefined && vault.expiresAt > core.now()
  const attempts = await readAttempts(local)
  const offered = (await local.get(OFFERED_KEY))[OFFERED_KEY] === true
  return {
    hasPassword: usable,
    username: usable ? vault.username : null,
    retryAfterMs: usable ? Math.max(0, attempts.nextAt - core.now()) : 0,
    offer: !usable && !offered,
  }
}

/** Remember that the password was offered (the offer after a login shows once per browser profile). */
export async function dismissOffer(core: Core): Promise<void> {
  await core.deps.local.set({ [OFFERED_KEY]: true })
}

function aad(v: Pick<Vault, 'organizationId' | 'userId' | 'publicKeyHex'>): Uint8Array<ArrayBuffer> {
  return utf8Encode(`sigil-vault-v1\n${v.organizationId}\n${v.userId}\n${v.publicKeyHex}`) as Uint8Array<ArrayBuffer>
}

async function deriveKey(password: string, salt: Uint8Array, kdf: { N: number; r: number; p: number }): Promise<CryptoKey> {
  const pw = utf8Encode(password)
  const raw = await scryptAsync(pw, salt, { N: kdf.N, r: kdf.r, p: kdf.p, dkLen: KDF.dkLen, maxmem: 2 ** 28 })
  pw.fill(0)
  try {
    return await crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt'])
  } finally {
    raw.fill(0)
  }
}

/**
 * Set (or replace) the wallet password for the logged-in user: a new device credential is
 * registered at the service and sealed under the password; a previous one is revoked.
 */
export async function setupPassword(core: Core, password: string): Promise<VaultStatus> {
  const previous = await readVault(core.deps.local)
  const { keyPair, publicKeyHex } = await createP256WebCryptoKeyPair(true)
  const stored = await core.withSession(async (client, s) => {
    const { apiKeyIds } = await client.createApiKeys({
      organizationId: s.record.organizationId,
      userId: s.record.userId,
      apiKeys: [
        {
          apiKeyName: `Sigil device ${new Date(core.now()).toISOString().slice(0, 10)}`,
          publicKey: publicKeyHex,
          curveType: 'API_KEY_CURVE_P256',
          expirationSeconds: String(DEVICE_KEY_DAYS * 86_400),
        },
      ],
    })
    const apiKeyId = apiKeyIds[0]
    if (!apiKeyId) throw new ExtensionError('REQUEST_FAILED', 'The service did not register the device key.')
    if (previous && previous.organizationId === s.record.organizationId)
      await client
        .deleteApiKeys({ organizationId: previous.organizationId, userId: previous.userId, apiKeyIds: [previous.apiKeyId] })
        .catch(() => undefined)
    return { record: s.record, apiKeyId }
  })
  const salt = crypto.getRandomValues(new Uint8Array(16))
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const header = {
    organizationId: stored.record.organizationId,
    userId: stored.record.userId,
    publicKeyHex,
  }
  const key = await deriveKey(password, salt, KDF)
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', keyPair.privateKey))
  let sealed: Uint8Array
  try {
    sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad(header) }, key, pkcs8))
  } finally {
    pkcs8.fill(0)
  }
  const vault: Vault = {
    v: 1,
    ...header,
    username: stored.record.username,
    apiKeyId: stored.apiKeyId,
    expiresAt: core.now() + DEVICE_KEY_DAYS * 86_400_000,
    kdf: { alg: 'scrypt', N: KDF.N, r: KDF.r, p: KDF.p, salt: base64.encode(salt) },
    iv: base64.encode(iv),
    sealed: base64.encode(sealed),
  }
  await core.deps.local.set({ [VAULT_KEY]: vault, [OFFERED_KEY]: true })
  await core.deps.local.remove(ATTEMPTS_KEY)
  return vaultStatus(core)
}

/** Open the seal with `password`: the device key (non-extractable), or a counted, slowed-down failure. */
async function openVault(core: Core, password: string): Promise<{ vault: Vault; key: CryptoKey }> {
  const local = core.deps.local
  const vault = await readVault(local)
  if (!vault || vault.expiresAt <= core.now())
    throw new ExtensionError('NO_PASSWORD', 'No wallet password is set in this browser. Log in with your email or passkey.')
  const attempts = await readAttempts(local)
  const wait = attempts.nextAt - core.now()
  if (wait > 0)
    throw new ExtensionError('TOO_MANY_ATTEMPTS', `Too many wrong passwords. Try again in ${Math.ceil(wait / 1000)} s.`, 'password')
  const key = await deriveKey(password, base64.decode(vault.kdf.salt), vault.kdf)
  let pkcs8: Uint8Array<ArrayBuffer>
  try {
    pkcs8 = new Uint8Array(
      await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: base64.decode(vault.iv) as Uint8Array<ArrayBuffer>, additionalData: aad(vault) },
        key,
        base64.decode(vault.sealed) as Uint8Array<ArrayBuffer>,
      ),
    )
  } catch {
    const failures = attempts.failures + 1
    await local.set({ [ATTEMPTS_KEY]: { failures, nextAt: core.now() + delayAfter(failures) } })
    throw new ExtensionError('WRONG_PASSWORD', 'That is not the wallet password.', 'password')
  }
  try {
    const deviceKey = await crypto.subtle.importKey('pkcs8', pkcs8, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign'])
    await local.remove(ATTEMPTS_KEY)
    return { vault, key: deviceKey }
  } finally {
    pkcs8.fill(0)
  }
}

/** Unlock with the wallet password: a fresh session through the device credential, no email. */
export async function unlockWithPassword(core: Core, password: string): Promise<SessionRecord> {
  const { vault, key } = await openVault(core, password)
  const { sessionSeconds } = await core.settings()
  let issued: Awaited<ReturnType<typeof issueSession>>
  try {
    issued = await issueSession(
      {
        service: await core.service(),
        stamper: createWebCryptoStamper({ privateKey: key, publicKeyHex: vault.publicKeyHex }),
        ...fetchOf(core),
        now: core.now,
      },
      { organizationId: vault.organizationId, userId: vault.userId },
      sessionSeconds,
    )
  } catch (err) {
    if (isSessionKeyRejected(err)) {
      // Revoked or expired at the service: the sealed credential is useless now.
      await core.deps.local.remove(VAULT_KEY)
      throw new ExtensionError('NO_PASSWORD', 'This browser’s password no longer opens the account. Log in with your email or passkey.')
    }
    throw err
  }
  return core.startSession(
    {
      organizationId: vault.organizationId,
      userId: vault.userId,
      username: issued.username || vault.username,
      publicKeyHex: issued.key.publicKeyHex,
      ...(issued.apiKeyId ? { apiKeyId: issued.apiKeyId } : {}),
      method: 'password',
      expiresAt: issued.expiresAt,
    },
    issued.key.privateKey,
  )
}

/** Re-check the password locally (no request) and mark the user as just authenticated. */
export async function confirmPassword(core: Core, password: string): Promise<{ authenticatedAt: number }> {
  const session = await core.requireSession()
  const { vault } = await openVault(core, password)
  if (vault.organizationId !== session.record.organizationId || vault.userId !== session.record.userId)
    throw new ExtensionError('NO_PASSWORD', 'The wallet password here belongs to another account.')
  return { authenticatedAt: await core.markAuthenticated() }
}

/** Remove the password: revoke the device credential (with the live session when there is one) and delete the seal. */
export async function forgetPassword(core: Core): Promise<void> {
  const vault = await readVault(core.deps.local)
  await core.deps.local.remove(VAULT_KEY)
  await core.deps.local.remove(ATTEMPTS_KEY)
  if (!vault) return
  const session = await core.current()
  if (!session || session.record.organizationId !== vault.organizationId) return
  const { apiBaseUrl } = await core.settings()
  const client = createClient({ baseUrl: apiBaseUrl, stamper: session.stamper, ...fetchOf(core) })
  await client
    .deleteApiKeys({ organizationId: vault.organizationId, userId: vault.userId, apiKeyIds: [vault.apiKeyId] })
    .catch(() => undefined)
}

function fetchOf(core: Core): { fetch?: typeof globalThis.fetch } {
  return core.deps.fetch ? { fetch: core.deps.fetch } : {}
}
