/**
 * SPL Token transactions built by hand (no Solana SDK in production code): the program ids, the
 * associated token account (ATA) address — the program-derived address of `[owner, token
 * program, mint]` under the Associated Token Account program — the instructions a token send and
 * the dev faucet use (SPL Token `TransferChecked`, `MintTo`, `InitializeMint2`; ATA
 * `CreateIdempotent`; System `CreateAccount`), and a legacy message compiled from them with the
 * account order the runtime requires (writable signers, read-only signers, writable, read-only).
 * The unit tests check each against `@solana-program/token` and `@solana/kit`.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { base58 } from '@scure/base'
import { encodeCompactU16 } from './sign/solanaMessage.js'

export const SYSTEM_PROGRAM = '11111111111111111111111111111111'
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb'
export const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'

/** Bytes of an SPL Token account (the Token-2022 base layout is the same, extensions follow). */
export const TOKEN_ACCOUNT_SIZE = 165
/** Bytes of an SPL Token mint. */
export const MINT_SIZE = 82

const U64_MAX = 2n ** 64n - 1n

/** One instruction: the program, its accounts with their roles, and its data. */
export type Instruction = {
  programId: string
  accounts: Array<{ address: string; signer: boolean; writable: boolean }>
  data: Uint8Array
}

function key(address: string, what: string): Uint8Array {
  let bytes: Uint8Array
  try {
    bytes = base58.decode(address)
  } catch {
    throw new RangeError(`${what}: not a base58 address`)
  }
  if (bytes.length !== 32) throw new RangeError(`${what}: a Solana address is 32 bytes`)
  return bytes
}

function u64(value: bigint, what: string): Uint8Array {
  if (value < 0n || value > U64_MAX) throw new RangeError(`${what}: out of the u64 range`)
  const out = new Uint8Array(8)
  new DataView(out.buffer).setBigUint64(0, value, true)
  return out
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

function onCurve(bytes: Uint8Array): boolean {
  try {
    ed25519.Point.fromBytes(bytes)
    return true
  } catch {
    return false
  }
}

const PDA_MARKER = new TextEncoder().encode('ProgramDerivedAddress')

/** The program-derived address of `seeds` under `programId` with the highest bump off the curve. */
export function findProgramAddress(seeds: Uint8Array[], programId: string): { address: string; bump: number } {
  const program = key(programId, 'programId')
  for (let bump = 255; bump >= 0; bump--) {
    const hash = sha256(concat([...seeds, Uint8Array.of(bump), program, PDA_MARKER]))
    if (!onCurve(hash)) return { address: base58.encode(hash), bump }
  }
  throw new Error('no program-derived address for these seeds')
}

/** The associated token account of `owner` for `mint` (SPL Token program unless another is given). */
export function associatedTokenAddress(owner: string, mint: string, tokenProgram = TOKEN_PROGRAM): string {
  return findProgramAddress([key(owner, 'owner'), key(tokenProgram, 'tokenProgram'), key(mint, 'mint')], ASSOCIATED_TOKEN_PROGRAM).address
}

/** ATA `CreateIdempotent`: creates `owner`'s token account for `mint` (paid by `payer`); nothing when it exists. */
export function createAssociatedTokenIdempotent(p: { payer: string; owner: string; mint: string; tokenProgram?: string }): Instruction {
  const tokenProgram = p.tokenProgram ?? TOKEN_PROGRAM
  return {
    programId: ASSOCIATED_TOKEN_PROGRAM,
    accounts: [
      { address: p.payer, signer: true, writable: true },
      { address: associatedTokenAddress(p.owner, p.mint, tokenProgram), signer: false, writable: true },
      { address: p.owner, signer: false, writable: false },
      { address: p.mint, signer: false, writable: false },
      { address: SYSTEM_PROGRAM, signer: false, writable: false },
      { address: tokenProgram, signer: false, writable: false },
    ],
    data: Uint8Array.of(1),
  }
}

/** SPL Token `TransferChecked` (12): `amount` base units of `mint` (with its `decimals`) from `source` to `destination`. */
export function transferChecked(p: {
  source: string
  mint: string
  destination: string
  authority: string
  amount: bigint
  decimals: number
  tokenProgram?: string
}): Instruction {
  if (!Number.isInteger(p.decimals) || p.decimals < 0 || p.decimals > 255) throw new RangeError('decimals: an integer 0..255')
  return {
    programId: p.tokenProgram ?? TOKEN_PROGRAM,
    accounts: [
      { address: p.source, signer: false, writable: true },
      { address: p.mint, signer: false, writable: false },
      { address: p.destination, signer: false, writable: true },
      { address: p.authority, signer: true, writable: false },
    ],
    data: concat([Uint8Array.of(12), u64(p.amount, 'amount'), Uint8Array.of(p.decimals)]),
  }
}

/** SPL Token `MintTo` (7): `amount` new base units of `mint` into `destination`, signed by the mint authority. */
export function mintTo(p: { mint: string; destination: string; authority: string; amount: bigint }): Instruction {
  return {
    programId: TOKEN_PROGRAM,
    accounts: [
      { address: p.mint, signer: false, writable: true },
      { address: p.destination, signer: false, writable: true },
      { address: p.authority, signer: true, writable: false },
    ],
    data: concat([Uint8Array.of(7), u64(p.amount, 'amount')]),
  }
}

/** System `CreateAccount` (0): a new account of `space` bytes owned by `owner`, funded by `from`. */
export function createAccount(p: { from: string; account: string; lamports: bigint; space: number; owner: string }): Instruction {
  const data = new Uint8Array(4)
  return {
    programId: SYSTEM_PROGRAM,
    accounts: [
      { address: p.from, signer: true, writable: true },
      { address: p.account, signer: true, writable: true },
    ],
    data: concat([data, u64(p.lamports, 'lamports'), u64(BigInt(p.space), 'space'), key(p.owner, 'owner')]),
  }
}

/** SPL Token `InitializeMint2` (20): `mint` with `decimals`, its mint authority, and no freeze authority. */
export function initializeMint2(p: { mint: string; decimals: number; mintAuthority: string }): Instruction {
  return {
    programId: TOKEN_PROGRAM,
    accounts: [{ address: p.mint, signer: false, writable: true }],
    data: concat([Uint8Array.of(20, p.decimals), key(p.mintAuthority, 'mintAuthority'), Uint8Array.of(0)]),
  }
}

/**
 * A legacy message paying with `feePayer`: the accounts deduplicated (roles merged) and ordered
 * writable signers (fee payer first), read-only signers, writable, read-only; the blockhash
 * zeroes when absent (sol_send_transaction sets a fresh one).
 */
export function compileLegacyMessage(feePayer: string, instructions: Instruction[], blockhash?: string): Uint8Array {
  const roles = new Map<string, { signer: boolean; writable: boolean }>([[feePayer, { signer: true, writable: true }]])
  const note = (address: string, signer: boolean, writable: boolean) => {
    const r = roles.get(address) ?? { signer: false, writable: false }
    roles.set(address, { signer: r.signer || signer, writable: r.writable || writable })
  }
  for (const ix of instructions) {
    for (const a of ix.accounts) note(a.address, a.signer, a.writable)
    note(ix.programId, false, false)
  }
  const all = [...roles.entries()]
  const group = (signer: boolean, writable: boolean) =>
    all.filter(([, r]) => r.signer === signer && r.writable === writable).map(([a]) => a)
  const ordered = [...group(true, true), ...group(true, false), ...group(false, true), ...group(false, false)]
  const index = new Map(ordered.map((a, i) => [a, i]))
  const hash = blockhash === undefined ? new Uint8Array(32) : key(blockhash, 'blockhash')
  const signers = group(true, true).length + group(true, false).length
  return concat([
    Uint8Array.of(signers, group(true, false).length, group(false, false).length),
    encodeCompactU16(ordered.length),
    ...ordered.map((a) => key(a, 'account')),
    hash,
    encodeCompactU16(instructions.length),
    ...instructions.flatMap((ix) => [
      Uint8Array.of(index.get(ix.programId) as number),
      encodeCompactU16(ix.accounts.length),
      Uint8Array.from(ix.accounts.map((a) => index.get(a.address) as number)),
      encodeCompactU16(ix.data.length),
      ix.data,
    ]),
  ])
}

/** A transaction of `message` with its signatures in signer order (zeroes for a missing one). */
export function transactionBytes(message: Uint8Array, signatures: Array<Uint8Array | undefined>): Uint8Array {
  const count = message[0] ?? 0
  if (signatures.length > count) throw new RangeError('more signatures than the message requires')
  return concat([encodeCompactU16(count), ...Array.from({ length: count }, (_, i) => signatures[i] ?? new Uint8Array(64)), message])
}

/** The signer addresses of a legacy message compiled by {@link compileLegacyMessage}, in signature order. */
export function messageSigners(message: Uint8Array): string[] {
  const count = message[0] ?? 0
  // Fewer than 128 keys: the compact-u16 key count is one byte.
  return Array.from({ length: count }, (_, i) => base58.encode(message.subarray(4 + 32 * i, 4 + 32 * (i + 1))))
}

/** The SPL transfer a send makes: the recipient's token account created first when `createRecipientAccount`. */
export function splTransferMessage(p: {
  from: string
  to: string
  mint: string
  decimals: number
  amount: bigint
  createRecipientAccount: boolean
  blockhash?: string
}): Uint8Array {
  const destination = associatedTokenAddress(p.to, p.mint)
  const transfer = transferChecked({
    source: associatedTokenAddress(p.from, p.mint),
    mint: p.mint,
    destination,
    authority: p.from,
    amount: p.amount,
    decimals: p.decimals,
  })
  const instructions = p.createRecipientAccount
    ? [createAssociatedTokenIdempotent({ payer: p.from, owner: p.to, mint: p.mint }), transfer]
    : [transfer]
  return compileLegacyMessage(p.from, instructions, p.blockhash)
}

/** An SPL Token account as its program lays it out (the first 165 bytes; Token-2022 extensions follow). */
export type TokenAccountState = {
  mint: string
  owner: string
  amount: bigint
  delegate: string | null
  state: 'uninitialized' | 'initialized' | 'frozen'
  /** The rent-exempt reserve of a wrapped-SOL account; null for any other. */
  isNative: bigint | null
  delegatedAmount: bigint
  closeAuthority: string | null
}

/** An SPL Token mint as its program lays it out. */
export type MintState = {
  mintAuthority: string | null
  supply: bigint
  decimals: number
  isInitialized: boolean
  freezeAuthority: string | null
}

const u64At = (d: Uint8Array, at: number) => new DataView(d.buffer, d.byteOffset + at, 8).getBigUint64(0, true)
const optionAt = (d: Uint8Array, at: number, size: number) =>
  new DataView(d.buffer, d.byteOffset + at, 4).getUint32(0, true) === 1 ? d.subarray(at + 4, at + 4 + size) : null
const keyAt = (d: Uint8Array, at: number) => base58.encode(d.subarray(at, at + 32))

/** The token account in `data`, or null when the bytes are not an initialized one (a mint, a Token-2022 mint, too short). */
export function decodeTokenAccount(data: Uint8Array): TokenAccountState | null {
  if (data.length < TOKEN_ACCOUNT_SIZE) return null
  // Token-2022 marks extended accounts with their type after the base layout: 2 is an account.
  if (data.length > TOKEN_ACCOUNT_SIZE && data[TOKEN_ACCOUNT_SIZE] !== 2) return null
  const state = data[108]
  if (state !== 1 && state !== 2) return null
  const delegate = optionAt(data, 72, 32)
  const native = optionAt(data, 109, 8)
  const close = optionAt(data, 129, 32)
  return {
    mint: keyAt(data, 0),
    owner: keyAt(data, 32),
    amount: u64At(data, 64),
    delegate: delegate ? base58.encode(delegate) : null,
    state: state === 1 ? 'initialized' : 'frozen',
    isNative: native ? u64At(native, 0) : null,
    delegatedAmount: u64At(data, 121),
    closeAuthority: close ? base58.encode(close) : null,
  }
}

/** The mint in `data`, or null when the bytes are not an initialized mint. */
export function decodeMint(data: Uint8Array): MintState | null {
  if (data.length < MINT_SIZE || data[45] !== 1) return null
  // A longer mint is a Token-2022 one with extensions, marked 1 (mint) after the account layout.
  if (data.length > MINT_SIZE && data[TOKEN_ACCOUNT_SIZE] !== 1) return null
  const authority = optionAt(data, 0, 32)
  const freeze = optionAt(data, 46, 32)
  return {
    mintAuthority: authority ? base58.encode(authority) : null,
    supply: u64At(data, 36),
    decimals: data[44] as number,
    isInitialized: true,
    freezeAuthority: freeze ? base58.encode(freeze) : null,
  }
}
