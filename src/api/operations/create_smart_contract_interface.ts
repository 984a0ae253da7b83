/**
 * create_smart_contract_interface (hosted OpenAPI v1CreateSmartContractInterfaceIntent): stores an
 * Ethereum ABI or a Solana (Anchor) IDL for a contract address of the organization, kept as given.
 * This schema checks the request's shape and sizes; the service checks the JSON text and the address
 * against `type` with the chains' parsers, at the same step (src/service/activities/create_smart_contract_interface.ts).
 */
import { z } from 'zod'
import { SmartContractInterfaceType } from '../enums.js'
import { MAX_SMART_CONTRACT_INTERFACE_BYTES, MAX_SMART_CONTRACT_INTERFACE_LABEL, MAX_SMART_CONTRACT_INTERFACE_NOTES } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** UTF-8 length of `s`, counted without encoding it. */
export function utf8Length(s: string): number {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4
      i++
    } else n += 3
  }
  return n
}

/** Parameters: the address, the interface's JSON text (bounded in UTF-8 bytes), its type, label and notes. */
export const CreateSmartContractInterfaceParams = z.object({
  /** The contract address (Ethereum, any letter case) or program id (Solana, base58). */
  smartContractAddress: z.string().min(1, { error: 'required' }).max(128, { error: 'at most 128 characters' }),
  /** The ABI (Ethereum) or IDL (Solana) as a JSON string, at most 400 KiB of UTF-8. */
  smartContractInterface: z
    .string()
    .min(1, { error: 'required' })
    .refine((s) => utf8Length(s) <= MAX_SMART_CONTRACT_INTERFACE_BYTES, {
      error: `at most ${MAX_SMART_CONTRACT_INTERFACE_BYTES} bytes (400 KiB) of UTF-8`,
      abort: true,
    }),
  type: SmartContractInterfaceType,
  label: z
    .string()
    .min(1, { error: 'required' })
    .max(MAX_SMART_CONTRACT_INTERFACE_LABEL, { error: `at most ${MAX_SMART_CONTRACT_INTERFACE_LABEL} characters` }),
  notes: z
    .string()
    .max(MAX_SMART_CONTRACT_INTERFACE_NOTES, { error: `at most ${MAX_SMART_CONTRACT_INTERFACE_NOTES} characters` })
    .optional(),
})

/** Stores an ABI or IDL: ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE. */
export const createSmartContractInterface = defineSubmit({
  name: 'create_smart_contract_interface',
  path: '/public/v1/submit/create_smart_contract_interface',
  type: 'ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE',
  intentKey: 'createSmartContractInterfaceIntent',
  resultKey: 'createSmartContractInterfaceResult',
  parameters: CreateSmartContractInterfaceParams,
  result: z.object({ smartContractInterfaceId: z.string() }),
})
