/**
 * Velocity controls, enforced (create_velocity_control): inside the transaction of the signature or
 * send they limit, each control that measures the activity is locked (`FOR UPDATE` on its row, so
 * activities counting against it run one at a time across every instance on the database), what
 * committed activities counted in its window is summed with what this one adds, and the activity
 * is refused (VELOCITY_LIMIT_EXCEEDED, naming the control and what remains) when the total breaks
 * the limit; otherwise its amount is recorded in the same transaction, so it counts only if the
 * activity commits.
 *
 * Measured: sign_transaction (Ethereum, Solana; Bitcoin and Tron for activity counts only),
 * eth_send_transaction and sol_send_transaction. Amounts are what the transaction itself moves from
 * the signer (chains/transfers.ts, chains/policy/solanaTx.ts): the native value of an EVM call and an
 * ERC-20 `transfer`; Solana System transfers and SPL `Transfer`/`TransferChecked` the signer owns.
 * Where the transaction does not say which network (a Solana sign_transaction, a legacy Ethereum
 * transaction without chain id) or which mint (an SPL `Transfer`), the amount counts against every
 * asset of the control it could be: a limit is never passed by leaving a fact out.
 */
import { SigilError } from '../../api/errors.js'
import { evmTransfers } from '../../chains/transfers.js'
import { solanaTxFromHex, type SolanaTxFacts } from '../../chains/policy/solanaTx.js'
import type { ActivityContext } from '../activityContext.js'
import {
  allVelocityControls,
  lockVelocityControl,
  pruneVelocitySpends,
  recordVelocitySpend,
  velocitySpent,
  type VelocityControlRow,
} from '../store/velocityControls.js'

/** Amounts are kept in units of 10^-18 of an asset (the most fractional digits a threshold has). */
const SCALE = 18
const ONE = 10n ** BigInt(SCALE)

/** One movement of value out of the signer: `asset` is the CAIP-19 part after the network (`slip44:60`, `erc20:0x…`, `token:<mint>`, `token:?` for an unknown mint). */
export type Movement = { family: 'eip155' | 'solana'; caip2: string | undefined; asset: string; amount: bigint }

/** What an activity adds to the controls that measure it. */
export type VelocityFacts = {
  movements: readonly Movement[]
  /** The wallet the signer belongs to (`groupBy.wallet`): its wallet id, or a private key's id. */
  walletKey: string
}

type Asset = { caip19: string; decimals: string }
type Filter = { activity?: { activityType: string }[] | undefined } | undefined
type DataSource = {
  chainAssetTransfer?: { definition: Asset[]; filter?: Filter }
  activityExecution?: { filter?: Filter }
}
type Aggregation = {
  method: string
  operator: string
  threshold: string
  window: { rolling?: { duration: string }; infinite?: object }
  groupBy: { organization?: object; user?: object; wallet?: object }
}

/** The activity types Sigil measures, without `ACTIVITY_TYPE_` and version suffix. */
export const MEASURED_ACTIVITY_KINDS = ['SIGN_TRANSACTION', 'ETH_SEND_TRANSACTION', 'SOL_SEND_TRANSACTION'] as const

/** `ACTIVITY_TYPE_SIGN_TRANSACTION_V2` → `SIGN_TRANSACTION`. */
export const activityKind = (type: string) => type.replace(/^ACTIVITY_TYPE_/, '').replace(/_V[0-9]+$/, '')

/** A decimal string (≤ 18 fractional digits) in 10^-18 units. */
export function parseScaled(decimal: string): bigint {
  const [whole = '0', frac = ''] = decimal.split('.')
  return BigInt(whole) * ONE + BigInt(frac.padEnd(SCALE, '0') || '0')
}

/** 10^-18 units as a decimal string without trailing zeros. */
export function formatScaled(v: bigint): string {
  const sign = v < 0n ? '-' : ''
  const a = v < 0n ? -v : v
  const frac = (a % ONE).toString().padStart(SCALE, '0').replace(/0+$/, '')
  return `${sign}${a / ONE}${frac ? `.${frac}` : ''}`
}

/** Base units of an asset with `decimals` in 10^-18 units (rounded up past 18 digits: never undercounted). */
export function scaleAmount(amount: bigint, decimals: number): bigint {
  if (decimals <= SCALE) return amount * 10n ** BigInt(SCALE - decimals)
  const d = 10n ** BigInt(decimals - SCALE)
  return (amount + d - 1n) / d
}

/** True when the control's asset may be what the movement moves. */
function assetMatches(caip19: string, m: Movement): boolean {
  const slash = caip19.indexOf('/')
  const chain = caip19.slice(0, slash)
  const asset = caip19.slice(slash + 1)
  if (!chain.startsWith(`${m.family}:`)) return false
  if (m.caip2 !== undefined && m.caip2 !== chain) return false
  if (m.family === 'eip155') return asset.toLowerCase() === m.asset.toLowerCase()
  return asset === m.asset || (m.asset === 'token:?' && asset.startsWith('token:'))
}

/** What the activity adds to the control (10^-18 units), or 0n when the control does not measure it. */
function amountFor(control: VelocityControlRow, kind: string, facts: VelocityFacts): bigint {
  const ds = control.data_source as DataSource
  const agg = control.aggregation as Aggregation
  const filter = (ds.chainAssetTransfer?.filter ?? ds.activityExecution?.filter)?.activity ?? []
  if (filter.length > 0 && !filter.some((f) => activityKind(f.activityType) === kind)) return 0n
  if (ds.activityExecution) return ONE
  const assets = ds.chainAssetTransfer?.definition ?? []
  let sum = 0n
  let matched = false
  for (const m of facts.movements) {
    // A movement that could be several of the control's assets counts once, at the largest amount it could be.
    let most = -1n
    for (const a of assets) if (assetMatches(a.caip19, m)) most = bigMax(most, scaleAmount(m.amount, Number(a.decimals)))
    if (most < 0n) continue
    matched = true
    sum += most
  }
  if (agg.method === 'VELOCITY_CONTROL_AGGREGATION_METHOD_COUNT') return matched ? ONE : 0n
  return sum
}

const bigMax = (a: bigint, b: bigint) => (a > b ? a : b)

function bucketOf(agg: Aggregation, ctx: ActivityContext, facts: VelocityFacts): string {
  if (agg.groupBy.user) return `user:${ctx.submitter.userId}`
  if (agg.groupBy.wallet) return `wallet:${facts.walletKey}`
  return `organization:${ctx.organizationId}`
}

function windowText(agg: Aggregation): string {
  return agg.window.rolling ? `in its rolling window of ${agg.window.rolling.duration} seconds` : 'ever (its window has no end)'
}

/**
 * Counts the activity against every velocity control of its organization that measures it, or
 * refuses it.
 *
 * @throws VELOCITY_LIMIT_EXCEEDED when the activity would take a control past its threshold; the message names the control (name, identifier, id), what remains of its window and what this activity needs, and a `sigil.VelocityLimit` detail carries them
 */
export async function enforceVelocity(ctx: ActivityContext, facts: VelocityFacts): Promise<void> {
  const controls = await allVelocityControls(ctx.tx, ctx.organizationId)
  if (controls.length === 0) return
  const kind = activityKind(ctx.type)
  const charges = controls
    .map((control) => ({ control, amount: amountFor(control, kind, facts) }))
    .filter((c) => c.amount > 0n)
    .sort((a, b) => (a.control.id < b.control.id ? -1 : 1)) // one lock order: no deadlock between activities
  for (const { control, amount } of charges) {
    if (!(await lockVelocityControl(ctx.tx, control.id))) continue // deleted meanwhile
    const agg = control.aggregation as Aggregation
    const bucket = bucketOf(agg, ctx, facts)
    const since = agg.window.rolling ? ctx.now - Number(agg.window.rolling.duration) * 1000 : null
    // Under the lock, rows past the window are dropped: the table holds one window of each control.
    if (since !== null) await pruneVelocitySpends(ctx.tx, control.id, since)
    const spent = await velocitySpent(ctx.tx, control.id, bucket, since)
    const threshold = parseScaled(agg.threshold)
    const total = spent + amount
    const strict = agg.operator === 'VELOCITY_CONTROL_AGGREGATION_OPERATOR_LESS_THAN'
    if (strict ? total >= threshold : total > threshold) {
      const remaining = bigMax(0n, threshold - spent)
      const counting = agg.method === 'VELOCITY_CONTROL_AGGREGATION_METHOD_COUNT' ? 'activities' : 'of its assets'
      throw new SigilError(
        'VELOCITY_LIMIT_EXCEEDED',
        `velocity control "${control.name}" (${control.identifier}, ${control.id}) would be exceeded: ` +
          `${formatScaled(remaining)} ${counting} remain${strict ? ' (the total must stay below the threshold)' : ''} ` +
          `of ${agg.threshold} ${windowText(agg)}, and this ${kind.toLowerCase().replaceAll('_', ' ')} counts ${formatScaled(amount)}`,
        {
          details: [
            {
              '@type': 'type.googleapis.com/sigil.VelocityLimit',
              velocityControlId: control.id,
              identifier: control.identifier,
              name: control.name,
              threshold: agg.threshold,
              spent: formatScaled(spent),
              remaining: formatScaled(remaining),
              requested: formatScaled(amount),
            },
          ],
        },
      )
    }
    await recordVelocitySpend(ctx.tx, {
      controlId: control.id,
      organizationId: ctx.organizationId,
      bucket,
      activityId: ctx.activityId,
      amount,
      now: ctx.now,
    })
  }
}

/** What EVM calls from `from` move, on `caip2` (undefined: a transaction that names no chain). */
export function evmMovements(
  caip2: string | undefined,
  from: string,
  calls: readonly { to?: string | undefined; value?: string | bigint | undefined; data?: string | undefined }[],
): Movement[] {
  return calls.flatMap((c) =>
    evmTransfers({ from, to: c.to, value: BigInt(c.value ?? 0), data: c.data }).map((t) => ({
      family: 'eip155' as const,
      caip2,
      asset: t.token ? `erc20:${t.token}` : 'slip44:60',
      amount: t.amount,
    })),
  )
}

/** What a Solana transaction moves out of `signers` (System transfers they pay, SPL transfers they own). */
export function solanaMovements(caip2: string | undefined, tx: SolanaTxFacts, signers: readonly string[]): Movement[] {
  const own = new Set(signers)
  return [
    ...tx.transfers
      .filter((t) => own.has(t.from))
      .map((t) => ({ family: 'solana' as const, caip2, asset: 'slip44:501', amount: t.amount })),
    ...tx.spl_transfers
      .filter((t) => own.has(t.owner))
      .map((t) => ({ family: 'solana' as const, caip2, asset: t.token_mint ? `token:${t.token_mint}` : 'token:?', amount: t.amount })),
  ]
}

/** {@link solanaMovements} of a hex transaction or message; none when it does not parse (the signer refuses it then). */
export function solanaMovementsOfHex(caip2: string | undefined, hex: string, signers: readonly string[]): Movement[] {
  const tx = solanaTxFromHex(hex.replace(/^0x/, ''))
  return tx ? solanaMovements(caip2, tx, signers) : []
}
