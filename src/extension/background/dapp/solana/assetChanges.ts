/**
 * What a dApp's Solana transaction changes in the user's balances, simulated against the
 * network's node before the approval window opens, as Phantom and Solflare show it: the accounts
 * the transaction names (its static keys) are read now (`getMultipleAccounts`) and as the
 * simulation leaves them (`simulateTransaction` with `accounts`, unsigned, `replaceRecentBlockhash`),
 * and compared:
 *
 * - SOL: the user's lamports after minus before, the network fee left out (it is shown apart);
 * - each SPL token (Token and Token-2022): the amounts of the token accounts the user owns, after
 *   minus before, netted per mint — a token account given to someone else counts as sent;
 * - a delegate set or changed on one of the user's token accounts: a spending right granted
 *   ("Lets 9xQe…Vy2z spend 10 USDC"), a delegate removed: revoked.
 *
 * Accounts reached only through an address lookup table are not read (their keys are not in the
 * message). A node that cannot simulate, a failing simulation or a malformed answer is
 * "Could not simulate: <reason>" — nothing is claimed then.
 */
import { base58, base64 } from '@scure/base'
import { z } from 'zod'
import { decodeMint, decodeTokenAccount, TOKEN_2022_PROGRAM, TOKEN_PROGRAM, type TokenAccountState } from '../../../../chains/splToken'
import type { NetworkInfo } from '../../../../api/serviceIdentity'
import type { ApprovalGrantView, AssetChangeView, BalanceChangesView } from '../../../protocol/approvalView'
import { isUnlimited } from '../../approval/text'
import { nodeRpc } from '../../chains/nodeRpc'
import type { Core } from '../../core'
import { solanaFailureWords } from '../../wallet/solanaErrors'
import type { DecodedSolanaTransaction } from './transaction'

/** Most accounts read around one simulation (a validator's limit for getMultipleAccounts). */
const MAX_ACCOUNTS = 100

const AccountJson = z
  .object({
    lamports: z.number().int().nonnegative(),
    owner: z.string().max(64),
    data: z.tuple([z.string().max(20_000_000), z.literal('base64')]),
  })
  .loose()
  .nullable()
const MultipleAccounts = z.object({ value: z.array(AccountJson).max(MAX_ACCOUNTS) }).loose()
const Simulated = z
  .object({
    value: z
      .object({
        err: z.unknown(),
        logs: z.array(z.string().max(10_000)).max(1_000).nullable().optional(),
        accounts: z.array(AccountJson).max(MAX_ACCOUNTS).nullable().optional(),
      })
      .loose(),
  })
  .loose()
const Fee = z.object({ value: z.number().int().nonnegative().nullable() }).loose()

/** An account as read: its lamports, owning program and data; null when it does not exist. */
export type AccountState = { lamports: bigint; owner: string; data: Uint8Array } | null

/** The user's net change of one asset (negative: sent): SOL, or a mint's base units. */
export type SolanaRawChange = { kind: 'sol'; amount: bigint } | { kind: 'token'; mint: string; amount: bigint }
/** A delegate the transaction sets (or removes) on one of the user's token accounts. */
export type SolanaRawApproval = { mint: string; delegate: string; amount: bigint; revoke: boolean }

const TOKEN_PROGRAMS = new Set([TOKEN_PROGRAM, TOKEN_2022_PROGRAM])

function tokenOf(a: AccountState): TokenAccountState | null {
  return a && TOKEN_PROGRAMS.has(a.owner) ? decodeTokenAccount(a.data) : null
}

/**
 * The user's net changes and the delegations granted or removed, from the accounts before and
 * after (pure; `before[i]` and `after[i]` are `addresses[i]`). `fee`: lamports the user pays as
 * fee payer, left out of the SOL change. Assets whose moves cancel out are left out.
 */
export function solanaChangesFromStates(
  addresses: readonly string[],
  before: readonly AccountState[],
  after: readonly AccountState[],
  user: string,
  fee: bigint,
): { changes: SolanaRawChange[]; approvals: SolanaRawApproval[] } {
  const changes: SolanaRawChange[] = []
  const approvals: SolanaRawApproval[] = []
  const at = addresses.indexOf(user)
  const sol = at < 0 ? 0n : (after[at]?.lamports ?? 0n) - (before[at]?.lamports ?? 0n) + fee
  if (sol !== 0n) changes.push({ kind: 'sol', amount: sol })
  const byMint = new Map<string, bigint>()
  const mine = (t: TokenAccountState | null) => (t !== null && t.owner === user ? t.amount : 0n)
  addresses.forEach((_, i) => {
    const pre = tokenOf(before[i] ?? null)
    const post = tokenOf(after[i] ?? null)
    const mint = post?.mint ?? pre?.mint
    if (mint === undefined) return
    const delta = mine(post) - mine(pre)
    if (delta !== 0n) byMint.set(mint, (byMint.get(mint) ?? 0n) + delta)
    if (post === null || post.owner !== user) return
    if (post.delegate !== null && (pre?.delegate !== post.delegate || pre.delegatedAmount !== post.delegatedAmount)) {
      approvals.push({ mint, delegate: post.delegate, amount: post.delegatedAmount, revoke: post.delegatedAmount === 0n })
    } else if (post.delegate === null && pre?.delegate != null && pre.owner === user) {
      approvals.push({ mint, delegate: pre.delegate, amount: 0n, revoke: true })
    }
  })
  for (const [mint, amount] of byMint) if (amount !== 0n) changes.push({ kind: 'token', mint, amount })
  return { changes, approvals }
}

function accountState(a: z.output<typeof AccountJson>): AccountState {
  return a === null ? null : { lamports: BigInt(a.lamports), owner: a.owner, data: base64.decode(a.data[0]) }
}

/** Base units in a token's units, trailing zeros trimmed ("12.5"). */
function units(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString()
  const digits = amount.toString().padStart(decimals + 1, '0')
  const fraction = digits.slice(-decimals).replace(/0+$/, '')
  return fraction ? `${digits.slice(0, -decimals)}.${fraction}` : digits.slice(0, -decimals)
}

const shortKey = (k: string) => `${k.slice(0, 4)}…${k.slice(-4)}`

/** "Could not simulate" with the reason, as the window words it (it adds the full stop). */
const unknown = (reason: string): BalanceChangesView => ({ status: 'unknown', reason: reason.replace(/[.\s]+$/, '') })

/** Why a simulation could not be run or read, in words. */
function reasonOf(e: unknown): string {
  const message = e instanceof Error ? e.message : 'the node gave no usable answer'
  return message.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 300)
}

/**
 * Simulate `decoded` (the bytes a dApp sent) for `user` on `network` and describe the changes.
 * Never throws: every failure is `{ status: 'unknown', reason }`.
 */
export async function solanaBalanceChanges(
  core: Core,
  network: Pick<NetworkInfo, 'rpcUrl' | 'name' | 'caip2' | 'nativeSymbol' | 'nativeDecimals' | 'tokens'>,
  user: string,
  bytes: Uint8Array,
  decoded: DecodedSolanaTransaction,
): Promise<BalanceChangesView> {
  try {
    const addresses = [...new Set([user, ...decoded.tx.message.accountKeys.map((k) => base58.encode(k))])].slice(0, MAX_ACCOUNTS)
    const [pre, sim, fee] = await Promise.all([
      nodeRpc<unknown>(core, network, 'getMultipleAccounts', [addresses, { encoding: 'base64', commitment: 'confirmed' }]),
      nodeRpc<unknown>(core, network, 'simulateTransaction', [
        base64.encode(bytes),
        {
          encoding: 'base64',
          sigVerify: false,
          replaceRecentBlockhash: true,
          commitment: 'confirmed',
          accounts: { addresses, encoding: 'base64' },
        },
      ]),
      nodeRpc<unknown>(core, network, 'getFeeForMessage', [base64.encode(decoded.tx.messageBytes), { commitment: 'confirmed' }]),
    ])
    const before = MultipleAccounts.safeParse(pre)
    const simulated = Simulated.safeParse(sim)
    const feeRead = Fee.safeParse(fee)
    if (!before.success || !simulated.success || before.data.value.length !== addresses.length) {
      return unknown('the node gave an answer Sigil cannot read')
    }
    const { err, logs, accounts } = simulated.data.value
    if (err !== null && err !== undefined) {
      const words = solanaFailureWords({ transactionErrorJson: JSON.stringify(err), logs: logs ?? undefined })
      return unknown(`the transaction fails — ${words ?? 'the network refused it'}`)
    }
    if (!accounts || accounts.length !== addresses.length) {
      return unknown('the node did not return the accounts after the transaction')
    }
    const lamportsFee = feeRead.success && feeRead.data.value !== null ? BigInt(feeRead.data.value) : 0n
    const raw = solanaChangesFromStates(addresses, before.data.value.map(accountState), accounts.map(accountState), user, lamportsFee)
    return await describeSolanaChanges(core, network, raw)
  } catch (e) {
    return unknown(`${reasonOf(e)}`)
  }
}

/** The changes in the user's units: SOL, the network's listed tokens by symbol, other mints by their decimals read on chain. */
async function describeSolanaChanges(
  core: Core,
  network: Pick<NetworkInfo, 'rpcUrl' | 'name' | 'caip2' | 'nativeSymbol' | 'nativeDecimals' | 'tokens'>,
  raw: { changes: SolanaRawChange[]; approvals: SolanaRawApproval[] },
): Promise<BalanceChangesView> {
  const mints = [...new Set([...raw.changes.flatMap((c) => (c.kind === 'token' ? [c.mint] : [])), ...raw.approvals.map((a) => a.mint)])]
  const listed = new Map(network.tokens.map((t) => [t.address, t]))
  const unlisted = mints.filter((m) => !listed.has(m))
  const decimals = new Map<string, number>()
  if (unlisted.length > 0) {
    const read = MultipleAccounts.safeParse(
      await nodeRpc<unknown>(core, network, 'getMultipleAccounts', [unlisted, { encoding: 'base64', commitment: 'confirmed' }]),
    )
    if (read.success) {
      read.data.value.forEach((a, i) => {
        const state = accountState(a)
        const mint = state && TOKEN_PROGRAMS.has(state.owner) ? decodeMint(state.data) : null
        if (mint) decimals.set(unlisted[i] as string, mint.decimals)
      })
    }
  }
  const facts = (mint: string) => {
    const t = listed.get(mint)
    if (t) return { symbol: t.symbol, decimals: t.decimals }
    const d = decimals.get(mint)
    return { symbol: shortKey(mint), decimals: d }
  }
  const amountText = (amount: bigint, mint: string) => {
    const f = facts(mint)
    return f.decimals === undefined ? `${amount} base units of token ${mint}` : `${units(amount, f.decimals)} ${f.symbol}`
  }
  const changes: AssetChangeView[] = raw.changes.map((c) => {
    const direction = c.amount < 0n ? 'send' : 'receive'
    const abs = c.amount < 0n ? -c.amount : c.amount
    if (c.kind === 'sol') {
      return {
        direction,
        amount: `${units(abs, network.nativeDecimals)} ${network.nativeSymbol}`,
        symbol: network.nativeSymbol,
        assetId: `${network.caip2}/native`,
        token: null,
      }
    }
    return {
      direction,
      amount: amountText(abs, c.mint),
      symbol: facts(c.mint).symbol,
      assetId: `${network.caip2}/${c.mint}`,
      token: c.mint,
    }
  })
  const approvals: ApprovalGrantView[] = raw.approvals.map((a) => {
    const f = facts(a.mint)
    return {
      spender: a.delegate,
      what: a.revoke
        ? f.symbol
        : isUnlimited(a.amount) || a.amount === 2n ** 64n - 1n
          ? `Unlimited ${f.symbol}`
          : amountText(a.amount, a.mint),
      symbol: f.symbol,
      assetId: `${network.caip2}/${a.mint}`,
      token: a.mint,
      revoke: a.revoke,
    }
  })
  return { status: 'simulated', changes, approvals }
}
