/**
 * The approval page's side of a pending approval (popup router rows `approvalGet` and
 * `approvalResolve`). The page names the request by its id; an unknown or already-settled id
 * is refused, and resolving never falls back to "whatever is pending" (style.md anti-pattern 3).
 */
import { z } from 'zod'
import type { ApprovalRegistry } from './approvals'
import type { ApprovalDetails } from '../../protocol/approvalView'
import { ExtensionError } from '../failures'
import { chosenAccounts } from '../dapp/accountChoice'
import { MAX_SITE_ACCOUNTS } from '../dapp/evm/permissions'

/** An approval id as issued by the registry (a UUID). */
export const ApprovalId = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)

/** `approvalGet` params: the id is required. */
export const ApprovalGetParams = z.object({ id: ApprovalId }).strict()
/** `approvalResolve` params: the id and the answer are required; a connect window adds the accounts the user chose. */
export const ApprovalResolveParams = z
  .object({
    id: ApprovalId,
    approved: z.boolean(),
    accounts: z.array(z.string().trim().min(1).max(128)).max(MAX_SITE_ACCOUNTS).optional(),
  })
  .strict()

function gone(): ExtensionError {
  return new ExtensionError('INVALID_ARGUMENT', 'This request is no longer waiting for an answer.')
}

/** The pending request `id`; throws when unknown or settled. */
export function getApproval(approvals: ApprovalRegistry, p: z.output<typeof ApprovalGetParams>): ApprovalDetails {
  const pending = approvals.get(p.id)
  if (!pending) throw gone()
  return { id: pending.id, origin: pending.origin, method: pending.method, view: pending.view, expiresAt: pending.expiresAt }
}

/**
 * Answer request `id`; throws when unknown or settled, or when the accounts chosen are not among
 * those the request offered (nothing else is touched).
 */
export function resolveApproval(approvals: ApprovalRegistry, p: z.output<typeof ApprovalResolveParams>): { settled: true } {
  const pending = approvals.get(p.id)
  if (!pending) throw gone()
  const accounts = p.approved ? chosenAccounts(pending.view, p.accounts) : undefined
  if (!approvals.resolve(p.id, p.approved, accounts)) throw gone()
  return { settled: true }
}
