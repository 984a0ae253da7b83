/**
 * Wallets the user brings and takes: create another wallet, import a seed phrase or a private key,
 * export a wallet's phrase or an account's key (wire-formats B2 import and export bundles).
 *
 * What protects the secret: an import target bundle and an export bundle are accepted only when
 * signed by the service's bundle signer key, which the pinned identity vouches for (service/trust.ts); the phrase or key is HPKE-encrypted here to the bundle's
 * target key, so only the service's enclave can read it; the plaintext bytes are zeroed right after
 * use; nothing of it is logged, stored or put in an error message. An export is decrypted with an
 * ephemeral P-256 key made for that one export and zeroed after, and only after the user proved
 * themselves within the last {@link REAUTH_WINDOW_MS}.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import type { SigilClient } from '../../../api/client'
import type { WalletAccountParams } from '../../../api/common'
import { bytesToHex, tryHexToBytes, utf8Decode, utf8Encode } from '../../../crypto/encoding'
import { generateP256KeyPair } from '../../../crypto/p256'
import { encryptToTargetBundle, openExportBundle } from '../../../crypto/signedBundle'
import type { ActiveSession, Core } from '../core'
import { ExtensionError } from '../failures'
import { defaultPathIndex, type SupportedFormat } from './accountBook'
import { listAccounts } from './accounts'

/** How long a login or unlock counts as "just proved" for an export. */
export const REAUTH_WINDOW_MS = 5 * 60_000

/** Word counts accepted for an imported phrase. */
export const PHRASE_LENGTHS = [12, 24] as const

const NOT_PINNED = 'The key service did not sign this with the key of the service this wallet is connected to. Nothing was sent.'

/** The EVM and Solana accounts at `index` on their default paths. */
export function groupAccountParams(index: number): WalletAccountParams[] {
  return [
    {
      curve: 'CURVE_SECP256K1',
      pathFormat: 'PATH_FORMAT_BIP32',
      path: `m/44'/60'/0'/0/${index}`,
      addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
    },
    { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: `m/44'/501'/${index}'/0'`, addressFormat: 'ADDRESS_FORMAT_SOLANA' },
  ]
}

/** Words of a phrase as typed: lowercased, split on any whitespace. */
export function phraseWords(phrase: string): string[] {
  return phrase.trim().toLowerCase().split(/\s+/).filter(Boolean)
}

/**
 * Check a typed phrase before anything is sent: 12 or 24 English BIP-39 words with a valid
 * checksum. The error names the field and the rule, never the words.
 */
export function checkPhrase(phrase: string): string {
  const words = phraseWords(phrase)
  if (!(PHRASE_LENGTHS as readonly number[]).includes(words.length))
    throw new ExtensionError('INVALID_ARGUMENT', `Seed phrase must be 12 or 24 words (got ${words.length}).`, 'mnemonic')
  const unknown = words.findIndex((w) => !wordlist.includes(w))
  if (unknown >= 0)
    throw new ExtensionError('INVALID_ARGUMENT', `Seed phrase: word ${unknown + 1} is not in the BIP-39 English word list.`, 'mnemonic')
  const normalized = words.join(' ')
  if (!validateMnemonic(normalized, wordlist))
    throw new ExtensionError('INVALID_ARGUMENT', 'Seed phrase: the checksum does not match; check the words and their order.', 'mnemonic')
  return normalized
}

/** The formats a private key can be imported as, and the raw 32 bytes it holds. */
export type KeyFormat = 'ADDRESS_FORMAT_ETHEREUM' | 'ADDRESS_FORMAT_SOLANA'

/**
 * The raw 32-byte private key of a typed key: EVM as 64 hex digits (0x optional); Solana as the
 * base58 64-byte secret key (seed then public key, as Phantom and solana-keygen export it, the
 * public half checked) or a base58 32-byte seed. The caller zeroes the result.
 */
export function parsePrivateKey(format: KeyFormat, typed: string): Uint8Array {
  const text = typed.trim()
  if (format === 'ADDRESS_FORMAT_ETHEREUM') {
    const hex = text.replace(/^0x/i, '')
    const bytes = /^[0-9a-fA-F]{64}$/.test(hex) ? tryHexToBytes(hex) : null
    if (!bytes) throw new ExtensionError('INVALID_ARGUMENT', 'Private key must be 64 hex digits (0x optional).', 'privateKey')
    return bytes
  }
  let bytes: Uint8Array
  try {
    bytes = base58.decode(text)
  } catch {
    throw new ExtensionError('INVALID_ARGUMENT', 'Private key must be a base58 Solana secret key.', 'privateKey')
  }
  if (bytes.length === 32) return bytes
  if (bytes.length !== 64) {
    bytes.fill(0)
    throw new ExtensionError('INVALID_ARGUMENT', 'Private key must be a base58 Solana secret key of 64 bytes.', 'privateKey')
  }
  const seed = bytes.slice(0, 32)
  const matches = bytesToHex(ed25519.getPublicKey(seed)) === bytesToHex(bytes.subarray(32))
  bytes.fill(0)
  if (!matches) {
    seed.fill(0)
    throw new ExtensionError('INVALID_ARGUMENT', 'Private key: its public half does not match its secret half.', 'privateKey')
  }
  return seed
}

/** Crypto steps, injectable so tests can see the plaintext zeroed. */
export type SealFn = typeof encryptToTargetBundle
const defaultSeal: SealFn = encryptToTargetBundle

/** HPKE-encrypt `plaintext` to a target bundle checked against the service's bundle signer key; `plaintext` is zeroed whatever happens. */
export async function sealToBundle(
  core: Core,
  session: ActiveSession,
  targetBundle: string,
  plaintext: Uint8Array,
  seal: SealFn = defaultSeal,
): Promise<string> {
  try {
    const service = await core.service()
    const sealed = await seal({
      targetBundle,
      plaintext,
      signerPublicKeyHex: service.keys.signer,
      organizationId: session.record.organizationId,
      userId: session.record.userId,
    })
    if (!sealed.ok) throw new ExtensionError('SERVICE_UNVERIFIED', NOT_PINNED)
    return sealed.envelope
  } finally {
    plaintext.fill(0)
  }
}

function created<T>(res: { activity: { status: string } } & Partial<T>, what: string): T {
  if (res.activity.status !== 'ACTIVITY_STATUS_COMPLETED')
    throw new ExtensionError(
      'REQUEST_FAILED',
      `${what} is waiting for approval (${res.activity.status.replace('ACTIVITY_STATUS_', '').toLowerCase()}).`,
    )
  return res as T
}

const walletName = (name: string) => {
  const n = name.trim()
  if (n === '') throw new ExtensionError('INVALID_ARGUMENT', 'Wallet name is required.', 'walletName')
  return n
}

/** A new wallet with the first EVM and Solana accounts. */
export async function createWallet(
  client: SigilClient,
  session: ActiveSession,
  p: { walletName: string },
): Promise<{ walletId: string; addresses: string[] }> {
  const res = await client.createWallet({
    organizationId: session.record.organizationId,
    walletName: walletName(p.walletName),
    accounts: groupAccountParams(0),
  })
  const { walletId, addresses } = created<{ walletId: string; addresses: string[] }>(res, 'The new wallet')
  return { walletId, addresses }
}

/** Import a seed phrase as a wallet with the first EVM and Solana accounts. */
export async function importWallet(
  core: Core,
  client: SigilClient,
  session: ActiveSession,
  p: { walletName: string; mnemonic: string },
  seal: SealFn = defaultSeal,
): Promise<{ walletId: string; addresses: string[] }> {
  const name = walletName(p.walletName)
  const phrase = utf8Encode(checkPhrase(p.mnemonic))
  const { organizationId, userId } = session.record
  let envelope: string
  try {
    const init = await client.initImportWallet({ organizationId, userId })
    const { importBundle } = created<{ importBundle: string }>(init, 'The import')
    envelope = await sealToBundle(core, session, importBundle, phrase, seal)
  } finally {
    phrase.fill(0)
  }
  const res = await client.importWallet({
    organizationId,
    userId,
    walletName: name,
    encryptedBundle: envelope,
    accounts: groupAccountParams(0),
  })
  const { walletId, addresses } = created<{ walletId: string; addresses: string[] }>(res, 'The import')
  return { walletId, addresses }
}

/** Import one private key as an account of its own. */
export async function importPrivateKey(
  core: Core,
  client: SigilClient,
  session: ActiveSession,
  p: { name: string; addressFormat: KeyFormat; privateKey: string },
  seal: SealFn = defaultSeal,
): Promise<{ privateKeyId: string; address: string }> {
  const name = p.name.trim()
  if (name === '') throw new ExtensionError('INVALID_ARGUMENT', 'Name is required.', 'name')
  const raw = parsePrivateKey(p.addressFormat, p.privateKey)
  const { organizationId, userId } = session.record
  let envelope: string
  try {
    const init = await client.initImportPrivateKey({ organizationId, userId })
    const { importBundle } = created<{ importBundle: string }>(init, 'The import')
    envelope = await sealToBundle(core, session, importBundle, raw, seal)
  } finally {
    raw.fill(0)
  }
  const res = await client.importPrivateKey({
    organizationId,
    userId,
    privateKeyName: name,
    encryptedBundle: envelope,
    curve: p.addressFormat === 'ADDRESS_FORMAT_ETHEREUM' ? 'CURVE_SECP256K1' : 'CURVE_ED25519',
    addressFormats: [p.addressFormat],
  })
  const done = created<{ privateKeyId: string; addresses: Array<{ address: string }> }>(res, 'The import')
  return { privateKeyId: done.privateKeyId, address: done.addresses[0]?.address ?? '' }
}

/** Add the next account (one EVM and one Solana address at the next free index) to a wallet. */
export async function addAccountGroup(
  client: SigilClient,
  session: ActiveSession,
  p: { walletId: string },
): Promise<{ index: number; addresses: string[] }> {
  const { wallets } = await listAccounts(client, session)
  const wallet = wallets.find((w) => w.walletId === p.walletId)
  if (!wallet) throw new ExtensionError('INVALID_ARGUMENT', 'Wallet: no such wallet; reopen the accounts list.', 'walletId')
  let max = -1
  for (const a of wallet.accounts) {
    if (a.addressFormat !== 'ADDRESS_FORMAT_ETHEREUM' && a.addressFormat !== 'ADDRESS_FORMAT_SOLANA') continue
    const i = defaultPathIndex(a.addressFormat as SupportedFormat, a.path)
    if (i !== undefined) max = Math.max(max, i)
  }
  const index = max + 1
  const res = await client.createWalletAccounts({
    organizationId: session.record.organizationId,
    walletId: p.walletId,
    accounts: groupAccountParams(index),
  })
  const { addresses } = created<{ addresses: string[] }>(res, 'The new account')
  return { index, addresses }
}

/** When the session's user last proved themselves (a login, an unlock or a password check); the session's start for older records. */
export function authenticatedAt(session: ActiveSession): number {
  const r = session.record
  return r.authenticatedAt > 0 ? r.authenticatedAt : r.createdAt
}

/** Refuse an export unless the user proved themselves within the last {@link REAUTH_WINDOW_MS}. */
export function requireRecentAuth(session: ActiveSession, now: number): void {
  if (now - authenticatedAt(session) > REAUTH_WINDOW_MS)
    throw new ExtensionError('REAUTH_REQUIRED', 'Confirm it is you first: your last login or password check was more than 5 minutes ago.')
}

/** What an export reveals. */
export type ExportTarget =
  | { kind: 'wallet'; walletId: string }
  | { kind: 'account'; address: string }
  | { kind: 'privateKey'; privateKeyId: string }

/**
 * Export a wallet's seed phrase or an account's private key (EVM: 0x hex; Solana: base58 of the
 * 64-byte secret key). The export bundle must be signed by the service's bundle signer key and bound to the
 * session's organization; the ephemeral target key and the plaintext bytes are zeroed after.
 */
export async function exportSecret(
  core: Core,
  client: SigilClient,
  session: ActiveSession,
  target: ExportTarget,
): Promise<{ secret: string; kind: 'mnemonic' | 'privateKey' }> {
  requireRecentAuth(session, core.now())
  const { organizationId } = session.record
  const key = generateP256KeyPair()
  try {
    const targetPublicKey = bytesToHex(key.publicKeyUncompressed)
    let exportBundle: string
    let format: 'mnemonic' | 'ADDRESS_FORMAT_ETHEREUM' | 'ADDRESS_FORMAT_SOLANA'
    if (target.kind === 'wallet') {
      const r = await client.exportWallet({ organizationId, walletId: target.walletId, targetPublicKey })
      exportBundle = created<{ exportBundle: string }>(r, 'The export').exportBundle
      format = 'mnemonic'
    } else if (target.kind === 'account') {
      const r = await client.exportWalletAccount({ organizationId, address: target.address, targetPublicKey })
      exportBundle = created<{ exportBundle: string }>(r, 'The export').exportBundle
      format = target.address.startsWith('0x') ? 'ADDRESS_FORMAT_ETHEREUM' : 'ADDRESS_FORMAT_SOLANA'
    } else {
      const r = await client.exportPrivateKey({ organizationId, privateKeyId: target.privateKeyId, targetPublicKey })
      exportBundle = created<{ exportBundle: string }>(r, 'The export').exportBundle
      const { privateKey } = await client.getPrivateKey({ organizationId, privateKeyId: target.privateKeyId })
      format = privateKey.curve === 'CURVE_ED25519' ? 'ADDRESS_FORMAT_SOLANA' : 'ADDRESS_FORMAT_ETHEREUM'
    }
    const service = await core.service()
    const opened = await openExportBundle({
      exportBundle,
      privateKey: key.privateKey,
      organizationId,
      signerPublicKeyHex: service.keys.signer,
    })
    if (!opened.ok) throw new ExtensionError('SERVICE_UNVERIFIED', NOT_PINNED)
    const plain = opened.plaintext
    try {
      if (format === 'mnemonic') return { secret: utf8Decode(plain), kind: 'mnemonic' }
      if (plain.length !== 32) throw new ExtensionError('BUNDLE_INVALID', 'The export does not hold a 32-byte key.')
      if (format === 'ADDRESS_FORMAT_ETHEREUM') return { secret: `0x${bytesToHex(plain)}`, kind: 'privateKey' }
      const full = new Uint8Array(64)
      full.set(plain)
      full.set(ed25519.getPublicKey(plain), 32)
      const secret = base58.encode(full)
      full.fill(0)
      return { secret, kind: 'privateKey' }
    } finally {
      plain.fill(0)
    }
  } finally {
    key.privateKey.fill(0)
  }
}
