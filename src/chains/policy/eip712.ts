/**
 * `eth.eip_712` of the policy language (tkhq/docs features/policies/language, structs
 * "Eip712TypedData" and "Eip712Domain"): the typed-data JSON of a sign_raw_payload with
 * PAYLOAD_ENCODING_EIP712, as `primary_type`, `domain` and `message`.
 *
 * Read by the same parse the signer signs (sign/typedData.ts): values by their declared types,
 * integers (`uint*`, `int*`) as integers whether the JSON gives a number or a decimal / 0x string,
 * `bool` a boolean, structs maps and arrays lists; hex strings (addresses, `bytes*`) are lower case:
 * "EIP-712 messages ... will be normalized to lowercase" (language, "EIP-712"). Typed data that
 * parse refuses has no facts, and is not signed either. Pure: no database, no network.
 */
import { type ParsedTypedData, readTypedData, type TypedFact } from '../sign/typedData.js'

/** A value of `eth.eip_712.message`. */
export type Eip712Value = TypedFact

/** The `eth.eip_712` namespace. */
export type Eip712Facts = {
  primary_type: string
  domain: { name?: string; version?: string; chain_id?: bigint; verifying_contract?: string }
  message: { readonly [key: string]: Eip712Value }
}

function integer(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v
  if (typeof v === 'string' && /^(-?[0-9]{1,80}|0x[0-9a-fA-F]{1,64})$/.test(v)) return BigInt(v)
  return undefined
}

/** `eth.eip_712` of typed data already read by the one typed-data reader (sign/typedData.ts), which the signer signs. */
export function eip712Facts(parsed: ParsedTypedData): Eip712Facts {
  const d = parsed.facts.domain
  const chainId = integer(d.chainId)
  return {
    primary_type: parsed.typed.primaryType,
    domain: {
      ...(typeof d.name === 'string' ? { name: d.name } : {}),
      ...(typeof d.version === 'string' ? { version: d.version } : {}),
      ...(chainId !== undefined ? { chain_id: chainId } : {}),
      ...(typeof d.verifyingContract === 'string' ? { verifying_contract: d.verifyingContract.toLowerCase() } : {}),
    },
    message: parsed.facts.message,
  }
}

/**
 * `eth.eip_712` of typed-data JSON, or why it cannot be read (then the signer refuses it too: a
 * policy reading the namespace fails closed, service/policy/context.ts).
 */
export function readEip712(payload: string): { ok: true; facts: Eip712Facts } | { ok: false; problem: string } {
  const r = readTypedData(payload)
  return r.ok ? { ok: true, facts: eip712Facts(r.value) } : r
}

/** `eth.eip_712` of typed-data JSON `{types, primaryType, domain, message}`; undefined when the signer would refuse it. */
export function eip712FromPayload(payload: string): Eip712Facts | undefined {
  const r = readEip712(payload)
  return r.ok ? r.facts : undefined
}
