/**
 * Gas sponsorship limits (upsert_gas_usage_config / get_gas_usage): who pays, how much a window
 * may cost, and the admission of each sponsored send against it.
 *
 * - The **billing organization** of a send is the parent of the organization that sends it, or
 *   that organization itself when it has no parent (the root organization). Its config
 *   (`gas_usage_configs`) governs the send: a sub-organization's own config row sets the limits of
 *   *its* sub-organizations and is ignored for its own sends, so a sub-organization's users cannot
 *   raise their own limit.
 * - `orgWindowLimitUsd` caps everything billed to the billing organization in the window: its own
 *   sponsored sends and those of all its direct sub-organizations together (the hosted service's
 *   "across all orgs" limit). `subOrgWindowLimitUsd` caps each sub-organization's own sends.
 * - The window is rolling: the last `windowDurationMinutes`. Usage is the fees settled in it plus
 *   what the sends still in flight hold of it: at submit a send is admitted while the usage is
 *   below the limit; once the tracker has built its transaction (and before it is stored or
 *   broadcast) it reserves the most that transaction can cost (gas limit × max fee per gas) and
 *   fails, never broadcast, when that does not fit; when it lands the fee it actually cost (never
 *   more) replaces the reservation. So what the sponsor pays in a window never exceeds the limit.
 * - No config, or `enabled: false`: sponsorship is refused (FAILED_PRECONDITION). A network with
 *   no USD price (`nativeUsd`) cannot be counted, so it is refused too.
 * - Admission and reservation take the billing organization's config row `FOR UPDATE`, so those
 *   billed to one organization run one after the other, across instances too: two sends cannot
 *   both squeeze under a limit only one of them fits.
 */
import { type SigilError, fieldError } from '../../api/errors.js'
import type { Network } from '../../chains/networks.js'
import type { ActivityContext } from '../activityContext.js'
import {
  type GasUsageConfigRow,
  getGasUsageConfig,
  getSponsoredSend,
  insertSponsoredSend,
  reserveSponsoredSend,
  settleSponsoredSend,
  sponsoredSendPrice,
  sponsoredUsageSince,
} from '../store/gasUsage.js'
import { getOrganization } from '../store/organizations.js'
import type { Sql } from '../store/sql.js'
import { formatUsd, nativeToMicroUsd } from './usd.js'

const SPONSOR_FIELD = 'parameters.sponsor'

/** The message of a send refused for want of a config (or a disabled one). */
export const SPONSORSHIP_NOT_ENABLED =
  'gas sponsorship is not enabled for this organization; its operator enables it with upsert_gas_usage_config'

/** The organization whose config governs sends of `orgId`: its parent, or itself when it has none. */
export async function billingOrganizationOf(sql: Sql, orgId: string): Promise<string> {
  const org = await getOrganization(sql, orgId)
  return org?.parent_id ?? orgId
}

/** What the limits are for one organization's sends, and what they used in the window. */
export type GasUsage = {
  billingOrganizationId: string
  config: GasUsageConfigRow
  /** The limit that applies to the organization (sub-organization limit, or the billing organization's own). */
  windowLimitMicroUsd: bigint
  /** The organization's usage in the window (for the billing organization: everything billed to it). */
  usageMicroUsd: bigint
}

/**
 * The limits governing `orgId`'s sponsored sends and its usage in the window ending at `now`;
 * undefined when no config governs it. With `lock`, the billing organization's config row is held
 * until the transaction ends.
 */
export async function gasUsageOf(sql: Sql, orgId: string, now: number, lock = false): Promise<GasUsage | undefined> {
  const billingOrganizationId = await billingOrganizationOf(sql, orgId)
  const config = await getGasUsageConfig(sql, billingOrganizationId, lock)
  if (!config) return undefined
  const since = now - config.window_minutes * 60_000
  const isBilling = billingOrganizationId === orgId
  return {
    billingOrganizationId,
    config,
    windowLimitMicroUsd: isBilling ? config.org_window_limit_micro_usd : config.sub_org_window_limit_micro_usd,
    usageMicroUsd: await sponsoredUsageSince(sql, orgId, isBilling ? 'billing' : 'organization', since),
  }
}

const windowText = (minutes: number) => (minutes % 60 === 0 ? `${minutes / 60} h` : `${minutes} min`)

function exhausted(which: string, limit: bigint, usage: bigint, estimate: bigint, minutes: number): SigilError {
  return fieldError(
    'RESOURCE_EXHAUSTED',
    SPONSOR_FIELD,
    `the ${which} gas sponsorship limit of ${formatUsd(limit)} USD per ${windowText(minutes)} is used up ` +
      `(${formatUsd(usage)} USD used or reserved in the window, this send can cost up to ${formatUsd(estimate)} USD)`,
  )
}

/**
 * Admits the sponsored send `sendId` of the activity's organization on `network`, whose fee is
 * estimated at `estimateWei` (0 when its transaction is not built yet: the tracker reserves the
 * most it can cost with {@link reserveSponsoredFee} before broadcasting it), and records it as in
 * flight. Runs inside the activity's transaction, after the send is recorded; a refusal
 * throws and stores nothing.
 *
 * @throws FAILED_PRECONDITION when no enabled config governs the organization, or the network has no USD price
 * @throws RESOURCE_EXHAUSTED when the send does not fit the sub-organization's or the billing organization's window limit
 */
export async function admitSponsoredSend(
  ctx: ActivityContext,
  network: Pick<Network, 'caip2' | 'name' | 'nativeDecimals'> & { nativeUsd?: string | undefined },
  sendId: string,
  estimateWei = 0n,
): Promise<void> {
  const usage = await gasUsageOf(ctx.tx, ctx.organizationId, ctx.now, true)
  if (!usage?.config.enabled) throw fieldError('FAILED_PRECONDITION', SPONSOR_FIELD, SPONSORSHIP_NOT_ENABLED)
  const price = network.nativeUsd
  const estimate = price === undefined ? undefined : nativeToMicroUsd(estimateWei, network.nativeDecimals, price)
  if (price === undefined || estimate === undefined) {
    throw fieldError(
      'FAILED_PRECONDITION',
      SPONSOR_FIELD,
      `${network.name} (${network.caip2}) has no USD price of its native coin, so sponsored fees cannot be counted against the limits; its operator sets it in SIGIL_NATIVE_USD`,
    )
  }
  const refusal = await overLimit(ctx.tx, usage, ctx.organizationId, ctx.now, estimate)
  if (refusal) throw refusal
  const { billingOrganizationId } = usage
  await insertSponsoredSend(
    ctx.tx,
    {
      sendId,
      organizationId: ctx.organizationId,
      billingOrganizationId,
      caip2: network.caip2,
      nativeUsd: price,
      nativeDecimals: network.nativeDecimals,
      estimateMicroUsd: estimate,
    },
    ctx.now,
  )
}

/**
 * The refusal when `estimate` more micro-USD does not fit `orgId`'s window (its sub-organization
 * limit, then the billing organization's), `exceptSendId` not counted; undefined when it fits.
 */
async function overLimit(
  sql: Sql,
  usage: GasUsage,
  orgId: string,
  now: number,
  estimate: bigint,
  exceptSendId?: string,
): Promise<SigilError | undefined> {
  const { config, billingOrganizationId } = usage
  const since = now - config.window_minutes * 60_000
  const own = exceptSendId === undefined ? usage.usageMicroUsd : await sponsoredUsageSince(sql, orgId, 'organization', since, exceptSendId)
  const billed =
    billingOrganizationId === orgId ? own : await sponsoredUsageSince(sql, billingOrganizationId, 'billing', since, exceptSendId)
  const fits = (used: bigint, limit: bigint) => used < limit && used + estimate <= limit
  if (billingOrganizationId !== orgId && !fits(own, config.sub_org_window_limit_micro_usd)) {
    return exhausted('sub-organization', config.sub_org_window_limit_micro_usd, own, estimate, config.window_minutes)
  }
  if (!fits(billed, config.org_window_limit_micro_usd)) {
    return exhausted('organization', config.org_window_limit_micro_usd, billed, estimate, config.window_minutes)
  }
  return undefined
}

/**
 * Reserves, for the admitted sponsored send `sendId` whose transaction is built, the most it can
 * cost the sponsor (`maxCostWei` = gas limit × max fee per gas) in its organization's window at
 * `now`: the reservation counts instead of the admission's estimate until the fee is settled. Runs
 * in the transaction that stores the signed transaction (so a send is broadcast only with its
 * reservation held), under the billing organization's config row lock. Returns the refusal when
 * the reservation does not fit the window's budget (the settled fees and the other reservations),
 * or sponsorship was disabled since admission; nothing is reserved then.
 */
export async function reserveSponsoredFee(tx: Sql, sendId: string, maxCostWei: bigint, now: number): Promise<SigilError | undefined> {
  const admitted = await getSponsoredSend(tx, sendId)
  if (!admitted) return fieldError('FAILED_PRECONDITION', SPONSOR_FIELD, 'this sponsored send was never admitted against a gas budget')
  const usage = await gasUsageOf(tx, admitted.organizationId, now, true)
  if (!usage?.config.enabled) return fieldError('FAILED_PRECONDITION', SPONSOR_FIELD, SPONSORSHIP_NOT_ENABLED)
  const reserved = nativeToMicroUsd(maxCostWei, admitted.nativeDecimals, admitted.nativeUsd) ?? 0n
  const refusal = await overLimit(tx, usage, admitted.organizationId, now, reserved, sendId)
  if (refusal) return refusal
  await reserveSponsoredSend(tx, sendId, reserved, now)
  return undefined
}

/**
 * Records what the sponsor actually paid for the admitted send `sendId` (it landed, or failed on
 * chain), converted at the price it was admitted with: from then on the fee counts instead of the
 * estimate, at time `at`. A send never admitted, or already settled, is left as it is.
 */
export async function settleSponsoredFee(db: Sql, sendId: string, feeWei: bigint, at: number): Promise<void> {
  const admitted = await sponsoredSendPrice(db, sendId)
  if (!admitted) return
  const fee = nativeToMicroUsd(feeWei < 0n ? 0n : feeWei, admitted.nativeDecimals, admitted.nativeUsd) ?? 0n
  await settleSponsoredSend(db, sendId, feeWei, fee, at)
}
