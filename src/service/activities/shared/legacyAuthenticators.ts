/**
 * Authenticators of the older intents (create_users V1, create_authenticators V1): the legacy form
 * is the browser's PublicKeyCredential as it came (service-interface.md "Attestation (legacy form)").
 * It carries what the current form carries — credential id, clientDataJSON, attestationObject,
 * transports — so it is verified exactly as the current form is, after this mapping.
 */
import type { AuthenticatorParams, LegacyAuthenticatorParams } from '../../../api/common.js'
import { invalidField } from '../../../api/errors.js'
import { renamed } from '../../fieldNames.js'

/**
 * The legacy authenticator in the current form. `type` must be `public-key` and `rawId` the same
 * base64url id as `id` (as a browser sends them); its `userId` is the caller's to check.
 *
 * @throws INVALID_ARGUMENT naming `field.attestation.type` or `field.attestation.rawId`
 */
export function fromLegacyAuthenticator(a: LegacyAuthenticatorParams, field: string): AuthenticatorParams {
  const att = a.attestation
  if (att.type !== 'public-key') throw invalidField(`${field}.attestation.type`, "must be 'public-key'")
  if (att.rawId !== att.id) throw invalidField(`${field}.attestation.rawId`, 'must be the same credential id as attestation.id')
  return {
    authenticatorName: a.authenticatorName,
    challenge: a.challenge,
    attestation: {
      credentialId: att.id,
      clientDataJson: att.response.clientDataJson,
      attestationObject: att.response.attestationObject,
      transports: att.response.transports,
    },
  }
}

/** A current-form field name in the legacy form's spelling (the payloads sit under `attestation.response`). */
export function legacyAuthenticatorField(field: string): string {
  return field.replace(/\.attestation\.(clientDataJson|attestationObject|transports)/, '.attestation.response.$1')
}

/** Runs `fn`, naming the fields of its errors as the legacy form spells them. */
export async function withLegacyAuthenticatorFields<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (e) {
    throw renamed(e, legacyAuthenticatorField)
  }
}
