/**
 * What create_ and update_fiat_on_ramp_credential share (service-interface.md submit 11, 12):
 * one credential per (organization, provider, sandboxMode), and the request's secrets
 * decrypted in memory only for as long as they are being sealed.
 */
import { type OnRampProvider, type OnRampProviderName, onRampProviderOf } from '../../api/enumLists.js'
import { fieldError } from '../../api/errors.js'
import type { Sql } from '../store/sql.js'
import { type CredentialFields, credentialClash } from '../store/onramp.js'
import { decryptOnRampSecret } from './secrets.js'

/** The credential parameters both operations take. */
export type CredentialParams = {
  onrampProvider: OnRampProviderName
  projectId?: string | undefined
  publishableApiKey: string
  encryptedSecretApiKey: string
  encryptedPrivateApiKey?: string | undefined
}

/**
 * Refuses (409 naming `parameters.onrampProvider`) a credential for a provider and mode the
 * organization already has one for; `exceptId` is the credential being updated.
 */
export async function refuseCredentialClash(
  sql: Sql,
  orgId: string,
  provider: OnRampProvider,
  sandboxMode: boolean,
  exceptId?: string,
): Promise<void> {
  if (await credentialClash(sql, orgId, provider, sandboxMode, exceptId)) {
    const which = exceptId === undefined ? 'a' : 'another'
    const description = `the organization already has ${which} credential for this provider with sandboxMode ${sandboxMode}`
    throw fieldError('ALREADY_EXISTS', 'parameters.onrampProvider', description)
  }
}

/** Runs `use` with the decrypted credential fields of `p`, then zeroes the secrets. */
export async function withCredentialFields<T>(
  privateKey: Uint8Array,
  p: CredentialParams,
  use: (fields: CredentialFields) => Promise<T>,
): Promise<T> {
  const secretApiKey = await decryptOnRampSecret(p.encryptedSecretApiKey, privateKey, 'parameters.encryptedSecretApiKey')
  let privateApiKey: Uint8Array | undefined
  try {
    privateApiKey = p.encryptedPrivateApiKey
      ? await decryptOnRampSecret(p.encryptedPrivateApiKey, privateKey, 'parameters.encryptedPrivateApiKey')
      : undefined
    return await use({
      provider: onRampProviderOf(p.onrampProvider),
      projectId: p.projectId || undefined,
      publishableApiKey: p.publishableApiKey,
      secretApiKey,
      privateApiKey,
    })
  } finally {
    secretApiKey.fill(0)
    privateApiKey?.fill(0)
  }
}
