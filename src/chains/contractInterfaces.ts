/**
 * Smart-contract interfaces (create_smart_contract_interface): checks of an Ethereum ABI and of a
 * Solana (Anchor) IDL given as JSON text, of the contract address for each type, and the custom
 * errors an ABI declares (what revert decoding looks them up by). ABI types are compiled with
 * micro-eth-signer's ABI coder, the one that later decodes reverts with them, so an accepted ABI
 * is one it can use. No zod here: src/api wraps these in the request schema.
 *
 * Each check answers `{ ok: true, … }` or `{ ok: false, problem }`, where `problem` says where in
 * the JSON the fault is (`[2].inputs[0].type: …`), never echoing more than a short excerpt.
 */
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { base58 } from '@scure/base'
import { createContract } from 'micro-eth-signer/abi.js'

export type Checked<T> = ({ ok: true } & T) | { ok: false; problem: string }

/** One parameter of an ABI item (Solidity ABI JSON). */
export type AbiParameter = {
  readonly name?: string
  readonly type: string
  readonly internalType?: string
  readonly indexed?: boolean
  readonly components?: readonly AbiParameter[]
}

/** One ABI item, as the JSON gives it (a missing `type` means `function`, as the Solidity ABI spec says). */
export type AbiItem = {
  readonly type?: string
  readonly name?: string
  readonly inputs?: readonly AbiParameter[]
  readonly outputs?: readonly AbiParameter[]
  readonly stateMutability?: string
  readonly anonymous?: boolean
}

/** An ABI item declaring a custom error. */
export type AbiError = AbiItem & { readonly type: 'error'; readonly name: string }

const ITEM_TYPES = ['function', 'constructor', 'event', 'error', 'fallback', 'receive'] as const
const NAMED_ITEM_TYPES: readonly string[] = ['function', 'event', 'error']
const MUTABILITIES: readonly string[] = ['pure', 'view', 'nonpayable', 'payable']
/** A Solidity identifier. */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/
/** `fixed<M>x<N>` / `ufixed<M>x<N>`: valid in the ABI, not handled by the coder (Solidity cannot use them either). */
const FIXED = /^u?fixed(?:(\d{1,3})x(\d{1,2}))?((?:\[\d*\])*)$/
const ARRAY_SUFFIXES = /^((?:\[\d*\])*)$/

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** A short, printable excerpt of a value for a message. */
function excerpt(v: unknown): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v))
  return s.length > 40 ? `${s.slice(0, 37)}...` : s
}

/**
 * Parses `json` and refuses nesting deeper than `maxDepth` (arrays and objects, the top one being
 * 1), walking without recursion, before anything recursive reads the value.
 */
export function parseBoundedJson(json: string, maxDepth: number): Checked<{ value: Json }> {
  let value: Json
  try {
    value = JSON.parse(json) as Json
  } catch (e) {
    return { ok: false, problem: `not valid JSON (${(e as Error).message.slice(0, 120)})` }
  }
  const stack: Array<[Json, number]> = [[value, 1]]
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [Json, number]
    if (v === null || typeof v !== 'object') continue
    if (depth > maxDepth) return { ok: false, problem: `nested deeper than ${maxDepth} levels` }
    for (const x of Array.isArray(v) ? v : Object.values(v)) stack.push([x, depth + 1])
  }
  return { ok: true, value }
}

/** True when the coder accepts `param` as a function input (compiles its type and the selector's signature). */
function compiles(param: AbiParameter): boolean {
  try {
    createContract([{ type: 'function', name: 'f', inputs: [param], outputs: [] }])
    return true
  } catch {
    return false
  }
}

function fixedTypeOk(type: string): boolean {
  const m = FIXED.exec(type)
  if (!m) return false
  if (m[1] === undefined) return true
  const bits = Number(m[1])
  const decimals = Number(m[2])
  return bits >= 8 && bits <= 256 && bits % 8 === 0 && decimals >= 1 && decimals <= 80
}

/** The problem with one parameter (at `at`), if any. */
function parameterProblem(p: unknown, at: string): string | undefined {
  if (!isObject(p)) return `${at}: expected an object {name, type}`
  if (typeof p.type !== 'string' || p.type === '') return `${at}.type: required (a Solidity type such as uint256)`
  if (p.name !== undefined && typeof p.name !== 'string') return `${at}.name: expected a string`
  if (p.internalType !== undefined && typeof p.internalType !== 'string') return `${at}.internalType: expected a string`
  if (p.indexed !== undefined && typeof p.indexed !== 'boolean') return `${at}.indexed: expected a boolean`
  if (p.type.startsWith('tuple')) {
    if (!ARRAY_SUFFIXES.test(p.type.slice(5))) return `${at}.type: not an ABI type: ${excerpt(p.type)}`
    if (!Array.isArray(p.components) || p.components.length === 0) return `${at}.components: a tuple needs its components`
    for (const [i, c] of p.components.entries()) {
      const problem = parameterProblem(c, `${at}.components[${i}]`)
      if (problem) return problem
    }
  } else if (p.components !== undefined) {
    return `${at}.components: only a tuple has components`
  }
  if (fixedTypeOk(p.type) || hasFixed(p as AbiParameter)) return undefined
  if (!compiles(p as AbiParameter)) return `${at}.type: not an ABI type: ${excerpt(p.type)}`
  return undefined
}

/** A tuple with a fixed-point component somewhere (already checked): the coder cannot compile it, the ABI allows it. */
function hasFixed(p: AbiParameter): boolean {
  return (p.components ?? []).some((c) => fixedTypeOk(c.type) || hasFixed(c))
}

/** The problem with one ABI item (at index `i`), if any. */
function itemProblem(item: unknown, i: number): string | undefined {
  const at = `[${i}]`
  if (!isObject(item)) return `${at}: expected an object (an ABI item such as {"type":"function","name":…})`
  const type = item.type ?? 'function'
  if (typeof type !== 'string' || !(ITEM_TYPES as readonly string[]).includes(type)) {
    return `${at}.type: expected one of ${ITEM_TYPES.join(', ')}, not ${excerpt(item.type)}`
  }
  if (NAMED_ITEM_TYPES.includes(type)) {
    if (typeof item.name !== 'string' || !IDENTIFIER.test(item.name)) return `${at}.name: required for the ${type} (a Solidity identifier)`
  } else if (item.name !== undefined && typeof item.name !== 'string') {
    return `${at}.name: expected a string`
  }
  if (item.stateMutability !== undefined && !MUTABILITIES.includes(item.stateMutability as string)) {
    return `${at}.stateMutability: expected one of ${MUTABILITIES.join(', ')}`
  }
  if (item.anonymous !== undefined && typeof item.anonymous !== 'boolean') return `${at}.anonymous: expected a boolean`
  for (const key of ['inputs', 'outputs'] as const) {
    const params = item[key]
    if (params === undefined) continue
    if (!Array.isArray(params)) return `${at}.${key}: expected an array of parameters`
    if (key === 'outputs' && type !== 'function' && params.length > 0) return `${at}.outputs: only a function has outputs`
    for (const [j, p] of params.entries()) {
      const problem = parameterProblem(p, `${at}.${key}[${j}]`)
      if (problem) return problem
    }
  }
  return undefined
}

/**
 * A parameter's type as the canonical signature writes it (Solidity ABI spec, "Function Selector"):
 * tuples as their component types in parentheses, `int`/`uint` as `int256`/`uint256`. This is the
 * rule micro-eth-signer's decoder applies when it matches a selector (its `decodeError` is what
 * decodes the reverts); test/unit/api/smartContractInterfaces.test.ts holds both to viem's.
 */
function canonicalType(p: AbiParameter): string {
  if (p.type.startsWith('tuple')) return `(${(p.components ?? []).map(canonicalType).join(',')})${p.type.slice(5)}`
  const int = /^(u?int)((?:\[\d*\])*)$/.exec(p.type)
  return int ? `${int[1]}256${int[2]}` : p.type
}

/** The selector of a custom error: the first 4 bytes of keccak-256 of its canonical signature, 8 hex digits, no 0x. */
export function errorSelector(error: AbiError): string {
  const signature = `${error.name}(${(error.inputs ?? []).map(canonicalType).join(',')})`
  return bytesToHex(keccak_256(utf8ToBytes(signature))).slice(0, 8)
}

/** The distinct custom-error selectors an ABI declares. */
export function errorSelectors(abi: readonly AbiItem[]): string[] {
  return [...new Set(abi.filter(isAbiError).map(errorSelector))]
}

/** True for an item declaring a custom error. */
export function isAbiError(item: AbiItem): item is AbiError {
  return item.type === 'error' && typeof item.name === 'string'
}

/**
 * Checks an Ethereum ABI: a JSON array of ABI items (functions, constructor, events, errors,
 * fallback, receive), at least one, each well formed with types the ABI coder compiles.
 * Answers the items and the selectors of the custom errors they declare.
 */
export function parseEthereumAbi(json: string, maxDepth: number): Checked<{ abi: AbiItem[]; errorSelectors: string[] }> {
  const parsed = parseBoundedJson(json, maxDepth)
  if (!parsed.ok) return parsed
  const value = parsed.value
  if (!Array.isArray(value)) {
    const artifact = isObject(value) && Array.isArray(value.abi)
    return {
      ok: false,
      problem: artifact
        ? 'expected the ABI (a JSON array of ABI items), not a build artifact: give its "abi" member'
        : 'expected a JSON array of ABI items',
    }
  }
  if (value.length === 0) return { ok: false, problem: 'an ABI with no items describes nothing' }
  for (const [i, item] of value.entries()) {
    const problem = itemProblem(item, i)
    if (problem) return { ok: false, problem }
  }
  const abi = value as AbiItem[]
  return { ok: true, abi, errorSelectors: errorSelectors(abi) }
}

/** The problem with one IDL instruction (at index `i`), if any. */
function instructionProblem(ix: unknown, i: number): string | undefined {
  const at = `instructions[${i}]`
  if (!isObject(ix)) return `${at}: expected an object {name, accounts, args}`
  if (typeof ix.name !== 'string' || ix.name === '') return `${at}.name: required`
  if (ix.discriminator !== undefined) {
    const d = ix.discriminator
    if (!Array.isArray(d) || d.length === 0 || !d.every((b) => Number.isInteger(b) && (b as number) >= 0 && (b as number) <= 255)) {
      return `${at}.discriminator: expected an array of bytes (integers 0..255)`
    }
  }
  if (ix.accounts !== undefined) {
    if (!Array.isArray(ix.accounts)) return `${at}.accounts: expected an array`
    for (const [j, a] of ix.accounts.entries()) {
      if (!isObject(a) || typeof a.name !== 'string' || a.name === '') return `${at}.accounts[${j}]: expected an object with a name`
    }
  }
  if (ix.args !== undefined) {
    if (!Array.isArray(ix.args)) return `${at}.args: expected an array`
    for (const [j, a] of ix.args.entries()) {
      if (!isObject(a) || typeof a.name !== 'string' || a.name === '') return `${at}.args[${j}]: expected an object with a name`
      if (typeof a.type !== 'string' && !isObject(a.type)) return `${at}.args[${j}].type: required (a type name or a type object)`
    }
  }
  return undefined
}

/**
 * Checks a Solana IDL in Anchor's format (the current spec or the legacy one, as the hosted docs
 * accept both): a JSON object whose `instructions` is a non-empty array of named instructions,
 * each with optional `accounts` and `args` arrays of named entries; the other top-level members
 * Anchor defines, when present, have their JSON kinds. Types inside are not interpreted.
 */
export function parseSolanaIdl(json: string, maxDepth: number): Checked<{ idl: Record<string, unknown> }> {
  const parsed = parseBoundedJson(json, maxDepth)
  if (!parsed.ok) return parsed
  const idl = parsed.value
  if (!isObject(idl)) return { ok: false, problem: 'expected a JSON object (an Anchor IDL) with an "instructions" array' }
  if (!Array.isArray(idl.instructions)) return { ok: false, problem: 'instructions: required (an array of the program instructions)' }
  if (idl.instructions.length === 0) return { ok: false, problem: 'instructions: an IDL with no instructions describes nothing' }
  for (const [i, ix] of idl.instructions.entries()) {
    const problem = instructionProblem(ix, i)
    if (problem) return { ok: false, problem }
  }
  for (const key of ['accounts', 'types', 'events', 'errors', 'constants'] as const) {
    if (idl[key] !== undefined && !Array.isArray(idl[key])) return { ok: false, problem: `${key}: expected an array` }
  }
  for (const key of ['address', 'name', 'version'] as const) {
    if (idl[key] !== undefined && typeof idl[key] !== 'string') return { ok: false, problem: `${key}: expected a string` }
  }
  if (idl.metadata !== undefined && !isObject(idl.metadata)) return { ok: false, problem: 'metadata: expected an object' }
  return { ok: true, idl }
}

/** A 0x-prefixed 20-byte hex address, any letter case (EIP-55 checksums are not required). */
export function isEvmAddress(address: string): boolean {
  return /^0x[0-9a-fA-F]{40}$/.test(address)
}

/** A Solana address (program id): base58 of exactly 32 bytes. */
export function isSolanaAddress(address: string): boolean {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)) return false
  try {
    return base58.decode(address).length === 32
  } catch {
    return false
  }
}

/**
 * The form an address is matched by: Ethereum addresses in lower case (the hosted docs: "case
 * insensitive with Ethereum"), Solana addresses as given ("case sensitive with Solana").
 */
export function addressKey(type: 'ethereum' | 'solana', address: string): string {
  return type === 'ethereum' ? address.toLowerCase() : address
}
