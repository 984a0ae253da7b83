/**
 * IP allow-lists, enforced on every submit and query (docs "IP Allowlist"):
 * - a list belongs to a parent organization (one without a parent); sub-organizations have none, and
 *   requests signed by their users' credentials are never evaluated;
 * - a request is evaluated against the lists of the organization its credential belongs to (so a
 *   parent's key reading a sub-organization is held to the parent's list), whichever organization it names;
 * - nothing is enforced unless the organization-level list is `enabled`; then the list of the signing
 *   API key, when it has one, replaces the organization's list for that key;
 * - an enabled list with no rules refuses everything; an address that cannot be told (no socket, an
 *   unreadable `X-Forwarded-For` from a trusted proxy) is decided by `onEvaluationError` (default `DENY`).
 *
 * Refusal: 403 `IP_NOT_ALLOWED`, naming neither the address nor the list.
 */
import type { ClientAddress } from './clientAddress.js'
import { SigilError, fieldError } from '../../api/errors.js'
import type { Principal } from '../auth/principal.js'
import { cidrContains, parseCidr } from '../net/cidr.js'
import { type IpAllowlistRow, ipAllowlistsFor } from '../store/ipAllowlists.js'
import type { Sql } from '../store/sql.js'

/** The message of a refusal: what to do, never which address or which rules. */
export const IP_NOT_ALLOWED_MESSAGE = "requests from this network address are not allowed by the organization's IP allow-list"

type Lists = { organization: IpAllowlistRow | undefined; key: IpAllowlistRow | undefined }

/** True when the lists let a request from `client` (undefined: unknown) through. */
export function allowedBy(lists: Lists, client: ClientAddress): boolean {
  if (!lists.organization || lists.organization.enabled !== true) return true
  const list = lists.key ?? lists.organization
  if (!client) return list.on_evaluation_error === 'ALLOW'
  return list.rules.some((r) => {
    const parsed = parseCidr(r.cidr)
    return parsed.ok && cidrContains(parsed.cidr, client)
  })
}

/** Refuses the request unless the allow-list of its credential's organization covers `client`. */
export async function requireAllowedAddress(sql: Sql, principal: Principal, client: ClientAddress): Promise<void> {
  const own = principal.publicKey.toLowerCase()
  // Read with the credential when it could be (API keys); else one query.
  const lists = principal.ipAllowlists
    ? {
        organization: principal.ipAllowlists.find((r) => r.public_key === ''),
        key: principal.ipAllowlists.find((r) => r.public_key !== '' && r.public_key === own),
      }
    : await ipAllowlistsFor(sql, principal.organizationId, own)
  if (!allowedBy(lists, client)) throw new SigilError('IP_NOT_ALLOWED', IP_NOT_ALLOWED_MESSAGE)
}

/**
 * Refuses a set_ip_allowlist or remove_ip_allowlist that would refuse the very request making it
 * (the service has no dashboard to undo it from): the lists as they would be afterwards are
 * evaluated for this request's credential and address. Only for a credential of the organization itself.
 */
export async function refuseLockout(
  sql: Sql,
  principal: Principal,
  organizationId: string,
  type: string,
  parameters: Record<string, unknown>,
  client: ClientAddress,
): Promise<void> {
  if (principal.organizationId !== organizationId) return
  if (type !== 'ACTIVITY_TYPE_SET_IP_ALLOWLIST' && type !== 'ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST') return
  const own = principal.publicKey.toLowerCase()
  const lists = await ipAllowlistsFor(sql, organizationId, own)
  const target = typeof parameters.publicKey === 'string' ? parameters.publicKey.toLowerCase() : ''
  if (target !== '' && target !== own) return // another key's list never changes what this request is held to
  const after: Lists = { ...lists }
  const slot = target === '' ? 'organization' : 'key'
  if (type === 'ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST') {
    after[slot] = undefined
  } else {
    const before = lists[slot]
    const submitted = Array.isArray(parameters.rules) ? (parameters.rules as Array<{ cidr: string }>) : undefined
    // A block that does not parse is the handler's 400 naming it, not a lockout.
    if (submitted?.some((r) => !parseCidr(r.cidr).ok)) return
    const rules = submitted ? submitted.map((r) => ({ cidr: r.cidr, createdAt: 0 })) : (before?.rules ?? [])
    after[slot] = {
      organization_id: organizationId,
      public_key: target,
      enabled: target === '' ? (typeof parameters.enabled === 'boolean' ? parameters.enabled : (before?.enabled ?? false)) : null,
      on_evaluation_error:
        parameters.onEvaluationError === 'ALLOW' || parameters.onEvaluationError === 'DENY'
          ? parameters.onEvaluationError
          : (before?.on_evaluation_error ?? 'DENY'),
      rules,
      created_at: 0,
      updated_at: 0,
    }
  }
  if (allowedBy(lists, client) && !allowedBy(after, client)) {
    const field = type === 'ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST' ? 'parameters.publicKey' : 'parameters.rules'
    throw fieldError(
      'FAILED_PRECONDITION',
      field,
      'this change would refuse the request making it: include the network this request comes from, or stage the rules with enabled: false first',
    )
  }
}
