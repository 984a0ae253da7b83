/**
 * Wallet Standard Solana signing (`solana:signMessage`, `solana:signTransaction`,
 * `solana:signAndSendTransaction`): the account must be the one granted to the origin (else 4100),
 * the input is checked and decoded before any window opens (-32602 naming the problem: not a
 * transaction, a foreign fee payer, an unknown chain, a message that is a transaction), the user
 * approves in our window bound to the request's id, and only then is the service asked to sign
 * (sign_raw_payload with ed25519, sign_transaction TRANSACTION_TYPE_SOLANA) or to sign and
 * broadcast (sol_send_transaction, followed with get_send_transaction_status).
 */
import { base58, base64 } from '@scure/base'
import type { SigilClient } from '../../../../api/client'
import { parseSolanaMessage } from '../../../../chains/sign/solanaMessage'
import { bytesToHex, hexToBytes } from '../../../../crypto/encoding'
import { RPC_ERROR, rpcError, type RpcErrorObject } from '../../../protocol/rpcErrors'
import { recordActivitySite } from '../../activity/activitySites'
import type { ApprovalView, BalanceChangesView } from '../../../protocol/approvalView'
import { listNetworks } from '../../chains/networks'
import { nodeRpc } from '../../chains/nodeRpc'
import { messageView } from '../../approval/messageView'
import { failureOutcome, NOT_LOGGED_IN } from '../session'
import { signInExpiredAtApproval } from '../signInOrigin'
import type { DappContext, DappOutcome } from '../../methods'
import { solanaAccountsFor } from './accounts'
import { findSolanaChain, type SolanaChain, solanaChains } from './chains'
import { solanaBalanceChanges } from './assetChanges'
import { type DecodedSolanaTransaction, decodeSolanaTransaction, feePayerProblem, solanaTransactionView } from './transaction'
import { solanaFailureWords } from '../../wallet/solanaErrors'

/** Longest message `solana:signMessage` signs. */
export const MAX_SOLANA_MESSAGE_BYTES = 65_536

const NOT_CONNECTED = rpcError(RPC_ERROR.UNAUTHORIZED, 'Unauthorized: this site is not connected to that account')

function invalid(method: string, reason: string): { error: RpcErrorObject } {
  return { error: rpcError(RPC_ERROR.INVALID_PARAMS, `Invalid params for ${method}: ${reason}`) }
}

/** A failure after the user approved, with a readable reason (no service internals). */
class SendFailed extends Error {}

/** The account that signs and the organization whose session must still be the live one after the approval. */
export type Signer = { address: string; organizationId: string }

/** The connected signer for `address`, or the 4100 to answer with. */
async function signerFor(ctx: DappContext, address: string): Promise<Signer | { error: RpcErrorObject }> {
  const session = await ctx.core.current()
  if (!session) return { error: NOT_LOGGED_IN }
  // Any account granted to the site may sign.
  if (!(await solanaAccountsFor(ctx)).some((a) => a.address === address)) return { error: NOT_CONNECTED }
  return { address, organizationId: session.record.organizationId }
}

function decodeBase64(s: string): Uint8Array | null {
  try {
    return base64.decode(s)
  } catch {
    return null
  }
}

/** Ask, then run `sign` in the same organization's session; every failure is a provider error. */
export async function approveThenSign(
  ctx: DappContext,
  signer: Signer,
  method: string,
  view: ApprovalView,
  sign: (client: SigilClient, signer: Signer, recordSite: (activityId: string) => Promise<void>) => Promise<unknown>,
): Promise<DappOutcome> {
  const outcome = await ctx.dapp.ask(ctx.origin, method, view)
  if (!outcome.approved) return { error: outcome.error }
  const late = signInExpiredAtApproval(view, ctx.core.now())
  if (late !== null) return { error: rpcError(RPC_ERROR.INVALID_PARAMS, late) }
  // The activity the approved request became is recorded with the requesting origin (activity/activitySites.ts).
  const recordSite = (activityId: string) => recordActivitySite(ctx.core.deps.local, activityId, ctx.origin, ctx.core.now())
  try {
    return await ctx.core.withSession(async (client, s) => {
      if (s.record.organizationId !== signer.organizationId) return { error: NOT_LOGGED_IN }
      return { result: await sign(client, signer, recordSite) }
    })
  } catch (err) {
    if (err instanceof SendFailed) return { error: rpcError(RPC_ERROR.INTERNAL, err.message) }
    return failureOutcome(err)
  }
}

/** `solana:signMessage` `{ address, message }` → `{ signature }` (64-byte ed25519, base64). */
export async function signSolanaMessage(
  { address, message }: { address: string; message: string },
  ctx: DappContext,
): Promise<DappOutcome> {
  const method = 'solana:signMessage'
  const signer = await signerFor(ctx, address)
  if ('error' in signer) return signer
  const bytes = decodeBase64(message)
  if (!bytes) return invalid(method, 'message must be base64')
  if (bytes.length > MAX_SOLANA_MESSAGE_BYTES) return invalid(method, 'message too long')
  // A transaction message signed "as a message" would be a valid transaction signature.
  if (looksLikeTransactionMessage(bytes)) return invalid(method, 'the message is a Solana transaction; use signTransaction')
  return approveThenSign(ctx, signer, method, messageView(address, bytes), async (client, s, recordSite) => ({
    signature: base64.encode(await signSolanaBytes(client, s, bytes, recordSite)),
  }))
}

/**
 * The 64-byte ed25519 signature of exactly `bytes` by `signer`'s key, through the service
 * (sign_raw_payload, no hashing); the activity is recorded with the requesting site.
 */
export async function signSolanaBytes(
  client: SigilClient,
  signer: Signer,
  bytes: Uint8Array,
  recordSite: (activityId: string) => Promise<void>,
): Promise<Uint8Array> {
  const res = await client.signRawPayload({
    organizationId: signer.organizationId,
    signWith: signer.address,
    payload: bytesToHex(bytes),
    encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
    hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE',
  })
  if (res.activity.status !== 'ACTIVITY_STATUS_COMPLETED') throw new Error('signing did not complete')
  await recordSite(res.activity.id)
  const signature = hexToBytes(`${res.r.padStart(64, '0')}${res.s.padStart(64, '0')}`)
  if (signature.length !== 64) throw new Error('malformed signature')
  return signature
}

/** True when `bytes` parse as a whole Solana message (legacy or v0). */
export function looksLikeTransactionMessage(bytes: Uint8Array): boolean {
  try {
    parseSolanaMessage(bytes)
    return true
  } catch {
    return false
  }
}

type TransactionInput = { address: string; transaction: string; chain?: string | undefined }

/**
 * The network to simulate a transaction on: the one the site named; else the only Solana network;
 * else the one where the transaction's blockhash is recent (a wallet adapter's signTransaction
 * names no chain). Undefined when none can be told.
 */
async function simulationNetwork(ctx: DappContext, chain: SolanaChain | undefined, decoded: DecodedSolanaTransaction) {
  const networks = (await listNetworks(ctx.core)).filter((n) => n.family === 'solana')
  if (chain) return networks.find((n) => n.caip2 === chain.caip2)
  if (networks.length === 1) return networks[0]
  const blockhash = base58.encode(decoded.tx.message.recentBlockhash)
  const recent = await Promise.all(
    networks.slice(0, 8).map((n) =>
      nodeRpc<{ value?: unknown }>(ctx.core, n, 'isBlockhashValid', [blockhash, { commitment: 'confirmed' }]).then(
        (r) => r.value === true,
        () => false,
      ),
    ),
  )
  return networks.find((_, i) => recent[i])
}

/** Checks shared by both transaction methods; the decoded view inputs or the error. */
async function checkTransaction(
  method: string,
  input: TransactionInput,
  ctx: DappContext,
  send: boolean,
): Promise<{ signer: Signer; bytes: Uint8Array; chain: SolanaChain | undefined; view: ApprovalView } | { error: RpcErrorObject }> {
  const signer = await signerFor(ctx, input.address)
  if ('error' in signer) return signer
  const bytes = decodeBase64(input.transaction)
  if (!bytes) return invalid(method, 'transaction must be base64')
  let chain: SolanaChain | undefined
  if (input.chain !== undefined) {
    chain = findSolanaChain(await solanaChains(ctx.core), input.chain)
    if (!chain) return invalid(method, `chain ${input.chain} is not one of this wallet's Solana networks`)
  }
  const decoded = decodeSolanaTransaction(bytes)
  if (!decoded.ok) return invalid(method, decoded.reason)
  const problem = feePayerProblem(decoded.decoded, signer.address)
  if (problem) return invalid(method, problem)
  const network = chain ? `${chain.name} (${chain.id})` : '(not named by the site)'
  const info = await simulationNetwork(ctx, chain, decoded.decoded)
  const balanceChanges: BalanceChangesView = info
    ? await solanaBalanceChanges(ctx.core, info, signer.address, bytes, decoded.decoded)
    : { status: 'unknown', reason: 'the site did not say which network the transaction is for, and its blockhash is not recent on any' }
  return { signer, bytes, chain, view: { ...solanaTransactionView(decoded.decoded, signer.address, network, send), balanceChanges } }
}

/** `solana:signTransaction` `{ address, transaction, chain? }` → `{ signedTransaction }` (base64 wire format). */
export async function signSolanaTransaction(input: TransactionInput, ctx: DappContext): Promise<DappOutcome> {
  const method = 'solana:signTransaction'
  const checked = await checkTransaction(method, input, ctx, false)
  if ('error' in checked) return checked
  return approveThenSign(ctx, checked.signer, method, checked.view, async (client, s, recordSite) => {
    const res = await client.signTransaction({
      organizationId: s.organizationId,
      signWith: s.address,
      unsignedTransaction: bytesToHex(checked.bytes),
      type: 'TRANSACTION_TYPE_SOLANA',
    })
    if (res.activity.status !== 'ACTIVITY_STATUS_COMPLETED') throw new Error('signing did not complete')
    await recordSite(res.activity.id)
    return { signedTransaction: base64.encode(hexToBytes(res.signedTransaction)) }
  })
}

/** How long signAndSendTransaction follows a send before answering with its signature. */
export const SEND_FOLLOW_MS = 60_000
const POLL_MS = 250

/**
 * `solana:signAndSendTransaction` `{ address, transaction, chain }` → `{ signature }` (64 bytes,
 * base64): sol_send_transaction signs and broadcasts with preflight; the answer comes once the
 * send is included (or still on its way after {@link SEND_FOLLOW_MS}); a failed send is -32603
 * with the node's reason.
 */
export async function signAndSendSolanaTransaction(
  input: TransactionInput & { chain: string },
  ctx: DappContext,
  opts: { sleep?: (ms: number) => Promise<void> } = {},
): Promise<DappOutcome> {
  const method = 'solana:signAndSendTransaction'
  const checked = await checkTransaction(method, input, ctx, true)
  if ('error' in checked) return checked
  const chain = checked.chain as SolanaChain
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  return approveThenSign(ctx, checked.signer, method, checked.view, async (client, s, recordSite) => {
    const res = await client.solSendTransaction({
      organizationId: s.organizationId,
      caip2: chain.caip2,
      unsignedTransaction: bytesToHex(checked.bytes),
      signWiths: [s.address],
    })
    await recordSite(res.activity.id)
    if (res.activity.status !== 'ACTIVITY_STATUS_COMPLETED') throw new Error('sending did not complete')
    let signature: string | undefined
    for (let poll = 1; ; poll++) {
      const status = await client.getSendTransactionStatus({
        organizationId: s.organizationId,
        sendTransactionStatusId: res.sendTransactionStatusId,
      })
      signature = status.solana?.signature ?? signature
      if (status.txStatus === 'FAILED') {
        // In words (solanaErrors.ts), never the node's JSON; the service's own message when the node said nothing.
        const words = status.error?.solana ? solanaFailureWords(status.error.solana) : undefined
        const reason = words ?? status.error?.message ?? status.txError ?? 'The network refused the transaction.'
        throw new SendFailed(reason.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 300))
      }
      const late = poll * POLL_MS >= SEND_FOLLOW_MS
      if (signature !== undefined && (status.txStatus === 'INCLUDED' || late)) break
      if (late) throw new SendFailed('The transaction was not signed in time')
      await sleep(POLL_MS)
    }
    const bytes = base58.decode(signature)
    if (bytes.length !== 64) throw new Error('malformed signature')
    return { signature: base64.encode(bytes) }
  })
}
