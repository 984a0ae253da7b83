/**
 * `solana.tx` of the policy language (tkhq/docs features/policies/language, structs
 * "SolanaTransaction", "Instruction", "Transfer", "SPLTransfer", "Account", "AddressTableLookup";
 * section "Solana"): the accounts, programs, instructions and top-level transfers of a legacy or v0
 * message (or a whole transaction).
 *
 * - An address loaded from an address lookup table is the literal `ADDRESS_TABLE_LOOKUP` in every
 *   address field ("Account address lookups"); `address_table_lookups` says which tables.
 * - `transfers`: top-level System Program `Transfer` instructions (the ones src/chains/transfers.ts
 *   reads for sends). `spl_transfers`: top-level Token / Token-2022 `Transfer`, `TransferChecked`
 *   and `TransferCheckedWithFee`; `token_mint` is `''` for `Transfer`, which names no mint;
 *   `signers` are the multisig signers after the owner.
 * - `parsed_instruction_data`: added by {@link withParsedInstructions} from the programs' IDLs
 *   (arguments an IDL declares but that do not decode are the caller's marker, not absent).
 * Pure: no database, no network.
 */
import { base58 } from '@scure/base'
import { bytesToHex, hexToBytes } from '../../crypto/encoding.js'
import { type SolanaMessage, parseSolanaTransactionOrMessage } from '../sign/solanaMessage.js'
import { solanaTransfers } from '../transfers.js'
import { type IdlReading, type ParsedInstructionData, readWithIdl } from './solanaIdl.js'

/** The placeholder of an address loaded from a lookup table (the docs' wording). */
export const ADDRESS_TABLE_LOOKUP = 'ADDRESS_TABLE_LOOKUP'

export type SolanaLookupFacts = { address_table_key: string; writable_indexes: readonly bigint[]; readonly_indexes: readonly bigint[] }
/** `U` marks the arguments of an instruction an IDL declares but that do not decode ({@link withParsedInstructions}). */
export type SolanaInstructionFacts<U = never> = {
  program_key: string
  accounts: readonly { account_key: string; signer: boolean; writable: boolean }[]
  instruction_data_hex: string
  address_table_lookups: readonly SolanaLookupFacts[]
  /** Only for a program with an uploaded IDL that declares the instruction (solanaIdl.ts). */
  parsed_instruction_data?: Omit<ParsedInstructionData, 'program_call_args'> & {
    program_call_args: ParsedInstructionData['program_call_args'] | U
  }
}
export type SolanaSplTransferFacts = {
  from: string
  to: string
  amount: bigint
  owner: string
  signers: readonly string[]
  token_mint: string
}
/** The `solana.tx` namespace. */
export type SolanaTxFacts<U = never> = {
  account_keys: readonly string[]
  program_keys: readonly string[]
  instructions: readonly SolanaInstructionFacts<U>[]
  transfers: readonly { from: string; to: string; amount: bigint }[]
  recent_blockhash: string
  spl_transfers: readonly SolanaSplTransferFacts[]
  address_table_lookups: readonly SolanaLookupFacts[]
}

const TOKEN_PROGRAMS: ReadonlySet<string> = new Set([
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', // SPL Token
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb', // Token-2022
])
/** TokenInstruction tags (spl-token `instruction.rs`). */
const TRANSFER = 3
const TRANSFER_CHECKED = 12
/** Token-2022 TransferFeeExtension (26), its sub-instruction TransferCheckedWithFee (1). */
const TRANSFER_FEE_EXTENSION = 26
const TRANSFER_CHECKED_WITH_FEE = 1

function u64(data: Uint8Array, at: number): bigint | undefined {
  if (data.length < at + 8) return undefined
  return new DataView(data.buffer, data.byteOffset + at, 8).getBigUint64(0, true)
}

/** The top-level SPL transfer of one instruction's data and accounts, if it is one. */
function splTransfer(data: Uint8Array, accounts: readonly string[]): SolanaSplTransferFacts | undefined {
  const tag = data[0]
  // [source, destination, owner, ...signers]
  if (tag === TRANSFER && data.length === 9 && accounts.length >= 3) {
    const [from, to, owner] = accounts as [string, string, string]
    return { from, to, amount: u64(data, 1) as bigint, owner, signers: accounts.slice(3), token_mint: '' }
  }
  // [source, mint, destination, owner, ...signers]
  const checked = tag === TRANSFER_CHECKED && data.length === 10
  const withFee = tag === TRANSFER_FEE_EXTENSION && data[1] === TRANSFER_CHECKED_WITH_FEE && data.length === 19
  if ((checked || withFee) && accounts.length >= 4) {
    const [from, mint, to, owner] = accounts as [string, string, string, string]
    return { from, to, amount: u64(data, checked ? 1 : 2) as bigint, owner, signers: accounts.slice(4), token_mint: mint }
  }
  return undefined
}

/** `solana.tx` of a parsed message. */
export function solanaTxFromMessage(m: SolanaMessage): SolanaTxFacts {
  const nStatic = m.accountKeys.length
  const writableSigners = m.numRequiredSignatures - m.numReadonlySigned
  const writableUnsignedEnd = nStatic - m.numReadonlyUnsigned
  const nWritableLoaded = m.addressTableLookups.reduce((n, l) => n + l.writableIndexes.length, 0)
  const nLoaded = nWritableLoaded + m.addressTableLookups.reduce((n, l) => n + l.readonlyIndexes.length, 0)
  const lookups: SolanaLookupFacts[] = m.addressTableLookups.map((l) => ({
    address_table_key: base58.encode(l.accountKey),
    writable_indexes: l.writableIndexes.map(BigInt),
    readonly_indexes: l.readonlyIndexes.map(BigInt),
  }))
  /** Which lookup loaded the account at combined index `i` (writable loads of every table first, then read-only ones). */
  const lookupOf = (i: number): number | undefined => {
    let at = i - nStatic
    if (at < 0 || at >= nLoaded) return undefined
    const part = at < nWritableLoaded ? 'writableIndexes' : 'readonlyIndexes'
    if (part === 'readonlyIndexes') at -= nWritableLoaded
    for (const [k, l] of m.addressTableLookups.entries()) {
      if (at < l[part].length) return k
      at -= l[part].length
    }
    return undefined
  }
  const keyAt = (i: number): string => {
    const k = m.accountKeys[i]
    return k ? base58.encode(k) : ADDRESS_TABLE_LOOKUP
  }
  const account = (i: number) => ({
    account_key: keyAt(i),
    signer: i < m.numRequiredSignatures,
    writable:
      i < nStatic ? i < writableSigners || (i >= m.numRequiredSignatures && i < writableUnsignedEnd) : i - nStatic < nWritableLoaded,
  })

  const accountKeys = [...m.accountKeys.map((k) => base58.encode(k)), ...Array.from({ length: nLoaded }, () => ADDRESS_TABLE_LOOKUP)]
  const instructions: SolanaInstructionFacts[] = []
  const programKeys: string[] = []
  const splTransfers: SolanaSplTransferFacts[] = []
  for (const ix of m.instructions) {
    const program = keyAt(ix.programIdIndex)
    if (!programKeys.includes(program)) programKeys.push(program)
    const accounts = ix.accountIndices.map(account)
    const used = [...new Set(ix.accountIndices.map(lookupOf).filter((k): k is number => k !== undefined))].sort((a, b) => a - b)
    instructions.push({
      program_key: program,
      accounts,
      instruction_data_hex: bytesToHex(ix.data),
      address_table_lookups: used.map((k) => lookups[k] as SolanaLookupFacts),
    })
    if (TOKEN_PROGRAMS.has(program)) {
      const t = splTransfer(
        ix.data,
        accounts.map((a) => a.account_key),
      )
      if (t) splTransfers.push(t)
    }
  }
  return {
    account_keys: accountKeys,
    program_keys: programKeys,
    instructions,
    transfers: solanaTransfers(m, keyAt).map((t) => ({ from: t.from, to: t.to, amount: t.amount })),
    recent_blockhash: base58.encode(m.recentBlockhash),
    spl_transfers: splTransfers,
    address_table_lookups: lookups,
  }
}

/** `solana.tx` of a transaction or bare message given as hex (`0x` optional); undefined when it is neither. */
export function solanaTxFromHex(hex: string): SolanaTxFacts | undefined {
  try {
    return solanaTxFromMessage(parseSolanaTransactionOrMessage(hexToBytes(hex, 'unsignedTransaction')).message)
  } catch {
    return undefined
  }
}

/**
 * `tx` with `parsed_instruction_data` on each instruction one of its program's IDLs (parsed JSON,
 * by program key, preferred first) declares: decoded by the first IDL that decodes it, else, when
 * an IDL declares it but its arguments do not decode, with `program_call_args` `undecodable` (the
 * caller's marker: what the program receives cannot be read, which is not an instruction without
 * arguments). Without a marker such an instruction has no `parsed_instruction_data`.
 */
export function withParsedInstructions(tx: SolanaTxFacts, idls: ReadonlyMap<string, readonly unknown[]>): SolanaTxFacts
export function withParsedInstructions<U>(
  tx: SolanaTxFacts,
  idls: ReadonlyMap<string, readonly unknown[]>,
  undecodable: U,
): SolanaTxFacts<U>
export function withParsedInstructions<U>(
  tx: SolanaTxFacts,
  idls: ReadonlyMap<string, readonly unknown[]>,
  ...marker: [U] | []
): SolanaTxFacts<U> {
  if (idls.size === 0) return tx
  const instructions = tx.instructions.map((ix): SolanaInstructionFacts<U> => {
    const candidates = idls.get(ix.program_key)
    if (!candidates) return ix
    const data = hexToBytes(ix.instruction_data_hex)
    const keys = ix.accounts.map((a) => a.account_key)
    let declared: Extract<IdlReading, { kind: 'undecodable' }>['known'] | undefined
    for (const idl of candidates) {
      const r = readWithIdl(idl, data, keys)
      if (r.kind === 'decoded') return { ...ix, parsed_instruction_data: r.parsed }
      if (r.kind === 'undecodable') declared ??= r.known
    }
    return declared && marker.length === 1 ? { ...ix, parsed_instruction_data: { ...declared, program_call_args: marker[0] } } : ix
  })
  return { ...tx, instructions }
}
