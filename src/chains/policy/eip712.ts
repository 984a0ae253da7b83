/**
 * `eth.eip_712` of the policy language (tkhq/docs features/policies/language, structs
 * "Eip712TypedData" and "Eip712Domain"): the typed-data JSON of a sign_raw_payload with
 * PAYLOAD_ENCODING_EIP712, as `primary_type`, `domain` and `message`.
 *
 * Values are read by their declared types: integers (`uint*`, `int*`) become integers whether the
 * JSON gives a number or a decimal / 0x string, `bool` a boolean, structs maps and arrays lists.
 * Hex strings (addresses, `bytes*`) are lower case: "EIP-712 messages ... will be normalized to
 * lowercase" (language, "EIP-712"). Pure: no database, no network.
 */
import { parseBoundedJson } from '../contractInterfaces.js'

/** A value of `eth.eip_712.message`. */
export type Eip712Value = boolean | bigint | number | string | readonly Eip712Value[] | { readonly [key: string]: Eip712Value }

/** The `eth.eip_712` namespace. */
export type Eip712Facts = {
  primary_type: string
  domain: { name?: string; version?: string; chain_id?: bigint; verifying_contract?: string }
  message: { readonly [key: string]: Eip712Value }
}

type Field = { name: string; type: string }
type Types = Readonly<Record<string, readonly Field[]>>

/** How deep typed-data JSON may nest before it is refused (a hostile payload cannot exhaust the stack). */
const MAX_DEPTH = 32

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

function integer(v: unknown): bigint | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v)
  if (typeof v === 'string' && /^(-?[0-9]{1,80}|0x[0-9a-fA-F]{1,64})$/.test(v)) return BigInt(v)
  return undefined
}

const hex = (v: string) => (/^0x[0-9a-fA-F]*$/i.test(v) ? v.toLowerCase() : v)

/** A JSON value without declared type: strings (hex lower-cased), numbers, booleans, lists and maps. */
function untyped(v: unknown): Eip712Value | undefined {
  if (typeof v === 'string') return hex(v)
  if (typeof v === 'boolean') return v
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : undefined
  if (Array.isArray(v)) return v.map(untyped).filter((x): x is Eip712Value => x !== undefined)
  if (isObject(v)) {
    const out: Record<string, Eip712Value> = {}
    for (const [k, x] of Object.entries(v)) {
      const y = untyped(x)
      if (y !== undefined) out[k] = y
    }
    return out
  }
  return undefined
}

/** A value of declared `type` (a struct of `types`, an array, or an atomic type). */
function typed(types: Types, type: string, v: unknown): Eip712Value | undefined {
  const array = /^(.*)\[\d*\]$/.exec(type)
  if (array) {
    if (!Array.isArray(v)) return undefined
    return v.map((x) => typed(types, array[1] as string, x)).filter((x): x is Eip712Value => x !== undefined)
  }
  const fields = types[type]
  if (fields) return isObject(v) ? struct(types, fields, v) : undefined
  if (/^u?int\d*$/.test(type)) return integer(v)
  if (type === 'bool') return typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : undefined
  if (type === 'address' || /^bytes\d*$/.test(type)) return typeof v === 'string' ? v.toLowerCase() : undefined
  return untyped(v)
}

function struct(types: Types, fields: readonly Field[], v: Record<string, unknown>): { [key: string]: Eip712Value } {
  const out: Record<string, Eip712Value> = {}
  for (const f of fields) {
    if (!(f.name in v)) continue
    const x = typed(types, f.type, v[f.name])
    if (x !== undefined) out[f.name] = x
  }
  return out
}

function typesOf(v: unknown): Types | undefined {
  if (!isObject(v)) return undefined
  const out: Record<string, Field[]> = {}
  for (const [name, fields] of Object.entries(v)) {
    if (!Array.isArray(fields)) return undefined
    const list: Field[] = []
    for (const f of fields) {
      if (!isObject(f) || typeof f.name !== 'string' || typeof f.type !== 'string') return undefined
      list.push({ name: f.name, type: f.type })
    }
    out[name] = list
  }
  return out
}

/**
 * `eth.eip_712` of typed-data JSON `{types, primaryType, domain, message}`. Undefined when the
 * payload is not such JSON (no string `primaryType`, no object `message`).
 */
export function eip712FromPayload(payload: string): Eip712Facts | undefined {
  const parsed = parseBoundedJson(payload, MAX_DEPTH)
  if (!parsed.ok || !isObject(parsed.value)) return undefined
  const { types: rawTypes, primaryType, domain, message } = parsed.value
  if (typeof primaryType !== 'string' || !isObject(message)) return undefined
  const types = typesOf(rawTypes) ?? {}
  const fields = types[primaryType]
  const msg = fields ? struct(types, fields, message) : (untyped(message) as { [key: string]: Eip712Value })
  const d = isObject(domain) ? domain : {}
  const chainId = integer(d.chainId)
  return {
    primary_type: primaryType,
    domain: {
      ...(typeof d.name === 'string' ? { name: d.name } : {}),
      ...(typeof d.version === 'string' ? { version: d.version } : {}),
      ...(chainId !== undefined ? { chain_id: chainId } : {}),
      ...(typeof d.verifyingContract === 'string' ? { verifying_contract: d.verifyingContract.toLowerCase() } : {}),
    },
    message: msg,
  }
}
