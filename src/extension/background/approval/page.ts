/**
 * The approval page's side of a pending approval (popup router rows `approvalGet`,
 * `approvalResolve`, and the queue's `approvalShown` and `approvalRejectAll`). The page names the
 * request by its id; an unknown or already-settled id is refused, and resolving never falls back
 * to "whatever is pending" (style.md anti-pattern 3).
 */
import { z } from 'zod'
import type { ApprovalRegistry } from './approvals'
import type { ApprovalDetails, ApprovalView } from '../../protocol/approvalView'
import { accountNameMap, nameOf, type NamedAccount } from '../wallet/accountBook'
import { ExtensionError } from '../failures'
import { chosenAccounts } from '../dapp/accountChoice'
import { MAX_SITE_ACCOUNTS } from '../dapp/grants'

/** An approval id as issued by the registry (a UUID). */
export const ApprovalId = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)

/** `approvalGet` params: the id is required. */
export const ApprovalGetParams = z.object({ id: ApprovalId }).strict()
/**
 * `approvalResolve` params: the id and the answer are required; a connect window adds the accounts
 * the user chose; approving a sign-in with a blocking warning needs `acknowledged`.
 */
export const ApprovalResolveParams = z
  .object({
    id: ApprovalId,
    approved: z.boolean(),
    accounts: z.array(z.string().trim().min(1).max(128)).max(MAX_SITE_ACCOUNTS).optional(),
    /** The user ticked the override of a sign-in's blocking warning (its domain or URI is not the site's). */
    acknowledged: z.literal(true).optional(),
    /** The user passed the full-page phishing warning ("I understand the risk, continue") of this request. */
    passedWarning: z.literal(true).optional(),
  })
  .strict()

/** `approvalShown` / `approvalRejectAll` params: the id of a request the window showed. */
export const ApprovalQueueParams = z.object({ id: ApprovalId }).strict()

/** Every string in a view (addresses appear as whole strings: fields, rows, accounts). */
function strings(value: unknown, out: Set<string>): Set<string> {
  if (typeof value === 'string') out.add(value)
  else if (Array.isArray(value)) for (const v of value) strings(v, out)
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out)
  return out
}

/** The user's account names for the addresses a view shows (address as shown → name). */
export function viewAccountNames(view: ApprovalView, accounts: NamedAccount[]): Record<string, string> {
  const map = accountNameMap(accounts)
  const names: Record<string, string> = {}
  for (const s of strings(view, new Set())) {
    const name = nameOf(map, s)
    if (name !== undefined) names[s] = name
  }
  return names
}

/**
 * The request with the names of the user's accounts it shows. The names are a label only: when
 * they cannot be read (the service is unreachable) the window shows the addresses alone.
 */
export async function withAccountNames(
  details: ApprovalDetails,
  accounts: () => Promise<NamedAccount[]>,
): Promise<ApprovalDetails & { names: Record<string, string> }> {
  const named = await accounts().catch(() => [])
  return { ...details, names: viewAccountNames(details.view, named) }
}

function gone(): ExtensionError {
  return new ExtensionError('INVALID_ARGUMENT', 'This request is no longer waiting for an answer.')
}

/** The pending request `id`; throws when unknown or settled. */
export function getApproval(approvals: ApprovalRegistry, p: z.output<typeof ApprovalGetParams>): ApprovalDetails {
  const pending = approvals.get(p.id)
  if (!pending) throw gone()
  const details: ApprovalDetails = {
    id: pending.id,
    origin: pending.origin,
    method: pending.method,
    view: pending.view,
    expiresAt: pending.expiresAt,
  }
  return pending.phishing ? { ...details, phishing: pending.phishing } : details
}

/**
 * Answer request `id`; throws when unknown or settled, when the accounts chosen are not among
 * those the request offered, or when a sign-in with a blocking warning is approved without the
 * override (nothing else is touched).
 */
export function resolveApproval(approvals: ApprovalRegistry, p: z.output<typeof ApprovalResolveParams>): { settled: true } {
  const pending = approvals.get(p.id)
  if (!pending) throw gone()
  // A sign-in for another site is approved only with the override the window asks for; without it
  // nothing is settled and the request keeps waiting for a real answer.
  if (p.approved && pending.view.kind === 'signIn' && pending.view.mismatches.length > 0 && p.acknowledged !== true) {
    throw new ExtensionError(
      'INVALID_ARGUMENT',
      'acknowledged is required: this sign-in is for another site, and approving it needs the override "I understand, sign in anyway"',
      'acknowledged',
    )
  }
  // A deceptive site's request is approved only after its full-page warning was passed in the window.
  if (p.approved && pending.phishing && p.passedWarning !== true) {
    throw new ExtensionError(
      'INVALID_ARGUMENT',
      'passedWarning is required: this site looks deceptive, and approving needs the warning passed with "I understand the risk, continue"',
      'passedWarning',
    )
  }
  const accounts = p.approved ? chosenAccounts(pending.view, p.accounts) : undefined
  if (!approvals.resolve(p.id, p.approved, accounts)) throw gone()
  return { settled: true }
}
