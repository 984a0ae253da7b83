/**
 * Sign In With Solana (`solana:signIn`, github.com/phantom/sign-in-with-solana): the wallet writes
 * the message itself in the standard format (`createSignInMessageText` of
 * @solana/wallet-standard-util) after filling `domain` with the requesting site's host when absent
 * and `address` with the account that signs. Refused before any window (-32602 naming the field):
 * a malformed input, an `expirationTime` passed, a `notBefore` still ahead, a `chainId` that is not
 * one of the wallet's Solana networks, an `address` that is not the site's connected account (or,
 * when the site is not connected, not one of the user's accounts). The window shows the sign-in
 * (SignInView) with the domain and URI checked against the origin the browser reported: a mismatch
 * is a blocking warning the user must explicitly override. A site not yet connected is connected
 * to that account by the same approval (one window). The signature comes from the service
 * (sign_raw_payload over the exact text bytes) and is checked with `verifySignIn` against the
 * site's own input before it is returned; a signature that does not verify is never returned.
 */
import { base64 } from '@scure/base'
import { createSignInMessageText, verifySignIn } from '@solana/wallet-standard-util'
import { z } from 'zod'
import { RPC_ERROR, rpcError, type RpcErrorObject } from '../../../protocol/rpcErrors'
import type { AccountOption, FieldRow, SignInView } from '../../../protocol/approvalView'
import {
  SIGN_IN_FIELDS,
  SIGN_IN_MAX_RESOURCE_CHARS,
  SIGN_IN_MAX_RESOURCES,
  type SolanaSignInFields,
  signInInputProblem,
} from '../../../protocol/solanaSignIn'
import type { DappContext, DappOutcome } from '../../methods'
import { failureOutcome, sessionOrLogin } from '../session'
import { signInMismatches } from '../signInOrigin'
import { optionsOf, sessionAccounts } from '../siteAccounts'
import { SOLANA_ACCOUNTS_EVENT, solanaAccount, solanaAccountsFor, solanaWire, type SolanaAccountWire } from './accounts'
import { type SolanaChain, solanaChains } from './chains'
import { readSolanaGrant, writeSolanaGrant } from './permissions'
import { approveThenSign, looksLikeTransactionMessage, MAX_SOLANA_MESSAGE_BYTES, signSolanaBytes } from './signing'

const METHOD = 'solana:signIn'

const bounded = (max: number) => z.string().max(max)

/**
 * The `sol_signIn` params: the input's fields, bounded; the precise per-field checks (one line,
 * non-empty, RFC 3339 times) answer with the field's name in {@link signInSolana}.
 */
export const SolanaSignInParams = z
  .object({
    ...(Object.fromEntries(Object.entries(SIGN_IN_FIELDS).map(([k, max]) => [k, bounded(max).optional()])) as {
      [K in keyof typeof SIGN_IN_FIELDS]: z.ZodOptional<z.ZodString>
    }),
    resources: z.array(bounded(SIGN_IN_MAX_RESOURCE_CHARS)).max(SIGN_IN_MAX_RESOURCES).optional(),
  })
  .strict()

/** What `sol_signIn` answers: the account that signed in, the site's accounts now, the signed text and its signature (base64). */
export type SolanaSignInResult = {
  account: SolanaAccountWire
  accounts: SolanaAccountWire[]
  signedMessage: string
  signature: string
}

function invalid(reason: string): { error: RpcErrorObject } {
  return { error: rpcError(RPC_ERROR.INVALID_PARAMS, `Invalid params for ${METHOD}: ${reason}`) }
}

/** The message's rows as the window shows them, in message order, only those present. */
const ROWS: Array<[keyof SolanaSignInFields, string]> = [
  ['uri', 'URI'],
  ['version', 'Version'],
  ['chainId', 'Chain ID'],
  ['nonce', 'Nonce'],
  ['issuedAt', 'Issued At'],
  ['expirationTime', 'Expiration Time'],
  ['notBefore', 'Not Before'],
  ['requestId', 'Request ID'],
]

/**
 * True when a SIWS `chainId` names one of `chains`: the Wallet Standard id (`solana:devnet`,
 * `solana:localnet`), the CAIP-2 id, or either without its `solana:` namespace (the spec's
 * `mainnet`/`devnet`/`testnet`/`localnet` and a bare genesis-hash reference).
 */
export function namesSolanaChain(chains: readonly SolanaChain[], chainId: string): boolean {
  const bare = (id: string) => id.replace(/^solana:/, '')
  return chains.some((c) => [c.id, c.caip2, bare(c.id), bare(c.caip2)].includes(chainId))
}

/** The input as @solana/wallet-standard-util takes it. */
type SignInInput = Partial<Parameters<typeof createSignInMessageText>[0]>

/** `input` without its absent fields. */
function present(input: SolanaSignInFields): SignInInput {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as unknown as SignInInput
}

/** The refusal for the input's times, chain and form before anything is asked (null: none). */
async function inputRefusal(input: SolanaSignInFields, ctx: DappContext): Promise<{ error: RpcErrorObject } | null> {
  const problem = signInInputProblem(input)
  if (problem) return invalid(problem)
  const now = ctx.core.now()
  if (input.expirationTime !== undefined && Date.parse(input.expirationTime) <= now) {
    return invalid(`expirationTime ${input.expirationTime} has passed: the sign-in request has expired`)
  }
  if (input.notBefore !== undefined && Date.parse(input.notBefore) > now) {
    return invalid(`notBefore ${input.notBefore} is still ahead: the sign-in request is not valid yet`)
  }
  if (input.chainId !== undefined) {
    const chains = await solanaChains(ctx.core)
    if (!namesSolanaChain(chains, input.chainId)) {
      const offered = chains.map((c) => c.id).join(', ') || 'none'
      return invalid(`chainId ${input.chainId} is not one of this wallet's Solana networks (${offered})`)
    }
  }
  if (input.address !== undefined && solanaAccount(input.address) === null) {
    return invalid(`address ${input.address} is not a Solana address`)
  }
  return null
}

/** The account that signs in: the connected one (or the one the input names), or, when the site is not connected, the one it would be given. */
type Chosen = { address: string; connects: AccountOption | null } | { error: RpcErrorObject }

async function chooseAccount(input: SolanaSignInFields, ctx: DappContext): Promise<Chosen> {
  const connected = await solanaAccountsFor(ctx)
  if (connected.length > 0) {
    const address = input.address ?? (connected[0] as SolanaAccountWire).address
    if (!connected.some((a) => a.address === address)) return invalid(`address ${address} is not the account connected to this site`)
    return { address, connects: null }
  }
  let options: AccountOption[]
  try {
    options = optionsOf(await ctx.core.withSession((client, s) => sessionAccounts(client, s, ctx.core.deps.local)), 'solana')
  } catch (err) {
    return failureOutcome(err)
  }
  if (options.length === 0) return { error: rpcError(RPC_ERROR.UNAUTHORIZED, 'Unauthorized: this wallet has no Solana account') }
  const option = input.address === undefined ? options[0] : options.find((o) => o.address === input.address)
  if (!option) return invalid(`address ${input.address} is not one of this wallet's Solana accounts`)
  return { address: option.address, connects: option }
}

/** The window's view of the sign-in whose exact text is `text`. */
function signInView(origin: string, filled: SignInInput & { domain: string; address: string }, text: string): SignInView {
  const rows: FieldRow[] = []
  for (const [key, label] of ROWS) {
    const value = filled[key]
    if (typeof value === 'string') rows.push([label, value])
  }
  return {
    kind: 'signIn',
    chain: 'solana',
    address: filled.address,
    domain: filled.domain,
    statement: filled.statement ?? null,
    rows,
    resources: [...(filled.resources ?? [])],
    mismatches: signInMismatches(origin, { domain: filled.domain, uri: filled.uri }),
    text,
  }
}

/**
 * `solana:signIn` with the site's `input` → {@link SolanaSignInResult}. Logged out: the login
 * window first (as for connect). Not connected: approving also grants the site the account shown.
 */
export async function signInSolana(input: SolanaSignInFields, ctx: DappContext): Promise<DappOutcome> {
  const refusal = await inputRefusal(input, ctx)
  if (refusal) return refusal
  const session = await sessionOrLogin(ctx)
  if ('error' in session) return session
  const chosen = await chooseAccount(input, ctx)
  if ('error' in chosen) return chosen
  const filled = { ...present(input), domain: input.domain ?? new URL(ctx.origin).host, address: chosen.address }
  const text = createSignInMessageText(filled)
  const bytes = new TextEncoder().encode(text)
  if (bytes.length > MAX_SOLANA_MESSAGE_BYTES) return invalid(`the sign-in message is longer than ${MAX_SOLANA_MESSAGE_BYTES} bytes`)
  // Never sign bytes that are also a valid transaction message.
  if (looksLikeTransactionMessage(bytes)) return invalid('the sign-in message would be a Solana transaction')
  const view = signInView(ctx.origin, filled, text)
  if (chosen.connects) view.connects = chosen.connects
  const organizationId = session.record.organizationId
  const signer = { address: chosen.address, organizationId }
  return approveThenSign(ctx, signer, METHOD, view, async (client, s, recordSite) => {
    let accounts = await solanaAccountsFor(ctx)
    const granted = accounts.some((a) => a.address === s.address)
    // A site disconnected while the window was open signs nothing with the account it lost.
    if (!chosen.connects && !granted) throw new Error('the site is no longer connected to that account')
    const signature = await signSolanaBytes(client, s, bytes, recordSite)
    const account = solanaAccount(s.address) as SolanaAccountWire
    const output = {
      account: { address: account.address, publicKey: base64.decode(account.publicKey), chains: [], features: [] },
      signedMessage: bytes,
      signature,
    }
    // Checked against the site's own input, as the site will check it.
    if (!verifySignIn(present(input), output)) throw new Error('the sign-in signature does not verify')
    if (!granted) {
      const grant = await readSolanaGrant(ctx.core.deps.local, ctx.origin)
      const kept = grant && grant.organizationId === organizationId ? grant.accounts : []
      const addresses = [...kept, s.address]
      await writeSolanaGrant(ctx.core.deps.local, ctx.origin, { accounts: addresses, organizationId, grantedAt: ctx.core.now() })
      accounts = solanaWire(addresses)
      ctx.dapp.emit(ctx.origin, SOLANA_ACCOUNTS_EVENT, accounts)
    }
    const result: SolanaSignInResult = { account, accounts, signedMessage: base64.encode(bytes), signature: base64.encode(signature) }
    return result
  })
}
