/**
 * Fiat on-ramp rows: provider credentials (secrets sealed at rest) and the
 * transactions started by init_fiat_on_ramp. Secrets leave this module only through
 * {@link openCredentialSecret}, in memory.
 */
import { HOSTED_ON_RAMP_PROVIDER, type OnRampProvider } from '../../api/enumLists.js'
import type { SecretBox } from './secrets.js'
import type { Sql } from './sql.js'
import { toTimestamp } from './time.js'

export type OnRampCredentialRow = {
  id: string
  organization_id: string
  /** The interface's name (ALPHA/BETA), whichever spelling the request used. */
  provider: OnRampProvider
  sandbox_mode: boolean
  project_id: string | null
  publishable_api_key: string
  secret_api_key_sealed: string
  private_api_key_sealed: string | null
  created_at: number
  updated_at: number
}

/** NOT_DELIVERED: a sandbox order finished where the sandbox cannot deliver (nothing was sent). */
export type OnRampTransactionStatus = 'PENDING' | 'COMPLETED' | 'FAILED' | 'NOT_DELIVERED'

export type OnRampTransactionRow = {
  id: string
  organization_id: string
  activity_id: string
  /** The interface's name (ALPHA/BETA), whichever spelling the request used. */
  provider: OnRampProvider
  sandbox_mode: boolean
  hosted_by_sigil: boolean
  credential_id: string | null
  wallet_address: string
  network: string
  crypto_currency: string
  fiat_currency: string | null
  fiat_amount: string | null
  payment_method: string | null
  country_code: string | null
  country_subdivision_code: string | null
  status: OnRampTransactionStatus
  tx_hash: string | null
  created_at: number
  updated_at: number
}

/** Seal purposes bind a sealed secret to its credential row and field. */
export const secretPurpose = (credentialId: string, which: 'secret' | 'private') => `onramp-credential:${credentialId}:${which}`

const num = <T extends { created_at: number; updated_at: number }>(r: T): T => ({
  ...r,
  created_at: Number(r.created_at),
  updated_at: Number(r.updated_at),
})

/** A credential's provider, keys and (plaintext, in memory) secrets, as create and update store them. */
export type CredentialFields = {
  /** The interface's name (ALPHA/BETA), whichever spelling the request used. */
  provider: OnRampProvider
  projectId: string | undefined
  publishableApiKey: string
  secretApiKey: Uint8Array
  privateApiKey: Uint8Array | undefined
}

/** The two secrets sealed to credential `id`: `[secret, private | null]`. */
function sealSecrets(box: SecretBox, id: string, c: CredentialFields): [string, string | null] {
  return [
    box.seal(c.secretApiKey, secretPurpose(id, 'secret')),
    c.privateApiKey ? box.seal(c.privateApiKey, secretPurpose(id, 'private')) : null,
  ]
}

export async function insertCredential(
  sql: Sql,
  box: SecretBox,
  c: CredentialFields & { id: string; orgId: string; sandboxMode: boolean; now: number },
): Promise<void> {
  await sql.query(
    `INSERT INTO fiat_onramp_credentials (id, organization_id, provider, sandbox_mode, project_id, publishable_api_key,
       secret_api_key_sealed, private_api_key_sealed, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
    [c.id, c.orgId, c.provider, c.sandboxMode, c.projectId ?? null, c.publishableApiKey, ...sealSecrets(box, c.id, c), c.now],
  )
}

export async function updateCredential(sql: Sql, box: SecretBox, c: CredentialFields & { id: string; now: number }): Promise<void> {
  await sql.query(
    `UPDATE fiat_onramp_credentials SET provider = $2, project_id = $3, publishable_api_key = $4,
       secret_api_key_sealed = $5, private_api_key_sealed = $6, updated_at = $7 WHERE id = $1`,
    [c.id, c.provider, c.projectId ?? null, c.publishableApiKey, ...sealSecrets(box, c.id, c), c.now],
  )
}

export async function getCredential(sql: Sql, orgId: string, id: string): Promise<OnRampCredentialRow | undefined> {
  const [row] = await sql.query<OnRampCredentialRow>('SELECT * FROM fiat_onramp_credentials WHERE id = $1 AND organization_id = $2', [
    id,
    orgId,
  ])
  return row && num(row)
}

/** The organization's credential for a provider and mode (at most one, by the unique index). */
export async function findCredential(
  sql: Sql,
  orgId: string,
  provider: OnRampProvider,
  sandboxMode: boolean,
): Promise<OnRampCredentialRow | undefined> {
  const [row] = await sql.query<OnRampCredentialRow>(
    'SELECT * FROM fiat_onramp_credentials WHERE organization_id = $1 AND provider = $2 AND sandbox_mode = $3',
    [orgId, provider, sandboxMode],
  )
  return row && num(row)
}

/** Another credential of the organization with this provider and mode, excluding `exceptId`. */
export async function credentialClash(
  sql: Sql,
  orgId: string,
  provider: OnRampProvider,
  sandboxMode: boolean,
  exceptId = '',
): Promise<boolean> {
  const rows = await sql.query(
    'SELECT id FROM fiat_onramp_credentials WHERE organization_id = $1 AND provider = $2 AND sandbox_mode = $3 AND id <> $4',
    [orgId, provider, sandboxMode, exceptId],
  )
  return rows.length > 0
}

export async function deleteCredential(sql: Sql, orgId: string, id: string): Promise<boolean> {
  const rows = await sql.query('DELETE FROM fiat_onramp_credentials WHERE id = $1 AND organization_id = $2 RETURNING id', [id, orgId])
  return rows.length > 0
}

export async function listCredentials(sql: Sql, orgId: string): Promise<OnRampCredentialRow[]> {
  const rows = await sql.query<OnRampCredentialRow>(
    'SELECT * FROM fiat_onramp_credentials WHERE organization_id = $1 ORDER BY created_at, id',
    [orgId],
  )
  return rows.map(num)
}

/** Opens a sealed credential secret, in memory only; callers zero it when done. */
export function openCredentialSecret(box: SecretBox, row: OnRampCredentialRow, which: 'secret' | 'private'): Uint8Array | undefined {
  const sealed = which === 'secret' ? row.secret_api_key_sealed : row.private_api_key_sealed
  return sealed ? box.open(sealed, secretPurpose(row.id, which)) : undefined
}

/** The wire form of a credential (list_fiat_on_ramp_credentials): no secret, sealed or not. */
export function credentialToWire(row: OnRampCredentialRow) {
  return {
    fiatOnrampCredentialId: row.id,
    organizationId: row.organization_id,
    // Responses give the hosted name, the only spelling the official client's types accept.
    onrampProvider: HOSTED_ON_RAMP_PROVIDER[row.provider],
    ...(row.project_id ? { projectId: row.project_id } : {}),
    publishableApiKey: row.publishable_api_key,
    sandboxMode: row.sandbox_mode,
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
  }
}

export async function insertTransaction(sql: Sql, t: Omit<OnRampTransactionRow, 'status' | 'tx_hash' | 'updated_at'>): Promise<void> {
  await sql.query(
    `INSERT INTO onramp_transactions (id, organization_id, activity_id, provider, sandbox_mode, hosted_by_sigil, credential_id,
       wallet_address, network, crypto_currency, fiat_currency, fiat_amount, payment_method, country_code,
       country_subdivision_code, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 'PENDING', $16, $16)`,
    [
      t.id,
      t.organization_id,
      t.activity_id,
      t.provider,
      t.sandbox_mode,
      t.hosted_by_sigil,
      t.credential_id,
      t.wallet_address,
      t.network,
      t.crypto_currency,
      t.fiat_currency,
      t.fiat_amount,
      t.payment_method,
      t.country_code,
      t.country_subdivision_code,
      t.created_at,
    ],
  )
}

/** A transaction by id; with `orgId`, only if it belongs to that organization. */
export async function getTransaction(sql: Sql, id: string, orgId?: string): Promise<OnRampTransactionRow | undefined> {
  const [row] =
    orgId === undefined
      ? await sql.query<OnRampTransactionRow>('SELECT * FROM onramp_transactions WHERE id = $1', [id])
      : await sql.query<OnRampTransactionRow>('SELECT * FROM onramp_transactions WHERE id = $1 AND organization_id = $2', [id, orgId])
  return row && num(row)
}

/**
 * Moves a PENDING transaction to a final status, atomically. Returns false when it was
 * not PENDING any more (already completed or failed).
 */
export async function finishTransaction(
  sql: Sql,
  id: string,
  status: Exclude<OnRampTransactionStatus, 'PENDING'>,
  txHash: string | null,
  now: number,
): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE onramp_transactions SET status = $2, tx_hash = $3, updated_at = $4 WHERE id = $1 AND status = 'PENDING' RETURNING id`,
    [id, status, txHash, now],
  )
  return rows.length > 0
}
