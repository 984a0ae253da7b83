/**
 * `eth.tx` of the policy language (tkhq/docs features/policies/language, struct
 * "EthereumTransaction"): the fields of the transaction being signed (sign_transaction, an unsigned
 * EIP-2718 envelope) or sent (eth_send_transaction, its intent fields; eth_send_raw_transaction,
 * the signed envelope), and the call decoded with a
 * smart contract interface (ABI) uploaded for `to` (features/policies/smart-contract-interfaces).
 *
 * Hex strings (addresses, data, selectors) are lower case: the docs ask policies to write hex in
 * lower case ("The policy engine expects lowercase hex strings", language "EIP-712"; the vaults.fyi
 * cookbook lowercases its `eth.tx.to` allow-list). A contract creation has `to` `''` (the docs'
 * `eth.tx.to == ''`). A TYPE_4 (EIP-7702) transaction also has `authorization_list`: each
 * delegation it sets as `{address, chain_id, nonce}`, so a policy can allow or deny delegation
 * targets (`eth.tx.authorization_list.all(a, a.address == '0x…')`). Pure: no database, no network.
 */
import { Transaction } from 'micro-eth-signer'
import { type AbiFunction, decodeFunctionData, toFunctionSelector } from 'viem'
import type { AbiItem, AbiParameter } from '../contractInterfaces.js'

/** A value of `contract_call_args`: strings, integers (bigint), booleans and lists (tuples are lists, as `call[0]` reads them). */
export type CallArg = boolean | bigint | string | readonly CallArg[]

/** The `eth.tx` namespace (snake_case field names as the language has them). */
export type EthTxFacts = {
  from?: string
  to: string
  data: string
  value: bigint
  gas?: bigint
  gas_price?: bigint
  chain_id?: bigint
  nonce?: bigint
  max_fee_per_gas?: bigint
  max_priority_fee_per_gas?: bigint
  max_fee_per_blob_gas?: bigint
  /** 'LEGACY' | 'TYPE_1' | 'TYPE_2' | 'TYPE_3' | 'TYPE_4' (the docs' wording). */
  type: string
  /** TYPE_4 (EIP-7702): the delegations the transaction sets, in order (`address` the delegate, lowercase). */
  authorization_list?: readonly Eip7702AuthorizationFacts[]
  function_name?: string
  function_signature?: string
  contract_call_args?: { readonly [name: string]: CallArg }
}

/**
 * One EIP-7702 authorization as policies read it (`eth.eip_7702_authorization`, `eth.tx.authorization_list` items).
 * `nonce` is absent where the service picks it when it builds the transaction (the delegation a
 * batch send or an undelegation makes): a policy reading it meets a missing field.
 */
export type Eip7702AuthorizationFacts = { address: string; chain_id: bigint; nonce?: bigint }

/** The decoded call: what a matching ABI adds to `eth.tx`. */
export type DecodedCall = Required<Pick<EthTxFacts, 'function_name' | 'function_signature' | 'contract_call_args'>>

const TYPE_NAMES: Readonly<Record<string, string>> = {
  legacy: 'LEGACY',
  eip2930: 'TYPE_1',
  eip1559: 'TYPE_2',
  eip4844: 'TYPE_3',
  eip7702: 'TYPE_4',
}

const lower = (hex: string) => hex.toLowerCase()

/**
 * `eth.tx` of an unsigned (or signed) EIP-2718 / legacy transaction given as hex (`0x` optional);
 * `from` is the signer's address (for a signed one, by default, the address its signature
 * recovers). Undefined when the bytes are not a transaction.
 * For EIP-1559 and later types `gas_price` is `max_fee_per_gas`, as the docs state.
 */
export function ethTxFromSerialized(hex: string, from?: string): EthTxFacts | undefined {
  const clean = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex
  if (clean.length === 0 || clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean)) return undefined
  let tx: ReturnType<typeof Transaction.fromHex>
  try {
    tx = Transaction.fromHex(`0x${clean}`)
  } catch {
    return undefined
  }
  const type = TYPE_NAMES[tx.type]
  if (!type) return undefined
  // Every type has these; the others depend on the type.
  const raw = tx.raw as {
    nonce: bigint
    gasLimit: bigint
    to: string
    value: bigint
    data: string
    chainId?: bigint
    gasPrice?: bigint
    maxFeePerGas?: bigint
    maxPriorityFeePerGas?: bigint
    maxFeePerBlobGas?: bigint
    authorizationList?: readonly { chainId: bigint; address: string; nonce: bigint }[]
  }
  const to = raw.to === '0x' ? '' : lower(raw.to)
  // A signed transaction names its sender by its signature.
  const sender = from ?? (tx.isSigned ? safeSender(tx) : undefined)
  const gasPrice = raw.gasPrice ?? raw.maxFeePerGas
  return {
    ...(sender ? { from: lower(sender) } : {}),
    to,
    data: lower(raw.data),
    value: raw.value,
    gas: raw.gasLimit,
    ...(gasPrice !== undefined ? { gas_price: gasPrice } : {}),
    ...(raw.chainId !== undefined ? { chain_id: raw.chainId } : {}),
    nonce: raw.nonce,
    ...(raw.maxFeePerGas !== undefined ? { max_fee_per_gas: raw.maxFeePerGas } : {}),
    ...(raw.maxPriorityFeePerGas !== undefined ? { max_priority_fee_per_gas: raw.maxPriorityFeePerGas } : {}),
    ...(raw.maxFeePerBlobGas !== undefined ? { max_fee_per_blob_gas: raw.maxFeePerBlobGas } : {}),
    type,
    ...(raw.authorizationList
      ? { authorization_list: raw.authorizationList.map((a) => ({ address: lower(a.address), chain_id: a.chainId, nonce: a.nonce })) }
      : {}),
  }
}

function safeSender(tx: { readonly sender: string }): string | undefined {
  try {
    return tx.sender
  } catch {
    return undefined
  }
}

/** The fields of an eth_send_transaction call, as its intent gives them (quantities decimal or 0x-hex). */
export type EthSendCall = {
  from: string
  to: string
  value?: string | undefined
  data?: string | undefined
  /** The network's CAIP-2 id (`eip155:<chain id>`). */
  caip2: string
  nonce?: string | undefined
  gasLimit?: string | undefined
  maxFeePerGas?: string | undefined
  maxPriorityFeePerGas?: string | undefined
}

function quantity(q: string | undefined): bigint | undefined {
  if (q === undefined) return undefined
  try {
    return BigInt(q)
  } catch {
    return undefined
  }
}

/**
 * `eth.tx` of an eth_send_transaction call. The service sends an EIP-1559 transaction (`TYPE_2`);
 * what the intent leaves for the service to fill (nonce, gas, fees) is absent, so a policy reading it
 * does not apply. `chain_id` comes from an `eip155:<n>` CAIP-2 id.
 */
export function ethTxFromSendCall(call: EthSendCall): EthTxFacts {
  const chain = /^eip155:([0-9]{1,20})$/.exec(call.caip2)?.[1]
  const nonce = quantity(call.nonce)
  const gas = quantity(call.gasLimit)
  const maxFee = quantity(call.maxFeePerGas)
  const maxPriority = quantity(call.maxPriorityFeePerGas)
  return {
    from: lower(call.from),
    to: lower(call.to),
    data: lower(call.data ?? '0x'),
    value: quantity(call.value) ?? 0n,
    ...(gas !== undefined ? { gas } : {}),
    ...(maxFee !== undefined ? { gas_price: maxFee, max_fee_per_gas: maxFee } : {}),
    ...(chain !== undefined ? { chain_id: BigInt(chain) } : {}),
    ...(nonce !== undefined ? { nonce } : {}),
    ...(maxPriority !== undefined ? { max_priority_fee_per_gas: maxPriority } : {}),
    type: 'TYPE_2',
  }
}

/** An ABI argument as the language sees it: addresses and bytes lower-case hex, integers bigint, tuples lists. */
function toCallArg(param: AbiParameter, value: unknown): CallArg {
  const array = /^(.*)\[\d*\]$/.exec(param.type)
  if (array) {
    const inner: AbiParameter = { ...param, type: array[1] as string }
    return Array.isArray(value) ? value.map((v) => toCallArg(inner, v)) : []
  }
  if (param.type === 'tuple') {
    const components = param.components ?? []
    // viem gives a tuple as an object when every component is named, else as an array.
    return components.map((c, i) => {
      const v = Array.isArray(value) ? value[i] : c.name ? (value as Record<string, unknown>)[c.name] : undefined
      return toCallArg(c, v)
    })
  }
  if (typeof value === 'bigint' || typeof value === 'boolean') return value
  if (typeof value === 'number') return BigInt(value)
  if (typeof value === 'string') return param.type === 'string' ? value : lower(value)
  return ''
}

/**
 * What the uploaded ABIs make of calldata `data`:
 * - `decoded`: the first ABI (in the order given) that declares a function with its selector
 *   decodes it: the function's name, its selector (`0x` + 8 hex digits) and its arguments by name
 *   (an unnamed argument is named by its position, `'0'`, `'1'`…);
 * - `undecodable`: an ABI declares the selector (the function and selector are known) but the
 *   arguments do not decode (truncated, an offset out of range…): the call the contract receives
 *   cannot be read, which is not the same as a call without arguments;
 * - `undeclared`: no ABI declares the selector (or `data` has none).
 */
export type ContractCallReading =
  | { readonly kind: 'decoded'; readonly call: DecodedCall }
  | { readonly kind: 'undecodable'; readonly function_name: string; readonly function_signature: string }
  | { readonly kind: 'undeclared' }

/** The {@link ContractCallReading} of `data` under `abis`. */
export function readContractCall(abis: readonly (readonly AbiItem[])[], data: string): ContractCallReading {
  if (!/^0x[0-9a-fA-F]{8}/.test(data)) return { kind: 'undeclared' }
  const selector = lower(data.slice(0, 10))
  for (const abi of abis) {
    const functions = abi.filter((i) => (i.type ?? 'function') === 'function' && typeof i.name === 'string') as unknown as AbiFunction[]
    let fn: AbiFunction | undefined
    try {
      fn = functions.find((f) => toFunctionSelector(f) === selector)
    } catch {
      continue
    }
    if (!fn) continue
    try {
      const { args } = decodeFunctionData({ abi: [fn], data: data as `0x${string}` })
      const inputs = (fn.inputs ?? []) as readonly AbiParameter[]
      const out: Record<string, CallArg> = {}
      inputs.forEach((p, i) => {
        out[p.name ? p.name : String(i)] = toCallArg(p, (args ?? [])[i])
      })
      return { kind: 'decoded', call: { function_name: fn.name, function_signature: selector, contract_call_args: out } }
    } catch {
      return { kind: 'undecodable', function_name: fn.name, function_signature: selector }
    }
  }
  return { kind: 'undeclared' }
}

/** The decoded call of {@link readContractCall}; undefined when no ABI declares the selector or the arguments do not decode. */
export function decodeContractCall(abis: readonly (readonly AbiItem[])[], data: string): DecodedCall | undefined {
  const r = readContractCall(abis, data)
  return r.kind === 'decoded' ? r.call : undefined
}
