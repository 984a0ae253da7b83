import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { deleteSubOrganization } from '../../api/operations/delete_sub_organization.js'
import { childOrganizationIds, deleteOrganization, lockOrganization, unexportedKeyIds } from '../store/organizations.js'
import type { ActivityHandler } from './types.js'

/** How many ids a refusal names before it says "and N more". */
const NAMED = 5

function named(noun: string, ids: string[]): string {
  const shown = ids.slice(0, NAMED).join(', ')
  const more = ids.length > NAMED ? ` and ${ids.length - NAMED} more` : ''
  return `${ids.length} ${noun}${ids.length === 1 ? '' : 's'} (${shown}${more})`
}

/**
 * delete_sub_organization: the request's `organizationId` is the sub-organization to delete;
 * `{subOrganizationUuid}`.
 *
 * Who may submit it: the parent only. The
 * submitter must be a user of the sub-organization's parent (the parent's root quorum and policies
 * decide, as for any activity its users submit); a user of the sub-organization itself (or of a
 * further ancestor) is refused. NOTE: the hosted documentation (docs.turnkey.com
 * concepts/sub-organizations, "Deleting sub-organizations") says the opposite — the activity "must
 * be initiated by a root user in the sub-organization that is to be deleted. A parent org cannot
 * delete a sub-organization without its participation" — and the SDKs' `deleteSubOrganization`
 * deletes "the sub-organization of the active session". The rule is this one check, to flip if the
 * issue is revisited.
 *
 * What it does (tombstone, migration 014): refuses the root organization, a sub-organization with
 * live sub-organizations of its own (no recursive delete), and one still holding wallets or private
 * keys never exported (export_wallet / export_private_key mark them) unless `deleteWithoutExport`.
 * Then it purges the sub-organization's users, credentials (API keys, passkeys, sessions, OAuth
 * providers), wallets, private keys, policies, tags and other state, and marks its row deleted:
 * from then on every request naming it answers 404 (authenticate), its users' keys are unknown,
 * list_suborgs / get_sub_org_ids omit it. Its activities, this one included, stay and are readable
 * with get_activity through the parent's organization id.
 *
 * @throws FAILED_PRECONDITION when the organization is the root organization
 * @throws PERMISSION_DENIED when the submitter is not a user of the sub-organization's parent
 * @throws FAILED_PRECONDITION when it has sub-organizations of its own
 * @throws FAILED_PRECONDITION when it holds wallets or private keys never exported and parameters.deleteWithoutExport is not true
 * @throws NOT_FOUND when the organization was deleted meanwhile (organizationId)
 */
export const handler: ActivityHandler<z.infer<typeof deleteSubOrganization.parameters>> = async (ctx, p) => {
  const org = await lockOrganization(ctx.tx, ctx.organizationId)
  // Authentication found it a moment ago; a deletion that committed since is the same 404.
  if (!org) throw fieldError('NOT_FOUND', 'organizationId', `organization ${ctx.organizationId} not found`)
  if (org.is_root || org.parent_id === null) {
    throw fieldError('FAILED_PRECONDITION', 'organizationId', 'the root organization cannot be deleted')
  }
  if (ctx.submitter.organizationId !== org.parent_id) {
    throw fieldError(
      'PERMISSION_DENIED',
      'organizationId',
      `only a user of the parent organization ${org.parent_id} can delete sub-organization ${org.id}`,
    )
  }
  const children = await childOrganizationIds(ctx.tx, org.id, NAMED + 1)
  if (children.length > 0) {
    throw fieldError(
      'FAILED_PRECONDITION',
      'organizationId',
      `sub-organization ${org.id} has sub-organizations of its own (${children.slice(0, NAMED).join(', ')}${children.length > NAMED ? ', …' : ''}): delete them first`,
    )
  }
  if (p.deleteWithoutExport !== true) {
    const left = await unexportedKeyIds(ctx.tx, org.id)
    const parts = [
      ...(left.walletIds.length > 0 ? [named('wallet', left.walletIds)] : []),
      ...(left.privateKeyIds.length > 0 ? [named('private key', left.privateKeyIds)] : []),
    ]
    if (parts.length > 0) {
      throw fieldError(
        'FAILED_PRECONDITION',
        'parameters.deleteWithoutExport',
        `sub-organization ${org.id} still holds ${parts.join(' and ')} never exported: export them, or set deleteWithoutExport to delete them anyway`,
      )
    }
  }
  await deleteOrganization(ctx.tx, org.id, ctx.now)
  return { subOrganizationUuid: org.id }
}
