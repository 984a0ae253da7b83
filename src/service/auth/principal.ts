import type { IpAllowlistRow } from '../store/ipAllowlists.js'
import type { MfaPolicyRow } from '../store/mfaPolicies.js'

/** Who signed a request: the credential, its user and the user's organization. */
export type Principal = {
  userId: string
  /** The organization the credential's user belongs to. */
  organizationId: string
  /** READ_ONLY_SESSION: an `X-Session` read-only session JWT (queries only, never submits). */
  credentialKind: 'API_KEY' | 'WEBAUTHN' | 'ATTESTED' | 'READ_ONLY_SESSION'
  /** api key id or authenticator id (a read-only session: empty, it has no stored credential) */
  credentialId: string
  publicKey: string
  scheme: string
  /** The API key's `CREDENTIAL_TYPE_*` (API key stamps only). */
  credentialType?: string
  /** The stamp's signature (a vote records it with the body as its message). */
  signature: string
  /**
   * The root quorum of `organizationId`, read in the credential lookup's statement (saves the
   * engine a query); absent when the credential path does not read it.
   */
  quorum?: Quorum | undefined
  /**
   * The version of `organizationId`'s policies (migration 009), read in the same statement as
   * `quorum`: the engine uses its parsed policies without another read when they are at it.
   */
  policiesVersion?: string | undefined
  /** The credential's user as policies see it (`approvers[].tags`, `.email`), read with the credential when it could be. */
  user?: { tags: string[]; email?: string } | undefined
  /**
   * The session profile the session key was issued under (create_session_profile): its scope must
   * allow every activity the key signs (src/service/policy/sessionScope.ts). API key stamps only.
   */
  sessionScope?: { id: string; name: string; scope: string } | undefined
  /**
   * The IP allow-lists of the credential's organization and of the key itself, read with the
   * credential (API keys); absent when the credential path does not read them (http/ipAllowlist.ts reads them then).
   */
  ipAllowlists?: IpAllowlistRow[] | undefined
  /** The user's MFA policies in evaluation order, read with the credential (API keys); absent when not read (the engine reads them then). */
  mfaPolicies?: MfaPolicyRow[] | undefined
}

/** An organization's root quorum. */
export type Quorum = { threshold: number; userIds: string[] }
