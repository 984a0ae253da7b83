/**
 * The resource namespaces of the policy context (tkhq/docs features/policies/language, "Keywords"):
 * what an activity signs, sends or exports, read from its intent once per evaluation.
 *
 * - `eth.tx`: sign_transaction TRANSACTION_TYPE_ETHEREUM (the unsigned envelope),
 *   eth_send_transaction (its single call) and eth_send_raw_transaction (the signed envelope), with `function_name` / `function_signature` /
 *   `contract_call_args` when an ABI uploaded for `to` (create_smart_contract_interface) declares the selector.
 * - `eth.eip_712`: sign_raw_payload(s) with PAYLOAD_ENCODING_EIP712; a batch gives one context per
 *   payload (the namespace holds one typed-data message).
 * - `eth.eip_7702_authorization` (`address` the delegate, `chain_id`, `nonce`): sign_raw_payload(s)
 *   with PAYLOAD_ENCODING_EIP7702_AUTHORIZATION, one context per payload. A type-4 sign_transaction
 *   shows its delegations in `eth.tx.authorization_list` (chains/policy/ethTx.ts).
 * - The delegation a send may make (`sendDelegation`): a batch eth_send_transaction (several calls,
 *   or `sponsor: true`) delegates the account to its network's Gas Station when it is not yet
 *   delegated, and eth_undelegate_7702 delegates it to the zero address. Every context of such an
 *   activity carries that delegation as `eth.eip_7702_authorization` and as the one item of
 *   `eth.tx.authorization_list` (with `eth.tx.type` `TYPE_4`), whether or not the account turns out
 *   to be delegated already: a policy decides what the send may sign. Its `nonce` is there only
 *   where the intent fixes it; else it is absent (the service reads it from the node), so a policy
 *   reading it meets a missing field. One unsponsored call makes no delegation: neither is there.
 * - `solana.tx`: sign_transaction TRANSACTION_TYPE_SOLANA and sol_send_transaction, with
 *   `parsed_instruction_data` where an IDL uploaded for an instruction's program declares it.
 * - `bitcoin.tx`: sign_transaction TRANSACTION_TYPE_BITCOIN (the PSBT, read by the signer's parse:
 *   chains/policy/bitcoinTx.ts); output addresses in the network of the signer's Bitcoin address
 *   format (a private key: its first Bitcoin address), mainnet when it has none.
 * - `tron.tx`: sign_transaction TRANSACTION_TYPE_TRON (the raw data, read by the signer's protobuf
 *   reader: chains/policy/tronTx.ts; parameters of TransferContract and TriggerSmartContract only).
 * - `wallet`, `wallet_account`: the account that signs (`signWith`, `from`; an address or a wallet
 *   account id) and its wallet; export_wallet, export_wallet_account, create_wallet_accounts by
 *   their `walletId` / `address`. `wallets`: every wallet involved (delete_wallets, several
 *   `signWiths`, or the one wallet).
 * - `private_key`: the private key that signs (`signWith` by private key id or address), or the one
 *   export_private_key, disable_private_key or delete_private_keys (one id) acts on.
 * - `credentials`: the API keys and passkeys whose stamps approved the activity so far.
 *
 * A transaction or typed-data payload the activity carries but that cannot be read (it does not
 * parse, or Sigil cannot represent it, e.g. an eth_send_transaction of several calls) is an
 * `Unreadable` namespace, never an absent one, so what a policy cannot read is never
 * taken for what it allows: an ALLOW reading it does not allow, a
 * DENY reading it denies (decide.ts). So are the arguments of a call an uploaded ABI or IDL
 * declares (by selector, by discriminator) but that do not decode (`contract_call_args`,
 * `program_call_args`), and the whole transaction when an uploaded interface for its contract or
 * program does not parse. Typed data is read by the same parse the signer signs
 * (chains/sign/typedData.ts). A namespace or field is absent only when the activity does not carry
 * it (a call no uploaded interface declares has no `contract_call_args`). Nothing here throws but
 * the database.
 */
import {
  type Eip7702AuthorizationFacts,
  type EthTxFacts,
  ethTxFromSendCall,
  ethTxFromSerialized,
  readContractCall,
} from '../../chains/policy/ethTx.js'
import { readEip712 } from '../../chains/policy/eip712.js'
import { parseAuthorizationPayload } from '../../chains/sign/eip7702.js'
import { type SolanaTxFacts, solanaTxFromHex, withParsedInstructions } from '../../chains/policy/solanaTx.js'
import { bitcoinTxFromPsbt } from '../../chains/policy/bitcoinTx.js'
import { tronTxFromRawHex } from '../../chains/policy/tronTx.js'
import type { BitcoinNetwork } from '../../chains/types.js'
import type { AbiItem } from '../../chains/contractInterfaces.js'
import { type Network, normalizeCaip2 } from '../../chains/networks.js'
import {
  type Expr,
  type ParsedPolicy,
  type PolicyContext,
  type PolicyCredential,
  type PolicyEthTx,
  type PolicyPrivateKey,
  type PolicySolanaTx,
  type PolicyWallet,
  Unreadable,
} from './index.js'
import { ethereumAbisFor, solanaIdlsFor } from '../store/smartContractInterfaces.js'
import type { Sql } from '../store/sql.js'
import { credentialOfVote } from '../store/users.js'
import { findPrivateKeyByAddress, getPrivateKey, type PrivateKeyWithAddresses } from '../store/privateKeys.js'
import { type WalletAccountRow, type WalletRow, findAccountByAddress, getWallet, getWalletAccountById } from '../store/wallets.js'

/** The keywords each parsed policy names, by policy (a cache: parsed policies are immutable). */
const namedByPolicy = new WeakMap<ParsedPolicy, ReadonlySet<string>>()

/** The identifiers an expression names (keywords, and variables bound by any/all/filter). Iterative: depth is bounded anyway. */
function identifiers(root: Expr, out: Set<string>): void {
  const stack: Expr[] = [root]
  for (let e = stack.pop(); e !== undefined; e = stack.pop()) {
    switch (e.kind) {
      case 'ident':
        out.add(e.name)
        break
      case 'list':
        stack.push(...e.items)
        break
      case 'member':
      case 'count':
        stack.push(e.object)
        break
      case 'index':
        stack.push(e.object, e.index)
        break
      case 'slice':
        stack.push(e.object, e.start, e.end)
        break
      case 'not':
      case 'neg':
        stack.push(e.operand)
        break
      case 'logical':
        stack.push(...e.operands)
        break
      case 'compare':
        stack.push(e.left, e.right)
        break
      case 'quantifier':
        stack.push(e.object, e.body)
        break
      case 'contains':
        stack.push(e.object, e.value)
        break
      default:
        break
    }
  }
}

/**
 * The keywords the policies read (a superset: a bound variable named like a keyword counts too).
 * What no policy reads is not looked up: an organization whose policies read only `activity` pays
 * for no wallet, ABI or credential query.
 */
export function keywordsRead(policies: readonly ParsedPolicy[]): ReadonlySet<string> {
  const all = new Set<string>()
  for (const p of policies) {
    let named = namedByPolicy.get(p)
    if (!named) {
      const found = new Set<string>()
      for (const e of [p.condition, p.consensus, p.time]) if (e) identifiers(e, found)
      named = found
      namedByPolicy.set(p, named)
    }
    for (const k of named) all.add(k)
  }
  return all
}

/** The namespaces this module fills. */
export type ResourceContext = Pick<
  PolicyContext,
  'eth' | 'solana' | 'bitcoin' | 'tron' | 'wallet' | 'wallets' | 'wallet_account' | 'private_key'
>

/** One approving vote: who, and the public key of the credential that stamped it. */
export type PolicyVote = { userId: string; publicKey: string }

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)

/** A pure parse that must never fail the activity: a throw gives undefined, which the caller makes `Unreadable`. */
function safe<T>(f: () => T | undefined): T | undefined {
  try {
    return f()
  } catch {
    return undefined
  }
}

/** `signWith` names an account by address (any case for hex) or by wallet account id. */
async function accountOf(sql: Sql, orgId: string, signWith: string | undefined): Promise<WalletAccountRow | undefined> {
  if (!signWith) return undefined
  return (await findAccountByAddress(sql, orgId, signWith)) ?? (await getWalletAccountById(sql, orgId, signWith))
}

const walletFacts = (w: WalletRow): PolicyWallet => ({ id: w.id, imported: w.imported, exported: w.exported, label: w.name })

/**
 * `tx` with the call an ABI uploaded for `to` declares: its function, selector and arguments; the
 * arguments `Unreadable` when they do not decode under it (truncated or garbled calldata is not a
 * call without arguments: a DENY on `contract_call_args` must not be skipped). A stored ABI that
 * does not parse (none should: create_smart_contract_interface checks them) leaves the call
 * unknown, so the whole `eth.tx` is unreadable.
 */
async function withContractCall(sql: Sql, orgId: string, tx: EthTxFacts): Promise<PolicyEthTx | Unreadable> {
  if (!tx.to || tx.data.length < 10) return tx
  const stored = await ethereumAbisFor(sql, orgId, tx.to)
  const abis = stored.map((json) => safe(() => JSON.parse(json) as unknown)).filter((a): a is AbiItem[] => Array.isArray(a))
  const reading = safe(() => readContractCall(abis, tx.data))
  if (reading === undefined) return UNREADABLE_CALL
  if (reading.kind === 'decoded') return { ...tx, ...reading.call }
  if (reading.kind === 'undecodable') {
    return {
      ...tx,
      function_name: reading.function_name,
      function_signature: reading.function_signature,
      contract_call_args: UNREADABLE_CALL_ARGS,
    }
  }
  return abis.length === stored.length ? tx : UNREADABLE_INTERFACE
}

/**
 * `tx` with `parsed_instruction_data` on each instruction an IDL uploaded for its program declares;
 * its `program_call_args` `Unreadable` when they do not decode. A stored IDL that does not parse
 * leaves that program's instructions unknown, so the whole `solana.tx` is unreadable.
 */
async function withIdls(sql: Sql, orgId: string, tx: SolanaTxFacts): Promise<PolicySolanaTx | Unreadable> {
  const rows = await solanaIdlsFor(sql, orgId, tx.program_keys)
  const idls = new Map<string, unknown[]>()
  for (const r of rows) {
    const idl = safe(() => JSON.parse(r.json) as unknown)
    if (idl === undefined) return UNREADABLE_INTERFACE
    idls.set(r.address, [...(idls.get(r.address) ?? []), idl])
  }
  return safe(() => withParsedInstructions(tx, idls, UNREADABLE_CALL_ARGS)) ?? UNREADABLE_SOLANA_TX
}

type Target = { account?: WalletAccountRow | undefined; walletIds: string[]; privateKey?: PrivateKeyWithAddresses | undefined }

const ALL_RESOURCES: ReadonlySet<string> = new Set([
  'eth',
  'solana',
  'bitcoin',
  'tron',
  'wallet',
  'wallets',
  'wallet_account',
  'private_key',
])

/** A private key named by id or by one of its addresses. */
async function privateKeyOf(sql: Sql, orgId: string, ref: string | undefined): Promise<PrivateKeyWithAddresses | undefined> {
  if (!ref) return undefined
  return (await getPrivateKey(sql, orgId, ref)) ?? (await findPrivateKeyByAddress(sql, orgId, ref))
}

const privateKeyFacts = (k: PrivateKeyWithAddresses): PolicyPrivateKey => ({
  id: k.id,
  tags: k.tags,
  imported: k.imported,
  exported: k.exported,
  label: k.name,
})

/** The accounts and wallets an activity acts on, and what it signs or sends. */
async function targets(sql: Sql, orgId: string, type: string, p: Record<string, unknown>): Promise<Target> {
  switch (type) {
    case 'ACTIVITY_TYPE_EXPORT_WALLET':
    case 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS':
      return { walletIds: str(p.walletId) ? [p.walletId as string] : [] }
    case 'ACTIVITY_TYPE_DELETE_WALLETS':
      return { walletIds: Array.isArray(p.walletIds) ? p.walletIds.filter((x): x is string => typeof x === 'string') : [] }
    case 'ACTIVITY_TYPE_EXPORT_PRIVATE_KEY':
    case 'ACTIVITY_TYPE_DISABLE_PRIVATE_KEY':
      return { walletIds: [], privateKey: await privateKeyOf(sql, orgId, str(p.privateKeyId)) }
    case 'ACTIVITY_TYPE_DELETE_PRIVATE_KEYS': {
      const ids = Array.isArray(p.privateKeyIds) ? p.privateKeyIds : []
      return { walletIds: [], privateKey: ids.length === 1 ? await privateKeyOf(sql, orgId, str(ids[0])) : undefined }
    }
    case 'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT': {
      const account = await accountOf(sql, orgId, str(p.address))
      return { account, walletIds: account ? [account.wallet_id] : [] }
    }
    case 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION':
    case 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2':
    case 'ACTIVITY_TYPE_ETH_UNDELEGATE_7702': {
      const account = await accountOf(sql, orgId, str(p.from))
      return { account, walletIds: account ? [account.wallet_id] : [] }
    }
    case 'ACTIVITY_TYPE_SOL_SEND_TRANSACTION_V2': {
      const signers = Array.isArray(p.signWiths) ? p.signWiths.filter((x): x is string => typeof x === 'string') : []
      const accounts = (await Promise.all(signers.map((s) => accountOf(sql, orgId, s)))).filter((a): a is WalletAccountRow => !!a)
      return { ...(accounts.length === 1 ? { account: accounts[0] } : {}), walletIds: accounts.map((a) => a.wallet_id) }
    }
    default: {
      // V1 signing intents name the key `privateKeyId`.
      const ref = 'signWith' in p ? str(p.signWith) : 'privateKeyId' in p ? str(p.privateKeyId) : undefined
      if (ref === undefined) return { walletIds: [] }
      const account = await accountOf(sql, orgId, ref)
      if (account) return { account, walletIds: [account.wallet_id] }
      return { walletIds: [], privateKey: await privateKeyOf(sql, orgId, ref) }
    }
  }
}

const UNREADABLE_ETH_TX = new Unreadable('the Ethereum transaction does not parse, or is not one call')
const UNREADABLE_SOLANA_TX = new Unreadable('the Solana transaction does not parse')
const UNREADABLE_BITCOIN_TX = new Unreadable('the Bitcoin PSBT does not parse')
const UNREADABLE_TRON_TX = new Unreadable('the Tron transaction does not parse, or a contract parameter names another type')

/** The Bitcoin network of a signer's address formats (the first Bitcoin one), mainnet when none is Bitcoin. */
function bitcoinNetworkOf(formats: readonly string[]): BitcoinNetwork {
  for (const f of formats) {
    const n = /^ADDRESS_FORMAT_BITCOIN_(MAINNET|TESTNET|SIGNET|REGTEST)_/.exec(f)?.[1]
    if (n) return n as BitcoinNetwork
  }
  return 'MAINNET'
}
const UNREADABLE_TYPED_DATA = new Unreadable('the EIP-712 typed data is refused by the typed-data reader and the signer')
const UNREADABLE_AUTHORIZATION = new Unreadable('the EIP-7702 authorization is refused by its reader and the signer')
const UNREADABLE_DELEGATION = new Unreadable("the network of the send's EIP-7702 delegation is not known")
const UNREADABLE_CALL_ARGS = new Unreadable('the uploaded smart contract interface declares the call, but its arguments do not decode')
const UNREADABLE_CALL = new Unreadable('the contract call could not be read with the uploaded smart contract interfaces')
const UNREADABLE_INTERFACE = new Unreadable('a smart contract interface uploaded for the contract or program does not parse')

/** The Gas Station of a network by its CAIP-2 id (`network.gasStation`), undefined when the network has none or is not configured. */
export type GasStationOf = (caip2: string) => string | undefined

/** The {@link GasStationOf} of the configured `networks`: the lookup the send handlers make too. */
export function gasStationsOf(networks: readonly Network[]): GasStationOf {
  return (caip2) => networks.find((n) => n.caip2 === normalizeCaip2(caip2))?.gasStation
}

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'

/** A quantity of the intent (decimal or 0x-hex), undefined when absent or not one. */
function intentQuantity(v: unknown): bigint | undefined {
  if (typeof v !== 'string' || !/^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(v)) return undefined
  return BigInt(v)
}

/**
 * The EIP-7702 delegation an activity of `type` with intent `p` may make when the service builds its
 * transaction (src/service/sends/batch.ts signs exactly this delegate, from the same network
 * configuration): a batch eth_send_transaction (several calls, or `sponsor: true`) delegates the
 * account to `gasStationOf(caip2)` when it is not yet delegated; eth_undelegate_7702 delegates to the
 * zero address. `nonce` only when the intent fixes it (the account sends at `nonce`, so its
 * authorization takes `nonce + 1`); a sponsored batch's is the account's nonce at send time, absent.
 * Undefined when the activity makes no delegation: another type, one unsponsored call, or a batch on
 * a network without a Gas Station (refused by the send). `Unreadable` when the delegation's network
 * cannot be read (a CAIP-2 id that is not `eip155:<n>`, or no network lookup given).
 */
export function sendDelegation(
  type: string,
  p: Record<string, unknown>,
  gasStationOf: GasStationOf | undefined,
): Eip7702AuthorizationFacts | Unreadable | undefined {
  let address: string
  if (type === 'ACTIVITY_TYPE_ETH_UNDELEGATE_7702') address = ZERO_ADDRESS
  else if (type === 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION' || type === 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2') {
    const sponsored = p.sponsor === true
    if (!sponsored && !(Array.isArray(p.calls) && p.calls.length > 1)) return undefined
    if (!gasStationOf) return UNREADABLE_DELEGATION
    const gasStation = gasStationOf(str(p.caip2) ?? '')
    if (gasStation === undefined) return undefined
    address = gasStation.toLowerCase()
  } else return undefined
  const chain = /^eip155:([0-9]{1,20})$/.exec(str(p.caip2) ?? '')?.[1]
  if (chain === undefined) return UNREADABLE_DELEGATION
  const nonce = p.sponsor === true ? undefined : intentQuantity(p.nonce)
  return { address, chain_id: BigInt(chain), ...(nonce !== undefined ? { nonce: nonce + 1n } : {}) }
}

/** `tx` as the type-4 transaction that sets `delegation` (none: as it is). */
function withDelegation(tx: EthTxFacts, delegation: Eip7702AuthorizationFacts | undefined): EthTxFacts {
  return delegation ? { ...tx, type: 'TYPE_4', authorization_list: [delegation] } : tx
}

/** `eth`, `solana` and `bitcoin` of the activity, when it signs or sends a transaction or typed data. */
async function chainFacts(
  sql: Sql,
  orgId: string,
  type: string,
  p: Record<string, unknown>,
  from: string | undefined,
  gasStationOf: GasStationOf | undefined,
  bitcoinNetwork: BitcoinNetwork,
): Promise<Array<Pick<ResourceContext, 'eth' | 'solana' | 'bitcoin' | 'tron'>>> {
  const out: Pick<ResourceContext, 'eth' | 'solana' | 'bitcoin' | 'tron'> = {}
  if (type === 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2' || type === 'ACTIVITY_TYPE_SIGN_TRANSACTION') {
    const hex = str(p.unsignedTransaction) ?? ''
    if (p.type === 'TRANSACTION_TYPE_ETHEREUM') {
      const tx = safe(() => ethTxFromSerialized(hex, from))
      out.eth = { tx: tx ? await withContractCall(sql, orgId, tx) : UNREADABLE_ETH_TX }
    } else if (p.type === 'TRANSACTION_TYPE_SOLANA') {
      const tx = safe(() => solanaTxFromHex(hex))
      out.solana = { tx: tx ? await withIdls(sql, orgId, tx) : UNREADABLE_SOLANA_TX }
    } else if (p.type === 'TRANSACTION_TYPE_BITCOIN') {
      out.bitcoin = { tx: safe(() => bitcoinTxFromPsbt(hex, bitcoinNetwork)) ?? UNREADABLE_BITCOIN_TX }
    } else if (p.type === 'TRANSACTION_TYPE_TRON') {
      out.tron = { tx: safe(() => tronTxFromRawHex(hex)) ?? UNREADABLE_TRON_TX }
    }
  } else if (type === 'ACTIVITY_TYPE_ETH_SEND_RAW_TRANSACTION') {
    const tx = safe(() => ethTxFromSerialized(str(p.signedTransaction) ?? ''))
    out.eth = { tx: tx ? await withContractCall(sql, orgId, tx) : UNREADABLE_ETH_TX }
  } else if (type === 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION' || type === 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2') {
    // One context per call (each must pass): a batch cannot hide a call a policy denies. A call
    // without `to` is a contract creation (`eth.tx.to == ''`). The fee fields of a batch belong to
    // its outer transaction, so its calls carry none; each carries the delegation the batch may make.
    const calls = Array.isArray(p.calls) ? p.calls : [p]
    const sender = str(p.from)
    const batched = calls.length > 1 || p.sponsor === true
    if (calls.length === 0) return [{ eth: { tx: UNREADABLE_ETH_TX } }]
    const delegation = sendDelegation(type, p, gasStationOf)
    const authorization = delegation instanceof Unreadable ? undefined : delegation
    return Promise.all(
      calls.map(async (c: unknown) => {
        const call = c && typeof c === 'object' ? (c as Record<string, unknown>) : undefined
        const tx =
          call && sender
            ? safe(() => {
                const facts = ethTxFromSendCall({
                  from: sender,
                  to: str(call.to) ?? '',
                  value: str(call.value),
                  data: str(call.data),
                  caip2: str(p.caip2) ?? '',
                  ...(batched
                    ? {}
                    : {
                        nonce: str(p.nonce),
                        gasLimit: str(p.gasLimit),
                        maxFeePerGas: str(p.maxFeePerGas),
                        maxPriorityFeePerGas: str(p.maxPriorityFeePerGas),
                      }),
                })
                return batched ? { ...withDelegation(facts, authorization), type: 'TYPE_4' } : facts
              })
            : undefined
        const readable = tx && !(delegation instanceof Unreadable)
        return {
          eth: {
            tx: readable ? await withContractCall(sql, orgId, tx) : UNREADABLE_ETH_TX,
            ...(delegation ? { eip_7702_authorization: delegation } : {}),
          },
        }
      }),
    )
  } else if (type === 'ACTIVITY_TYPE_ETH_UNDELEGATE_7702') {
    // The undelegation: a type-4 transaction from the account to itself, delegating to the zero address.
    const sender = str(p.from)
    const delegation = sendDelegation(type, p, gasStationOf)
    const authorization = delegation instanceof Unreadable ? undefined : delegation
    const tx =
      sender && authorization
        ? safe(() =>
            withDelegation(
              ethTxFromSendCall({
                from: sender,
                to: sender,
                caip2: str(p.caip2) ?? '',
                nonce: str(p.nonce),
                gasLimit: str(p.gasLimit),
                maxFeePerGas: str(p.maxFeePerGas),
                maxPriorityFeePerGas: str(p.maxPriorityFeePerGas),
              }),
              authorization,
            ),
          )
        : undefined
    out.eth = { tx: tx ?? UNREADABLE_ETH_TX, ...(delegation ? { eip_7702_authorization: delegation } : {}) }
  } else if (type === 'ACTIVITY_TYPE_SOL_SEND_TRANSACTION' || type === 'ACTIVITY_TYPE_SOL_SEND_TRANSACTION_V2') {
    const tx = safe(() => solanaTxFromHex(str(p.unsignedTransaction) ?? ''))
    // The intent's recentBlockhash replaces the transaction's when the service sends it.
    const blockhash = str(p.recentBlockhash)
    out.solana = {
      tx: tx ? await withIdls(sql, orgId, blockhash ? { ...tx, recent_blockhash: blockhash } : tx) : UNREADABLE_SOLANA_TX,
    }
  } else if (
    (type === 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2' ||
      type === 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD' ||
      type === 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS') &&
    p.encoding === 'PAYLOAD_ENCODING_EIP712'
  ) {
    // One context per payload: the policies decide each typed-data message (evaluateActivity keeps the strictest).
    // The facts come from the parse the signer signs; typed data it refuses is unreadable (and is not signed).
    const payloads = Array.isArray(p.payloads) ? p.payloads : [p.payload]
    return payloads.map((payload) => {
      const typed = typeof payload === 'string' ? safe(() => readEip712(payload)) : undefined
      return { eth: { eip_712: typed?.ok ? typed.facts : UNREADABLE_TYPED_DATA } }
    })
  } else if (
    (type === 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2' ||
      type === 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD' ||
      type === 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS') &&
    p.encoding === 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION'
  ) {
    // One context per authorization, read by the parse the signer signs (chains/sign/eip7702.ts):
    // what it refuses is unreadable here (and is not signed).
    const payloads = Array.isArray(p.payloads) ? p.payloads : [p.payload]
    return payloads.map((payload) => {
      const auth = typeof payload === 'string' ? safe(() => parseAuthorizationPayload(payload)) : undefined
      return {
        eth: {
          eip_7702_authorization: auth ? { address: auth.address, chain_id: auth.chainId, nonce: auth.nonce } : UNREADABLE_AUTHORIZATION,
        },
      }
    })
  }
  return [out]
}

/**
 * The resource namespaces of an activity of `type` with intent `p` (camelCase, as submitted) in
 * organization `orgId`, limited to the keywords in `read`. Reads the accounts, wallets and ABIs it
 * names; parses once. One context, except for sign_raw_payloads of EIP-712 payloads: one per
 * payload (each its own `eth.eip_712`), so that a batch cannot hide a message a policy denies.
 * `gasStationOf` names the delegate of a batch send (the engine's network configuration); without
 * it, a batch's delegation is `Unreadable`.
 */
export async function resourceContexts(
  sql: Sql,
  orgId: string,
  type: string,
  p: Record<string, unknown>,
  read: ReadonlySet<string> = ALL_RESOURCES,
  gasStationOf?: GasStationOf,
): Promise<ResourceContext[]> {
  const chains = read.has('eth') || read.has('solana') || read.has('bitcoin') || read.has('tron')
  const holders = read.has('wallet') || read.has('wallets') || read.has('wallet_account') || read.has('private_key')
  if (!chains && !holders) return [{}]
  const t = await targets(sql, orgId, type, p)
  const ids = holders ? [...new Set(t.walletIds)] : []
  const wallets = (await Promise.all(ids.map((id) => getWallet(sql, orgId, id)))).filter((w): w is WalletRow => !!w).map(walletFacts)
  const common: ResourceContext = {}
  if (t.account) common.wallet_account = { address: t.account.address }
  if (t.privateKey) common.private_key = privateKeyFacts(t.privateKey)
  if (wallets.length > 0) common.wallets = wallets
  const [wallet] = wallets
  if (wallet && wallets.length === 1) common.wallet = wallet
  const signer = t.account?.address ?? t.privateKey?.addresses.find((a) => a.format === 'ADDRESS_FORMAT_ETHEREUM')?.address
  const bitcoinNetwork = bitcoinNetworkOf(t.account ? [t.account.address_format] : (t.privateKey?.addresses.map((a) => a.format) ?? []))
  const variants = chains ? await chainFacts(sql, orgId, type, p, signer, gasStationOf, bitcoinNetwork) : [{}]
  return variants.length > 0 ? variants.map((v) => ({ ...common, ...v })) : [common]
}

/**
 * `credentials`: for each approving vote, the API key or passkey of the voter with the vote's public
 * key (`type` CREDENTIAL_TYPE_*; a passkey also has its `credential_id`). A vote whose credential
 * has since been deleted contributes nothing.
 */
export async function credentialsOf(sql: Sql, orgId: string, votes: readonly PolicyVote[]): Promise<PolicyCredential[]> {
  const out: PolicyCredential[] = []
  for (const v of votes) {
    const c = await credentialOfVote(sql, orgId, v.userId, v.publicKey)
    if (c?.kind === 'API_KEY') out.push({ id: c.id, user_id: v.userId, type: c.credential_type, public_key: c.public_key })
    if (c?.kind === 'PASSKEY') {
      out.push({
        id: c.id,
        user_id: v.userId,
        type: 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR',
        credential_id: c.credential_id,
        public_key: c.public_key,
      })
    }
  }
  return out
}
