/**
 * The Solana dev runtime's JSON-RPC 2.0 methods: a closed table of the standard methods the
 * service, the extension and dApp libraries call, each with its parameters validated, answering
 * in the shapes and error codes of Solana's own RPC (solana.com/docs/rpc).
 */
import { base58, base64 } from '@scure/base'
import { type Address, getCompiledTransactionMessageDecoder, isAddress } from '@solana/kit'
import { z } from 'zod'
import { describeTransactionError } from './errors.js'
import {
  MAX_RECENT_BLOCKHASHES,
  type Outcome,
  type SimulatedAccount,
  SolanaDevRuntime,
  type TokenBalanceRecord,
  type TransactionRecord,
} from './runtime.js'
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../chains/splToken.js'
import { decodeMint, decodeTokenAccount, type MintState, type TokenAccountState } from '../../chains/splToken.js'
import { uiTokenAmount } from './tokens.js'

/** A JSON-RPC error with its standard or Solana-specific code. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

export const PARSE_ERROR = -32700
export const INVALID_REQUEST = -32600
export const METHOD_NOT_FOUND = -32601
export const INVALID_PARAMS = -32602
/** sendTransaction's preflight simulation failed. */
export const SEND_TRANSACTION_PREFLIGHT_FAILURE = -32002
export const TRANSACTION_SIGNATURE_VERIFICATION_FAILURE = -32003
export const UNSUPPORTED_TRANSACTION_VERSION = -32015
/** The request's minContextSlot is ahead of the node. */
export const MIN_CONTEXT_SLOT_NOT_REACHED = -32016

const Pubkey = z.string().refine((s) => isAddress(s), 'Invalid param: Invalid')
const Commitment = z.enum(['processed', 'confirmed', 'finalized']).optional()
const ContextConfig = z.looseObject({ commitment: Commitment, minContextSlot: z.number().int().nonnegative().optional() }).optional()
const Encoding = z.enum(['base58', 'base64', 'base64+zstd', 'jsonParsed', 'json'])
const Lamports = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)

/** Most addresses getMultipleAccounts and simulateTransaction's `accounts` take, as a validator. */
const MAX_MULTIPLE_ACCOUNTS = 100

/** An account as the runtime holds it, in the shape simulations return. */
function liveAccount(a: {
  lamports: bigint | number
  programAddress: string
  data: Uint8Array | readonly number[]
  executable: boolean
}): SimulatedAccount {
  return { lamports: BigInt(a.lamports), owner: a.programAddress, data: Uint8Array.from(a.data), executable: a.executable }
}

/** An account as the RPC answers with it (getAccountInfo, getMultipleAccounts, simulateTransaction). */
function accountJson(a: SimulatedAccount, encoding: 'base58' | 'base64') {
  return {
    data: encoding === 'base58' ? [base58.encode(a.data), 'base58'] : [base64.encode(a.data), 'base64'],
    executable: a.executable,
    lamports: Number(a.lamports),
    owner: a.owner,
    rentEpoch: Number.MAX_SAFE_INTEGER,
    space: a.data.length,
  }
}

type Method = { params: z.ZodType<unknown[]>; run: (rt: SolanaDevRuntime, params: never) => unknown }
const method = <P extends z.ZodType<unknown[]>>(params: P, run: (rt: SolanaDevRuntime, params: z.output<P>) => unknown): Method => ({
  params,
  run: run as Method['run'],
})
const none = z.tuple([]).or(z.tuple([ContextConfig]))
const context = (rt: SolanaDevRuntime) => ({ slot: rt.slot, apiVersion: '2.2.0' })

/** An offset or size within an account's data (10 MiB, the largest account). */
const Offset = z
  .number()
  .int()
  .nonnegative()
  .max(10 * 1024 * 1024)
/** A transaction signature: base58 of 64 bytes. */
const Signature = z.string().refine((s) => {
  try {
    return /^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(s) && base58.decode(s).length === 64
  } catch {
    return false
  }
}, 'Invalid param: not a signature')
const DataSlice = z.strictObject({
  offset: Offset,
  length: Offset,
})
/** The largest memcmp comparison Solana's RPC accepts, in bytes. */
const MAX_MEMCMP_BYTES = 128
const ProgramAccountsFilter = z.union([
  z.strictObject({
    dataSize: Offset,
  }),
  z.strictObject({
    memcmp: z.strictObject({
      offset: Offset,
      bytes: z.string().max(256),
      encoding: z.enum(['base58', 'base64']).optional(),
    }),
  }),
])

/** The closed method table. */
export const METHODS: Record<string, Method> = {
  getHealth: method(z.tuple([]), () => 'ok'),
  getVersion: method(z.tuple([]), () => ({ 'solana-core': '2.2.0', 'feature-set': 0 })),
  getGenesisHash: method(z.tuple([]), (rt) => rt.genesisHash),
  getSlot: method(none, (rt) => rt.slot),
  getBlockHeight: method(none, (rt) => rt.blockHeight),
  getTransactionCount: method(none, (rt) => rt.transactionCount),
  getEpochInfo: method(none, (rt) => ({
    absoluteSlot: rt.slot,
    blockHeight: rt.blockHeight,
    epoch: 0,
    slotIndex: rt.slot,
    slotsInEpoch: 432000,
    transactionCount: rt.transactionCount,
  })),
  getLatestBlockhash: method(none, (rt) => ({
    context: context(rt),
    value: { blockhash: rt.latestBlockhash(), lastValidBlockHeight: rt.blockHeight + MAX_RECENT_BLOCKHASHES },
  })),
  isBlockhashValid: method(z.tuple([z.string()]).rest(ContextConfig), (rt, [hash]) => ({
    context: context(rt),
    value: rt.isRecentBlockhash(hash),
  })),
  getBalance: method(z.tuple([Pubkey]).rest(ContextConfig), (rt, [address]) => ({
    context: context(rt),
    value: Number(rt.balance(address as Address)),
  })),
  getAccountInfo: method(
    z.tuple([Pubkey]).rest(z.looseObject({ encoding: Encoding.optional(), commitment: Commitment }).optional()),
    (rt, [address, config]) => {
      const a = rt.account(address as Address)
      return {
        context: context(rt),
        value: a ? accountJson(liveAccount(a), config?.encoding === 'base58' || !config?.encoding ? 'base58' : 'base64') : null,
      }
    },
  ),
  getMultipleAccounts: method(
    z
      .tuple([z.array(Pubkey).max(MAX_MULTIPLE_ACCOUNTS)])
      .rest(z.looseObject({ encoding: z.enum(['base64', 'base58']).optional(), commitment: Commitment }).optional()),
    (rt, [addresses, config]) => ({
      context: context(rt),
      value: addresses.map((address) => {
        const a = rt.account(address as Address)
        return a ? accountJson(liveAccount(a), config?.encoding ?? 'base64') : null
      }),
    }),
  ),
  getMinimumBalanceForRentExemption: method(
    z
      .tuple([
        z
          .number()
          .int()
          .nonnegative()
          .max(10 * 1024 * 1024),
      ])
      .rest(ContextConfig),
    (rt, [space]) => Number(rt.rentExemptMinimum(space)),
  ),
  getFeeForMessage: method(z.tuple([z.string()]).rest(ContextConfig), (rt, [message]) => {
    const bytes = decodeBase64Param(message, 'message')
    let fee: bigint
    try {
      fee = rt.feeForMessage(bytes)
    } catch {
      throw new RpcError(INVALID_PARAMS, 'invalid message: failed to deserialize')
    }
    return { context: context(rt), value: Number(fee) }
  }),
  requestAirdrop: method(z.tuple([Pubkey, Lamports.min(1)]).rest(ContextConfig), (rt, [address, lamports]) =>
    rt.airdrop(address as Address, BigInt(lamports)),
  ),
  sendTransaction: method(
    z.tuple([z.string()]).rest(
      z
        .looseObject({
          encoding: z.enum(['base58', 'base64']).optional(),
          skipPreflight: z.boolean().optional(),
          preflightCommitment: Commitment,
          maxRetries: z.number().int().nonnegative().optional(),
          minContextSlot: z.number().int().nonnegative().optional(),
        })
        .optional(),
    ),
    (rt, [encoded, config]) => {
      const wire = decodeTransactionParam(encoded, config?.encoding ?? 'base58')
      const tx = decodeTransaction(wire)
      if (!config?.skipPreflight) {
        const outcome = rt.simulate(tx)
        if (outcome.err === 'SignatureFailure') {
          throw new RpcError(TRANSACTION_SIGNATURE_VERIFICATION_FAILURE, 'Transaction signature verification failure')
        }
        if (outcome.err !== null) throw preflightFailure(outcome)
      }
      const sent = rt.send(tx, wire)
      if (!sent.recorded) {
        if (sent.outcome.err === 'SignatureFailure') {
          throw new RpcError(TRANSACTION_SIGNATURE_VERIFICATION_FAILURE, 'Transaction signature verification failure')
        }
        throw preflightFailure(sent.outcome)
      }
      return sent.signature
    },
  ),
  simulateTransaction: method(
    z.tuple([z.string()]).rest(
      z
        .looseObject({
          encoding: z.enum(['base58', 'base64']).optional(),
          sigVerify: z.boolean().optional(),
          replaceRecentBlockhash: z.boolean().optional(),
          commitment: Commitment,
          accounts: z
            .looseObject({
              addresses: z.array(Pubkey).max(MAX_MULTIPLE_ACCOUNTS),
              // The account data encodings this runtime writes; a validator also offers the others.
              encoding: z.enum(['base64', 'base58']).optional(),
            })
            .optional(),
        })
        .optional(),
    ),
    (rt, [encoded, config]) => {
      const tx = decodeTransaction(decodeTransactionParam(encoded, config?.encoding ?? 'base58'))
      const outcome = rt.simulate(tx, {
        replaceRecentBlockhash: config?.replaceRecentBlockhash,
        accounts: config?.accounts?.addresses,
        // A validator checks signatures in a simulation only when asked to.
        sigVerify: config?.sigVerify ?? false,
      })
      const replaced = config?.replaceRecentBlockhash
        ? { replacementBlockhash: { blockhash: rt.latestBlockhash(), lastValidBlockHeight: rt.blockHeight + MAX_RECENT_BLOCKHASHES } }
        : {}
      return {
        context: context(rt),
        value: {
          err: outcome.err,
          logs: outcome.logs,
          accounts: outcome.accounts
            ? outcome.accounts.map((a) => (a ? accountJson(a, config?.accounts?.encoding ?? 'base64') : null))
            : null,
          unitsConsumed: outcome.unitsConsumed,
          returnData: null,
          ...replaced,
        },
      }
    },
  ),
  getSignatureStatuses: method(
    z.tuple([z.array(z.string()).max(256)]).rest(z.looseObject({ searchTransactionHistory: z.boolean().optional() }).optional()),
    (rt, [signatures]) => ({
      context: context(rt),
      value: signatures.map((s) => {
        const r = rt.status(s)
        return r
          ? {
              slot: r.slot,
              confirmations: null,
              err: r.err,
              status: r.err === null ? { Ok: null } : { Err: r.err },
              confirmationStatus: 'finalized',
            }
          : null
      }),
    }),
  ),
  getTransaction: method(
    z.tuple([z.string()]).rest(
      z
        .looseObject({
          encoding: Encoding.optional(),
          commitment: Commitment,
          maxSupportedTransactionVersion: z.number().int().nonnegative().optional(),
        })
        .or(Encoding)
        .optional(),
    ),
    (rt, [signature, config]) => {
      const r = rt.status(signature)
      if (!r) return null
      const options = typeof config === 'string' ? { encoding: config } : (config ?? {})
      if (r.version !== 'legacy' && options.maxSupportedTransactionVersion === undefined) {
        throw new RpcError(
          UNSUPPORTED_TRANSACTION_VERSION,
          `Transaction version (${r.version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0`,
        )
      }
      return transactionResponse(r, options.encoding ?? 'json')
    },
  ),

  getTokenAccountsByOwner: method(
    z
      .tuple([Pubkey, z.union([z.strictObject({ mint: Pubkey }), z.strictObject({ programId: Pubkey })])])
      .rest(z.looseObject({ encoding: Encoding.optional(), commitment: Commitment }).optional()),
    (rt, [owner, filter, config]) => ({
      context: context(rt),
      value: tokenAccountsWhere(rt, filter, (t) => t.owner === owner).map((a) => keyedTokenAccount(rt, a, config?.encoding ?? 'base64')),
    }),
  ),
  getTokenAccountsByDelegate: method(
    z
      .tuple([Pubkey, z.union([z.strictObject({ mint: Pubkey }), z.strictObject({ programId: Pubkey })])])
      .rest(z.looseObject({ encoding: Encoding.optional(), commitment: Commitment }).optional()),
    (rt, [delegate, filter, config]) => ({
      context: context(rt),
      value: tokenAccountsWhere(rt, filter, (t) => t.delegate === delegate).map((a) =>
        keyedTokenAccount(rt, a, config?.encoding ?? 'base64'),
      ),
    }),
  ),
  getTokenAccountBalance: method(z.tuple([Pubkey]).rest(ContextConfig), (rt, [address]) => {
    const a = rt.account(address as Address)
    const token = a && TOKEN_PROGRAMS.has(a.programAddress) ? decodeTokenAccount(a.data) : null
    if (!token) throw new RpcError(INVALID_PARAMS, 'Invalid param: not a Token account')
    return { context: context(rt), value: uiTokenAmount(token.amount, mintOf(rt, token.mint).decimals) }
  }),
  getTokenSupply: method(z.tuple([Pubkey]).rest(ContextConfig), (rt, [address]) => {
    const a = rt.account(address as Address)
    const mint = a && TOKEN_PROGRAMS.has(a.programAddress) ? decodeMint(a.data) : null
    if (!mint) throw new RpcError(INVALID_PARAMS, 'Invalid param: not a Token mint')
    return { context: context(rt), value: uiTokenAmount(mint.supply, mint.decimals) }
  }),

  getProgramAccounts: method(
    z.tuple([Pubkey]).rest(
      z
        .looseObject({
          commitment: Commitment,
          minContextSlot: z.number().int().nonnegative().optional(),
          withContext: z.boolean().optional(),
          encoding: Encoding.optional(),
          dataSlice: DataSlice.optional(),
          filters: z.array(ProgramAccountsFilter).max(4, 'too many filters provided; max 4').optional(),
        })
        .optional(),
    ),
    (rt, [program, config]) => {
      requireContextSlot(rt, config?.minContextSlot)
      const encoding = accountEncoding(config?.encoding)
      const filters = (config?.filters ?? []).map(compileFilter)
      const accounts = rt
        .programAccounts(program as Address)
        .map((a) => ({
          address: a.address as string,
          lamports: BigInt(a.lamports),
          data: Uint8Array.from(a.data),
          executable: a.executable,
        }))
        .filter((a) => filters.every((keep) => keep(a.data)))
        .sort((x, y) => (x.address < y.address ? -1 : x.address > y.address ? 1 : 0))
        .map((a) => keyedAccount(rt, program, a, encoding, config?.dataSlice))
      return config?.withContext ? { context: context(rt), value: accounts } : accounts
    },
  ),
  getSignaturesForAddress: method(
    z.tuple([Pubkey]).rest(
      z
        .looseObject({
          limit: z.number().int().min(1).max(1000, 'Invalid limit; max 1000').optional(),
          before: Signature.optional(),
          until: Signature.optional(),
          commitment: Commitment,
          minContextSlot: z.number().int().nonnegative().optional(),
        })
        .optional(),
    ),
    (rt, [address, config]) => {
      requireContextSlot(rt, config?.minContextSlot)
      for (const field of ['before', 'until'] as const) {
        const signature = config?.[field]
        if (signature !== undefined && !rt.knows(signature))
          throw new RpcError(INVALID_PARAMS, `Invalid param: ${field}: unknown signature`)
      }
      const records = rt.signaturesFor(address, {
        limit: config?.limit ?? 1000,
        ...(config?.before !== undefined ? { before: config.before } : {}),
        ...(config?.until !== undefined ? { until: config.until } : {}),
      })
      return records.map((r) => ({
        signature: r.signature,
        slot: r.slot,
        err: r.err,
        memo: null,
        blockTime: r.blockTime,
        confirmationStatus: 'finalized',
      }))
    },
  ),
}

/** Refuses a request for a slot the runtime has not reached, as Solana's RPC does. */
function requireContextSlot(rt: SolanaDevRuntime, minContextSlot: number | undefined) {
  if (minContextSlot !== undefined && minContextSlot > rt.slot) {
    throw new RpcError(MIN_CONTEXT_SLOT_NOT_REACHED, 'Minimum context slot has not been reached', { contextSlot: rt.slot })
  }
}

/** The encodings an account's data is answered in; `jsonParsed` falls back to base64 where there is no parser, as Solana's does. */
function accountEncoding(encoding: string | undefined): 'base58' | 'base64' | 'jsonParsed' {
  if (encoding === undefined) return 'base58'
  if (encoding === 'base58' || encoding === 'base64' || encoding === 'jsonParsed') return encoding
  throw new RpcError(
    INVALID_PARAMS,
    `Invalid param: encoding: ${encoding} is not supported for accounts here (use base58, base64 or jsonParsed)`,
  )
}

/** A filter as a predicate on the account's data. */
function compileFilter(filter: z.output<typeof ProgramAccountsFilter>): (data: Uint8Array) => boolean {
  if ('dataSize' in filter) return (data) => data.length === filter.dataSize
  const { offset, bytes, encoding = 'base58' } = filter.memcmp
  let wanted: Uint8Array
  try {
    wanted = encoding === 'base58' ? base58.decode(bytes) : base64.decode(bytes)
  } catch {
    throw new RpcError(INVALID_PARAMS, `Invalid param: filters.memcmp.bytes: not ${encoding}`)
  }
  if (wanted.length > MAX_MEMCMP_BYTES)
    throw new RpcError(INVALID_PARAMS, `Invalid param: filters.memcmp.bytes: longer than ${MAX_MEMCMP_BYTES} bytes`)
  return (data) => offset + wanted.length <= data.length && wanted.every((b, i) => data[offset + i] === b)
}

/** One `{pubkey, account}` of getProgramAccounts, its data sliced and encoded as asked. */
function keyedAccount(
  rt: SolanaDevRuntime,
  program: string,
  a: { address: string; lamports: bigint; data: Uint8Array; executable: boolean },
  encoding: 'base58' | 'base64' | 'jsonParsed',
  slice: { offset: number; length: number } | undefined,
) {
  if (encoding === 'jsonParsed' && !slice && TOKEN_PROGRAMS.has(program)) {
    const token = decodeTokenAccount(a.data)
    if (token && rt.account(token.mint as Address))
      return keyedTokenAccount(rt, { address: a.address, program, lamports: a.lamports, data: a.data, token }, 'jsonParsed')
  }
  const data = slice ? a.data.subarray(slice.offset, slice.offset + slice.length) : a.data
  if (encoding === 'base58' && data.length > MAX_BASE58_BYTES) {
    throw new RpcError(
      INVALID_PARAMS,
      `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`,
    )
  }
  return {
    pubkey: a.address,
    account: {
      data: encoding === 'base58' ? [base58.encode(data), 'base58'] : [base64.encode(data), 'base64'],
      executable: a.executable,
      lamports: Number(a.lamports),
      owner: program,
      rentEpoch: Number.MAX_SAFE_INTEGER,
      space: a.data.length,
    },
  }
}
/** Solana's RPC refuses base58 account data longer than this. */
const MAX_BASE58_BYTES = 128

const TOKEN_PROGRAMS = new Set<string>([TOKEN_PROGRAM, TOKEN_2022_PROGRAM])

type TokenAccountEntry = { address: string; program: string; lamports: bigint; data: Uint8Array; token: TokenAccountState }

/** The mint `address` (for its decimals); a token account whose mint is gone is a server-side inconsistency. */
function mintOf(rt: SolanaDevRuntime, address: string): MintState {
  const a = rt.account(address as Address)
  const mint = a && TOKEN_PROGRAMS.has(a.programAddress) ? decodeMint(a.data) : null
  if (!mint) throw new RpcError(INVALID_PARAMS, 'Invalid param: could not find mint')
  return mint
}

/** The token accounts of the filter's program (or of the mint's program, of that mint) that `keep` keeps. */
function tokenAccountsWhere(
  rt: SolanaDevRuntime,
  filter: { mint: string } | { programId: string },
  keep: (t: TokenAccountState) => boolean,
): TokenAccountEntry[] {
  let program: string
  if ('mint' in filter) {
    const a = rt.account(filter.mint as Address)
    if (!a || !TOKEN_PROGRAMS.has(a.programAddress) || !decodeMint(a.data))
      throw new RpcError(INVALID_PARAMS, 'Invalid param: could not find mint')
    program = a.programAddress
  } else {
    if (!TOKEN_PROGRAMS.has(filter.programId)) throw new RpcError(INVALID_PARAMS, 'Invalid param: unrecognized Token program id')
    program = filter.programId
  }
  const out: TokenAccountEntry[] = []
  for (const a of rt.programAccounts(program as Address)) {
    const data = Uint8Array.from(a.data)
    const token = decodeTokenAccount(data)
    if (!token || ('mint' in filter && token.mint !== filter.mint) || !keep(token)) continue
    out.push({ address: a.address, program, lamports: BigInt(a.lamports), data, token })
  }
  return out.sort((x, y) => (x.address < y.address ? -1 : x.address > y.address ? 1 : 0))
}

/** One `{pubkey, account}` of a token-accounts answer, `jsonParsed` in the shape Solana's RPC parses SPL Token accounts. */
function keyedTokenAccount(rt: SolanaDevRuntime, e: TokenAccountEntry, encoding: string) {
  let data: unknown
  if (encoding === 'jsonParsed') {
    const decimals = mintOf(rt, e.token.mint).decimals
    const t = e.token
    data = {
      program: e.program === TOKEN_PROGRAM ? 'spl-token' : 'spl-token-2022',
      parsed: {
        info: {
          isNative: t.isNative !== null,
          mint: t.mint,
          owner: t.owner,
          state: t.state,
          tokenAmount: uiTokenAmount(t.amount, decimals),
          ...(t.delegate ? { delegate: t.delegate, delegatedAmount: uiTokenAmount(t.delegatedAmount, decimals) } : {}),
          ...(t.isNative !== null ? { rentExemptReserve: uiTokenAmount(t.isNative, decimals) } : {}),
          ...(t.closeAuthority ? { closeAuthority: t.closeAuthority } : {}),
        },
        type: 'account',
      },
      space: e.data.length,
    }
  } else data = encoding === 'base58' ? [base58.encode(e.data), 'base58'] : [base64.encode(e.data), 'base64']
  return {
    pubkey: e.address,
    account: {
      data,
      executable: false,
      lamports: Number(e.lamports),
      owner: e.program,
      rentEpoch: Number.MAX_SAFE_INTEGER,
      space: e.data.length,
    },
  }
}

function decodeBase64Param(value: string, name: string): Uint8Array {
  try {
    return base64.decode(value)
  } catch {
    throw new RpcError(INVALID_PARAMS, `invalid ${name}: not base64`)
  }
}

function decodeTransactionParam(value: string, encoding: 'base58' | 'base64'): Uint8Array {
  try {
    return encoding === 'base58' ? base58.decode(value) : base64.decode(value)
  } catch {
    throw new RpcError(INVALID_PARAMS, `invalid transaction: not ${encoding}`)
  }
}

function decodeTransaction(wire: Uint8Array) {
  try {
    const tx = SolanaDevRuntime.decode(wire)
    getCompiledTransactionMessageDecoder().decode(tx.messageBytes)
    return tx
  } catch {
    throw new RpcError(INVALID_PARAMS, 'invalid transaction: failed to deserialize')
  }
}

function preflightFailure(outcome: Outcome): RpcError {
  const err = outcome.err ?? 'unknown'
  return new RpcError(SEND_TRANSACTION_PREFLIGHT_FAILURE, `Transaction simulation failed: ${describeTransactionError(err)}`, {
    err,
    logs: outcome.logs,
    accounts: null,
    unitsConsumed: outcome.unitsConsumed,
    returnData: null,
  })
}

function transactionResponse(r: TransactionRecord, encoding: string) {
  const meta = {
    err: r.err,
    status: r.err === null ? { Ok: null } : { Err: r.err },
    fee: r.fee,
    preBalances: r.preBalances,
    postBalances: r.postBalances,
    innerInstructions: [],
    logMessages: r.logs,
    preTokenBalances: (r.preTokenBalances ?? []).map(tokenBalance),
    postTokenBalances: (r.postTokenBalances ?? []).map(tokenBalance),
    rewards: [],
    loadedAddresses: { writable: [], readonly: [] },
    computeUnitsConsumed: r.unitsConsumed,
  }
  return {
    slot: r.slot,
    blockTime: r.blockTime,
    meta,
    transaction: r.wire ? encodeTransaction(r.wire, encoding) : null,
    version: r.version,
  }
}

/** One of a transaction's pre/postTokenBalances as Solana's RPC answers it. */
function tokenBalance(b: TokenBalanceRecord) {
  return {
    accountIndex: b.accountIndex,
    mint: b.mint,
    owner: b.owner,
    programId: b.programId,
    uiTokenAmount: uiTokenAmount(BigInt(b.amount), b.decimals),
  }
}

function encodeTransaction(wire: Uint8Array, encoding: string) {
  if (encoding === 'base64') return [base64.encode(wire), 'base64']
  if (encoding === 'base58') return [base58.encode(wire), 'base58']
  const tx = SolanaDevRuntime.decode(wire)
  const m = getCompiledTransactionMessageDecoder().decode(tx.messageBytes)
  // The JSON form exists for legacy and v0 messages; others are shown as base64.
  if (m.version !== 'legacy' && m.version !== 0) return [base64.encode(wire), 'base64']
  return {
    signatures: Object.values(tx.signatures).map((s) => (s ? base58.encode(s) : '1'.repeat(64))),
    message: {
      accountKeys: m.staticAccounts,
      header: {
        numRequiredSignatures: m.header.numSignerAccounts,
        numReadonlySignedAccounts: m.header.numReadonlySignerAccounts,
        numReadonlyUnsignedAccounts: m.header.numReadonlyNonSignerAccounts,
      },
      recentBlockhash: m.lifetimeToken,
      instructions: m.instructions.map((i) => ({
        programIdIndex: i.programAddressIndex,
        accounts: i.accountIndices ?? [],
        data: base58.encode(Uint8Array.from(i.data ?? [])),
        stackHeight: null,
      })),
      ...(m.version === 0 ? { addressTableLookups: m.addressTableLookups ?? [] } : {}),
    },
  }
}

/** Answers one JSON-RPC request object (never throws). */
export function answer(rt: SolanaDevRuntime, request: unknown): Record<string, unknown> {
  const id = isIdHolder(request) ? request.id : null
  try {
    if (!request || typeof request !== 'object' || Array.isArray(request)) throw new RpcError(INVALID_REQUEST, 'Invalid request')
    const r = request as { jsonrpc?: unknown; method?: unknown; params?: unknown }
    if (r.jsonrpc !== '2.0' || typeof r.method !== 'string') throw new RpcError(INVALID_REQUEST, 'Invalid request')
    const m = Object.hasOwn(METHODS, r.method) ? METHODS[r.method] : undefined
    if (!m) throw new RpcError(METHOD_NOT_FOUND, 'Method not found')
    const parsed = m.params.safeParse(r.params ?? [])
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new RpcError(INVALID_PARAMS, `Invalid params: ${issue ? `${issue.path.join('.') || 'params'}: ${issue.message}` : 'invalid'}`)
    }
    return { jsonrpc: '2.0', result: m.run(rt, parsed.data as never), id }
  } catch (e) {
    const err = e instanceof RpcError ? e : new RpcError(-32603, 'Internal error')
    return { jsonrpc: '2.0', error: { code: err.code, message: err.message, ...(err.data !== undefined ? { data: err.data } : {}) }, id }
  }
}

function isIdHolder(v: unknown): v is { id: string | number | null } {
  if (!v || typeof v !== 'object' || !('id' in v)) return false
  const id = (v as { id: unknown }).id
  return typeof id === 'string' || typeof id === 'number' || id === null
}
