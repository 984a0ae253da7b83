/**
 * dApp signing (personal_sign, eth_signTypedData_v4, eth_signTransaction): the origin must be
 * connected to the requested address (else 4100), the user approves in our window bound to
 * the request's id, and only then is sign_raw_payload / sign_transaction stamped and sent.
 * Signatures are 0x r‖s‖v with v = 27/28 (wire-formats B4 gives v as the recovery id).
 */
import { formatUnits } from 'viem'
import { z } from 'zod'
import { bytesToHex, hexToBytes, utf8Encode } from '../../../../crypto/encoding'
import { RPC_ERROR, rpcError, type RpcErrorObject } from '../../../protocol/rpcErrors'
import type { ApprovalView } from '../../../protocol/approvalView'
import { messageView, printableUtf8 } from '../../approval/messageView'
import { parseSiwe, siweRefusal, siweView } from './siwe'
import { decodeCalldata, decodeTokenCall } from './calldata'
import { checkTypedData, type TypedDataInput, typedInteger } from './typedData'
import { describeTypedData, typedDataTokens } from './typedDataSummary'
import { readTokens } from './tokenInfo'
import { siteChain } from './chains'
import { recordActivitySite } from '../../activity/activitySites'
import { failureOutcome, NOT_LOGGED_IN } from '../session'
import { signInExpiredAtApproval } from '../signInOrigin'
import { accountsFor } from './accounts'
import { buildUnsignedTransaction, checkSendParams, type TransactionRequest } from './ethTransaction'
import { fillTransaction, missingFields } from './ethFill'
import { feeRows } from '../../approval/text'
import { organizationAbis } from './simulate'
import type { DappContext, DappOutcome } from '../../methods'
import type { SigilClient } from '../../../../api/client'

/** 4100: the site is not connected to the account it names. */
export const NOT_CONNECTED = rpcError(RPC_ERROR.UNAUTHORIZED, 'Unauthorized: this site is not connected to that account')

function invalid(message: string): DappOutcome {
  return { error: rpcError(RPC_ERROR.INVALID_PARAMS, message) }
}

/** The connected account a request acts for, and its organization. */
export type Signer = { address: string; organizationId: string }

/** The connected signer for `address`, or the 4100 to answer with (checked before params details). */
export async function signerFor(ctx: DappContext, address: string): Promise<Signer | { error: RpcErrorObject }> {
  const session = await ctx.core.current()
  if (!session) return { error: NOT_LOGGED_IN }
  // Any account granted to the site may sign (the active one is first in eth_accounts).
  const connected = (await accountsFor(ctx)).find((a) => a.toLowerCase() === address.toLowerCase())
  if (connected === undefined) return { error: NOT_CONNECTED }
  return { address: connected, organizationId: session.record.organizationId }
}

/** What a signing step gives back: the answer for the dApp and the activity that made it. */
type Signed = { result: string; activityId: string }

/**
 * Ask, then run `sign` in the same organization's session; every failure is an EIP-1193 error.
 * The completed activity is recorded with the requesting origin (activity/activitySites.ts).
 */
async function approveThenSign(
  ctx: DappContext,
  signer: Signer,
  method: string,
  view: ApprovalView,
  sign: (client: SigilClient, organizationId: string, signWith: string) => Promise<Signed>,
): Promise<DappOutcome> {
  const outcome = await ctx.dapp.ask(ctx.origin, method, view)
  if (!outcome.approved) return { error: outcome.error }
  const late = signInExpiredAtApproval(view, ctx.core.now())
  if (late !== null) return { error: rpcError(RPC_ERROR.INVALID_PARAMS, late) }
  try {
    return await ctx.core.withSession(async (client, s) => {
      if (s.record.organizationId !== signer.organizationId) return { error: NOT_LOGGED_IN }
      const signed = await sign(client, signer.organizationId, signer.address)
      await recordActivitySite(ctx.core.deps.local, signed.activityId, ctx.origin, ctx.core.now())
      return { result: signed.result }
    })
  } catch (err) {
    return failureOutcome(err)
  }
}

/** `{r, s, v}` from sign_raw_payload → 0x-prefixed 65-byte r‖s‖v with v = 27/28. */
export function toRsv(sig: { r: string; s: string; v: string }): string {
  const r = sig.r.replace(/^0x/, '').padStart(64, '0')
  const s = sig.s.replace(/^0x/, '').padStart(64, '0')
  const raw = Number.parseInt(sig.v, 16)
  const v = raw < 27 ? raw + 27 : raw
  if (!/^[0-9a-fA-F]{64}$/.test(r) || !/^[0-9a-fA-F]{64}$/.test(s) || (v !== 27 && v !== 28)) throw new Error('malformed signature')
  return `0x${r}${s}${v.toString(16)}`.toLowerCase()
}

async function rawSign(client: SigilClient, input: Parameters<SigilClient['signRawPayload']>[0]): Promise<Signed> {
  const res = await client.signRawPayload(input)
  if (res.activity.status !== 'ACTIVITY_STATUS_COMPLETED') throw new Error('signing did not complete')
  return { result: toRsv(res), activityId: res.activity.id }
}

/** EIP-191 personal message bytes: "\x19Ethereum Signed Message:\n" + len + message. */
export function eip191Bytes(message: Uint8Array): Uint8Array {
  const prefix = utf8Encode(`\x19Ethereum Signed Message:\n${message.length}`)
  const out = new Uint8Array(prefix.length + message.length)
  out.set(prefix)
  out.set(message, prefix.length)
  return out
}

/**
 * The window for a personal_sign message: an EIP-4361 sign-in (siwe.ts) is shown as one, after the
 * checks that refuse it before any window; any other message as text or bytes.
 */
async function personalSignView(ctx: DappContext, signer: string, bytes: Uint8Array): Promise<ApprovalView | { error: RpcErrorObject }> {
  const text = printableUtf8(bytes)
  const fields = text === null ? null : parseSiwe(text)
  if (text === null || fields === null) return messageView(signer, bytes)
  const chainId = BigInt((await siteChain(ctx)).label.chainId)
  const refusal = siweRefusal(fields, { now: ctx.core.now(), chainId, signer })
  if (refusal !== null) return { error: rpcError(RPC_ERROR.INVALID_PARAMS, refusal) }
  return siweView(ctx.origin, signer, fields, text)
}

/** personal_sign [data, address]; an EIP-4361 message is a sign-in (siwe.ts). */
export async function personalSign([data, address]: readonly [string, string, ...string[]], ctx: DappContext): Promise<DappOutcome> {
  const signer = await signerFor(ctx, address)
  if ('error' in signer) return signer
  let bytes: Uint8Array
  try {
    bytes = hexToBytes(data, 'data')
  } catch {
    return invalid('Invalid params for personal_sign: data must be even-length hex')
  }
  if (bytes.length > 65_536) return invalid('Invalid params for personal_sign: message too long')
  const view = await personalSignView(ctx, signer.address, bytes)
  if ('error' in view) return view
  return approveThenSign(ctx, signer, 'personal_sign', view, (client, organizationId, signWith) =>
    rawSign(client, {
      organizationId,
      signWith,
      payload: bytesToHex(eip191Bytes(bytes)),
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_KECCAK256',
    }),
  )
}

const TypedData = z.object({
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  primaryType: z.string().min(1),
  domain: z.record(z.string(), z.unknown()),
  message: z.record(z.string(), z.unknown()),
})

/** eth_signTypedData_v4 [address, typedData (JSON string or object)]. */
export async function signTypedDataV4(
  [address, input]: readonly [string, string | Record<string, unknown>],
  ctx: DappContext,
): Promise<DappOutcome> {
  const signer = await signerFor(ctx, address)
  if ('error' in signer) return signer
  let raw: unknown = input
  if (typeof input === 'string') {
    if (input.length > 262_144) return invalid('Invalid params for eth_signTypedData_v4: typed data too long')
    try {
      raw = JSON.parse(input)
    } catch {
      return invalid('Invalid params for eth_signTypedData_v4: typed data is not JSON')
    }
  }
  const parsed = TypedData.safeParse(raw)
  if (!parsed.success) return invalid('Invalid params for eth_signTypedData_v4: expected { types, primaryType, domain, message }')
  // The shape is confirmed; check and show the dApp's own object (what is signed), not zod's copy of it.
  const typed = raw as TypedDataInput
  // Every field against its declared type, before any window opens.
  const checked = checkTypedData(typed)
  if (!checked.ok) return invalid(`Invalid params for eth_signTypedData_v4: ${checked.reason}`)
  const { label: chain, network } = await siteChain(ctx)
  if (Object.hasOwn(typed.domain, 'chainId') && typedInteger(typed.domain['chainId']) !== BigInt(chain.chainId)) {
    return invalid('Invalid params for eth_signTypedData_v4: domain chainId is not the selected chain')
  }
  // The amounts in the token's units: its decimals and symbol read from the site's network (configured tokens first).
  const known = network ? await readTokens(ctx.core, network, typedDataTokens(typed)) : undefined
  const described = describeTypedData(typed, signer.address, chain.chainId, known?.tokens)
  const { summary } = described
  const warnings = [...described.warnings, ...(known?.warnings ?? [])]
  const payload = JSON.stringify(raw)
  return approveThenSign(
    ctx,
    signer,
    'eth_signTypedData_v4',
    {
      kind: 'typedData',
      address: signer.address,
      primaryType: typed.primaryType,
      warnings,
      summary,
      domain: checked.domain,
      message: checked.message,
    },
    (client, organizationId, signWith) =>
      rawSign(client, { organizationId, signWith, payload, encoding: 'PAYLOAD_ENCODING_EIP712', hashFunction: 'HASH_FUNCTION_NO_OP' }),
  )
}

/**
 * eth_signTransaction [tx]: the signed serialized transaction (0x…). Nonce, gas and fees the dApp
 * leaves out are filled from the network's node before the window opens (ethFill.ts); the window
 * shows the filled values, and exactly what it shows is signed.
 */
export async function signTransaction([tx]: readonly [TransactionRequest], ctx: DappContext): Promise<DappOutcome> {
  const signer = await signerFor(ctx, tx.from)
  if ('error' in signer) return signer
  const { label: chain, network } = await siteChain(ctx)
  const checked = checkSendParams(tx, chain.chainId)
  if (!checked.ok) return invalid(`Invalid params for eth_signTransaction: ${checked.reason}`)
  let complete: TransactionRequest = tx
  let fill: { filled: string[]; warnings: string[]; estimatedWei: bigint | null } = { filled: [], warnings: [], estimatedWei: null }
  if (missingFields(tx).length > 0 && network !== undefined) {
    try {
      const filled = await fillTransaction(
        ctx.core.deps.fetch,
        network.rpcUrl,
        { ...tx, to: checked.to },
        organizationAbis(ctx, signer.organizationId),
      )
      // The reason quotes the node (ethFill.ts): the page gets a fixed message.
      if (!filled.ok)
        return { error: rpcError(RPC_ERROR.INTERNAL, 'Sigil could not estimate the gas of this transaction; nothing was signed') }
      complete = filled.tx
      fill = filled
    } catch {
      return { error: rpcError(RPC_ERROR.INTERNAL, `The RPC node of ${network.name} did not answer; nothing was signed`) }
    }
  }
  const built = buildUnsignedTransaction(complete, chain.chainId)
  if (!built.ok) return invalid(`Invalid params for eth_signTransaction: ${built.reason}`)
  const native = { symbol: network?.nativeSymbol ?? 'ETH', decimals: network?.nativeDecimals ?? 18 }
  return approveThenSign(
    ctx,
    signer,
    'eth_signTransaction',
    {
      kind: 'transaction',
      address: signer.address,
      to: built.to,
      valueWei: built.valueWei.toString(10),
      value: `${formatUnits(built.valueWei, native.decimals)} ${native.symbol}`,
      data: built.data,
      call: built.to === null ? decodeCalldata(built.data) : await decodeTokenCall(ctx.core, network, built.to, built.data),
      chain,
      nonce: built.nonce.toString(10),
      fees: feeRows({ valueWei: built.valueWei, gasLimit: built.gas, price: built.price, estimatedWei: fill.estimatedWei, native }),
      filled: fill.filled,
      warnings: fill.warnings,
    },
    async (client, organizationId, signWith) => {
      const res = await client.signTransaction({
        organizationId,
        signWith,
        unsignedTransaction: built.unsignedHex.replace(/^0x/, ''),
        type: 'TRANSACTION_TYPE_ETHEREUM',
      })
      if (res.activity.status !== 'ACTIVITY_STATUS_COMPLETED' || !/^(0x)?[0-9a-fA-F]+$/.test(res.signedTransaction)) {
        throw new Error('signing did not complete')
      }
      return { result: `0x${res.signedTransaction.replace(/^0x/, '')}`, activityId: res.activity.id }
    },
  )
}
