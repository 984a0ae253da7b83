/**
 * `solana.tx.instructions[i].parsed_instruction_data` (tkhq/docs features/policies/language struct
 * "SolanaParsedInstructionData"; features/policies/smart-contract-interfaces "Solana"): an
 * instruction to a program whose Anchor IDL was uploaded, decoded by it.
 *
 * - The instruction is the one whose discriminator starts the data: the IDL's `discriminator`, or
 *   Anchor's default `sha256("global:" + snake_case(name))[0..8]` when it has none (the docs: "we
 *   will internally generate them as per this standard").
 * - `named_accounts` (also as `named_account`, both spellings appear in the docs) maps the IDL's
 *   account names, nested groups flattened in order, to the instruction's accounts.
 * - `program_call_args` maps argument names to values decoded from Borsh: integers (u8…u128,
 *   i8…i128) as integers, `bool`, `string`, `pubkey`/`publicKey` as base58, `bytes` as hex, `vec`,
 *   `array` and tuple structs as lists, named structs as maps, `option` as the value or absent,
 *   enums as the variant name (or a one-key map of the variant name to its fields). Floats and
 *   types the IDL does not define make the instruction's arguments undecodable ({@link readWithIdl}:
 *   the instruction is known, its arguments are not; the policy context marks them unreadable).
 * Pure: no database, no network. Work is bounded (values decoded per instruction).
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { base58 } from '@scure/base'
import { bytesToHex, utf8Encode } from '../../crypto/encoding.js'
import type { CallArg } from './ethTx.js'

/** A decoded argument (a named struct is a map). */
export type IdlValue = CallArg | { readonly [name: string]: IdlValue } | readonly IdlValue[]

export type ParsedInstructionData = {
  instruction_name: string
  /** The discriminator bytes, hex without 0x (as `instruction_data_hex`). */
  discriminator: string
  named_accounts: { readonly [name: string]: string }
  named_account: { readonly [name: string]: string }
  program_call_args: { readonly [name: string]: IdlValue }
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }
const isObject = (v: unknown): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** At most this many values are decoded per instruction (a hostile vec length cannot make it loop). */
const MAX_VALUES = 4096

class Undecodable extends Error {}

class Reader {
  pos = 0
  values = 0
  constructor(readonly data: Uint8Array) {}
  take(n: number): Uint8Array {
    if (n < 0 || this.pos + n > this.data.length) throw new Undecodable('unexpected end of data')
    const out = this.data.subarray(this.pos, this.pos + n)
    this.pos += n
    return out
  }
  uint(bytes: number): bigint {
    const b = this.take(bytes)
    let v = 0n
    for (let i = bytes - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[i] as number)
    return v
  }
  count(): void {
    if (++this.values > MAX_VALUES) throw new Undecodable('too many values')
  }
}

const INT = /^([ui])(8|16|32|64|128)$/

/** Anchor's `snake_case` of an instruction name (the legacy IDLs spell them camelCase). */
function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
}

/** The discriminator of an IDL instruction: given, or Anchor's default. */
function discriminatorOf(ix: Record<string, Json>): Uint8Array | undefined {
  if (Array.isArray(ix.discriminator)) {
    const bytes = ix.discriminator.filter((b): b is number => typeof b === 'number' && Number.isInteger(b) && b >= 0 && b <= 255)
    return bytes.length === ix.discriminator.length && bytes.length > 0 ? Uint8Array.from(bytes) : undefined
  }
  return typeof ix.name === 'string' ? sha256(utf8Encode(`global:${snakeCase(ix.name)}`)).subarray(0, 8) : undefined
}

const startsWith = (data: Uint8Array, prefix: Uint8Array) => prefix.length <= data.length && prefix.every((b, i) => data[i] === b)

/** The IDL's account names, nested groups (legacy `accounts` inside an account) flattened in order. */
function accountNames(accounts: Json | undefined, out: string[] = [], depth = 0): string[] {
  if (!Array.isArray(accounts) || depth > 8) return out
  for (const a of accounts) {
    if (!isObject(a) || typeof a.name !== 'string') continue
    if (Array.isArray(a.accounts)) accountNames(a.accounts, out, depth + 1)
    else out.push(a.name)
  }
  return out
}

function definedType(idl: Record<string, Json>, name: string): Record<string, Json> | undefined {
  const types = Array.isArray(idl.types) ? idl.types : []
  const t = types.find((x) => isObject(x) && x.name === name)
  return isObject(t) && isObject(t.type) ? t.type : undefined
}

function fields(idl: Record<string, Json>, list: Json | undefined, r: Reader, depth: number): IdlValue {
  if (!Array.isArray(list)) return {}
  // Named fields make a map; bare types (a tuple struct or variant) a list.
  if (list.every((f) => isObject(f) && typeof f.name === 'string')) {
    const out: Record<string, IdlValue> = {}
    for (const f of list as Record<string, Json>[]) {
      const v = decode(idl, f.type, r, depth + 1)
      if (v !== undefined) out[f.name as string] = v
    }
    return out
  }
  return list.map((t) => decode(idl, isObject(t) && 'type' in t ? t.type : t, r, depth + 1)).filter((v): v is IdlValue => v !== undefined)
}

/** One Borsh value of IDL type `type`; undefined for an absent `option`. */
function decode(idl: Record<string, Json>, type: Json | undefined, r: Reader, depth: number): IdlValue | undefined {
  if (depth > 16) throw new Undecodable('types nested too deep')
  r.count()
  if (typeof type === 'string') {
    const int = INT.exec(type)
    if (int) {
      const bits = Number(int[2])
      const v = r.uint(bits / 8)
      return int[1] === 'i' && v >= 1n << BigInt(bits - 1) ? v - (1n << BigInt(bits)) : v
    }
    if (type === 'bool') return (r.take(1)[0] as number) !== 0
    if (type === 'pubkey' || type === 'publicKey') return base58.encode(r.take(32))
    if (type === 'string') return new TextDecoder('utf-8', { fatal: false }).decode(r.take(Number(r.uint(4))))
    if (type === 'bytes') return bytesToHex(r.take(Number(r.uint(4))))
    throw new Undecodable(`unsupported type ${type}`)
  }
  if (!isObject(type)) throw new Undecodable('not a type')
  if ('vec' in type) {
    const n = Number(r.uint(4))
    const out: IdlValue[] = []
    for (let i = 0; i < n; i++) out.push(decode(idl, type.vec, r, depth + 1) as IdlValue)
    return out
  }
  if ('array' in type && Array.isArray(type.array) && typeof type.array[1] === 'number') {
    const out: IdlValue[] = []
    for (let i = 0; i < type.array[1]; i++) out.push(decode(idl, type.array[0], r, depth + 1) as IdlValue)
    return out
  }
  if ('option' in type || 'coption' in type) {
    const tag = 'option' in type ? Number(r.uint(1)) : Number(r.uint(4))
    return tag === 0 ? undefined : decode(idl, 'option' in type ? type.option : type.coption, r, depth + 1)
  }
  if ('defined' in type) {
    const name = typeof type.defined === 'string' ? type.defined : isObject(type.defined) ? type.defined.name : undefined
    const def = typeof name === 'string' ? definedType(idl, name) : undefined
    if (!def) throw new Undecodable('undefined type')
    if (def.kind === 'struct') return fields(idl, def.fields, r, depth)
    if (def.kind === 'enum' && Array.isArray(def.variants)) {
      const variant = def.variants[Number(r.uint(1))]
      if (!isObject(variant) || typeof variant.name !== 'string') throw new Undecodable('bad enum variant')
      return variant.fields === undefined ? variant.name : { [variant.name]: fields(idl, variant.fields, r, depth) }
    }
  }
  throw new Undecodable('unsupported type')
}

/**
 * What a program's IDL (parsed JSON) makes of one instruction (`data`, its account keys in order):
 * - `decoded`: the first IDL instruction whose discriminator starts the data, with its arguments;
 * - `undecodable`: an IDL instruction's discriminator starts the data (its name and accounts are
 *   known) but the arguments do not decode (truncated data, a float or a type the IDL does not
 *   define): what the program receives cannot be read, which is not an instruction without arguments;
 * - `undeclared`: no IDL instruction's discriminator starts the data (or the IDL has none).
 */
export type IdlReading =
  | { readonly kind: 'decoded'; readonly parsed: ParsedInstructionData }
  | { readonly kind: 'undecodable'; readonly known: Omit<ParsedInstructionData, 'program_call_args'> }
  | { readonly kind: 'undeclared' }

/** The {@link IdlReading} of one instruction under `idl`. */
export function readWithIdl(idl: unknown, data: Uint8Array, accounts: readonly string[]): IdlReading {
  if (!isObject(idl) || !Array.isArray(idl.instructions)) return { kind: 'undeclared' }
  for (const ix of idl.instructions) {
    if (!isObject(ix) || typeof ix.name !== 'string') continue
    const disc = discriminatorOf(ix)
    if (!disc || !startsWith(data, disc)) continue
    const named: Record<string, string> = {}
    accountNames(ix.accounts).forEach((name, i) => {
      const key = accounts[i]
      if (key !== undefined) named[name] = key
    })
    const known = { instruction_name: ix.name, discriminator: bytesToHex(disc), named_accounts: named, named_account: named }
    try {
      const r = new Reader(data.subarray(disc.length))
      const args = fields(idl, Array.isArray(ix.args) ? ix.args : [], r, 0)
      return { kind: 'decoded', parsed: { ...known, program_call_args: args as { [name: string]: IdlValue } } }
    } catch {
      // Undecodable, or anything else the decoder trips on: the arguments are not read either way.
      return { kind: 'undecodable', known }
    }
  }
  return { kind: 'undeclared' }
}

/**
 * Decodes one instruction (`data`, its account keys in order) with a program's IDL (parsed JSON);
 * undefined when no IDL instruction's discriminator matches or the arguments do not decode.
 */
export function decodeWithIdl(idl: unknown, data: Uint8Array, accounts: readonly string[]): ParsedInstructionData | undefined {
  const r = readWithIdl(idl, data, accounts)
  return r.kind === 'decoded' ? r.parsed : undefined
}
