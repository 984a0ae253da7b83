/**
 * The Solana dev runtime: a real SVM (LiteSVM) with the bookkeeping a JSON-RPC node keeps around
 * it — slots, the signature history with each transaction's outcome, fees and balances — so the
 * standard RPC methods can be answered. Development only: one process, instant finality, one
 * leader. As on a validator, every slot has a new blockhash and a transaction's blockhash is
 * valid for {@link MAX_RECENT_BLOCKHASHES} slots (LiteSVM checks only its latest, so the runtime
 * checks the window itself and LiteSVM's own check is off).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { ed25519 } from '@noble/curves/ed25519.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { base58 } from '@scure/base'
import { type Address, type Lamports, type Transaction, getCompiledTransactionMessageDecoder, getTransactionDecoder } from '@solana/kit'
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from 'litesvm'
import { DEV_SOLANA_GENESIS_HASH } from '../../chains/networks.js'
import {
  SYSTEM_PROGRAM,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
  compileLegacyMessage,
  decodeMint,
  decodeTokenAccount,
  transactionBytes,
} from '../../chains/splToken.js'
import { type TransactionErrorJson, transactionErrorJson } from './errors.js'

/** Lamports per signature: LiteSVM's default fee rate, the same as Solana's clusters. */
export const LAMPORTS_PER_SIGNATURE = 5000n

/** How many slots a blockhash stays valid, as on Solana's clusters (`lastValidBlockHeight` = height + this). */
export const MAX_RECENT_BLOCKHASHES = 150

/**
 * The dev faucet's keypair (from a fixed seed: development only). An airdrop is its System transfer
 * to the recipient, signed and recorded as any transaction, as a validator's faucet does; LiteSVM's
 * own airdrop only funds it with what it gives (and the fee) just before.
 */
const FAUCET_SECRET = sha256(new TextEncoder().encode('sigil solana dev faucet v1'))
/** The address airdrops come from. */
export const DEV_FAUCET_ADDRESS = base58.encode(ed25519.getPublicKey(FAUCET_SECRET))

/** A token account's balance before or after a transaction (Solana's pre/postTokenBalances, in base units). */
export type TokenBalanceRecord = { accountIndex: number; mint: string; owner: string; programId: string; amount: string; decimals: number }

/** What the node remembers of a processed transaction. */
export type TransactionRecord = {
  signature: string
  slot: number
  blockTime: number
  /** The wire transaction (absent for airdrops, which the runtime makes itself). */
  wire?: Uint8Array
  err: TransactionErrorJson | null
  logs: string[]
  fee: number
  preBalances: number[]
  postBalances: number[]
  /** The SPL token accounts among its keys (absent in state saved before they were recorded). */
  preTokenBalances?: TokenBalanceRecord[]
  postTokenBalances?: TokenBalanceRecord[]
  unitsConsumed: number
  version: 'legacy' | 0
  /** Every account the transaction names: its static keys (an airdrop recorded by an older runtime: its recipient only). */
  accountKeys?: string[]
}

/** What the runtime tells its listeners (the PubSub server) as it goes. */
export type RuntimeEvents = {
  /** A transaction (or airdrop) was processed and recorded, in `record.slot`. */
  processed(record: TransactionRecord): void
  /** The runtime moved to a new slot. */
  slot(slot: number, parent: number): void
}

export type Outcome = { err: TransactionErrorJson | null; logs: string[]; unitsConsumed: number }

/** An account's state after a simulated transaction. */
export type SimulatedAccount = { lamports: bigint; owner: string; data: Uint8Array; executable: boolean }

export class SolanaDevRuntime {
  readonly genesisHash = DEV_SOLANA_GENESIS_HASH
  readonly #svm: LiteSVM
  readonly #history = new Map<string, TransactionRecord>()
  /** Per address, the positions in {@link #order} of the transactions naming it, oldest first. */
  readonly #byAddress = new Map<string, number[]>()
  /** Every recorded signature in processing order. */
  readonly #order: string[] = []
  readonly #positions = new Map<string, number>()
  readonly #listeners = new Set<Partial<RuntimeEvents>>()
  /** The blockhashes still valid, oldest first; the last is the latest. */
  #recentBlockhashes: string[] = []
  #slot: bigint

  constructor(svm?: LiteSVM) {
    this.#svm = (svm ?? new LiteSVM()).withBlockhashCheck(false)
    this.#slot = svm ? this.#svm.getClock().slot : 1n
    if (!svm) this.#svm.warpToSlot(this.#slot)
    this.#recentBlockhashes = [this.#svm.latestBlockhash()]
  }

  /** Restores a runtime saved with {@link save}, or makes a fresh one when `file` does not exist. */
  static open(file: string | undefined): SolanaDevRuntime {
    if (!file || !existsSync(file)) return new SolanaDevRuntime()
    const saved = JSON.parse(readFileSync(file, 'utf8')) as {
      svm: string
      history: Array<Omit<TransactionRecord, 'wire'> & { wire?: string }>
      recentBlockhashes?: string[]
    }
    const runtime = new SolanaDevRuntime(LiteSVM.fromBytes(Buffer.from(saved.svm, 'base64')))
    // The hashes clients were given before the restart stay valid (state saved before the window: just the latest).
    const latest = runtime.#svm.latestBlockhash()
    runtime.#recentBlockhashes = [...(saved.recentBlockhashes ?? []).filter((h) => h !== latest), latest].slice(-MAX_RECENT_BLOCKHASHES)
    for (const r of saved.history) {
      const wire = r.wire ? Buffer.from(r.wire, 'base64') : undefined
      // State saved before the address index: the keys are read back from the wire transaction.
      const accountKeys = r.accountKeys ?? (wire ? staticAccountsOf(wire) : [])
      runtime.#remember({ ...r, ...(wire ? { wire } : {}), accountKeys } as TransactionRecord)
    }
    return runtime
  }

  /** Writes the whole state (accounts and history) to `file`, atomically. */
  save(file: string): void {
    const history = [...this.#history.values()].map((r) => ({ ...r, ...(r.wire ? { wire: Buffer.from(r.wire).toString('base64') } : {}) }))
    writeFileSync(
      `${file}.tmp`,
      JSON.stringify({ svm: Buffer.from(this.#svm.toBytes()).toString('base64'), history, recentBlockhashes: this.#recentBlockhashes }),
      { mode: 0o600 },
    )
    renameSync(`${file}.tmp`, file)
  }

  get slot(): number {
    return Number(this.#slot)
  }

  /** One block per slot here, so the block height is the slot. */
  get blockHeight(): number {
    return Number(this.#slot)
  }

  get transactionCount(): number {
    return this.#history.size
  }

  latestBlockhash(): string {
    return this.#svm.latestBlockhash()
  }

  /** Whether a transaction with this blockhash would be accepted now (one of the last {@link MAX_RECENT_BLOCKHASHES} slots'). */
  isRecentBlockhash(blockhash: string): boolean {
    return this.#recentBlockhashes.includes(blockhash)
  }

  balance(address: Address): bigint {
    return BigInt(this.#svm.getBalance(address) ?? 0n)
  }

  account(address: Address) {
    const a = this.#svm.getAccount(address)
    return a.exists ? a : null
  }

  /** Every live account owned by `program`, with its address (closed, zero-lamport accounts are not). */
  programAccounts(program: Address) {
    return this.#svm.getProgramAccounts(program).filter((a) => BigInt(a.lamports) > 0n)
  }

  /** Subscribes to the runtime's events; returns the unsubscribe. A throwing listener never stops processing. */
  listen(listener: Partial<RuntimeEvents>): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /**
   * The transactions naming `address`, newest first: at most `limit`, strictly older than
   * `before` and strictly newer than `until` when given (signatures this runtime recorded).
   * Read from the per-address index kept as transactions are processed.
   */
  signaturesFor(address: string, options: { limit: number; before?: string; until?: string }): TransactionRecord[] {
    const positions = this.#byAddress.get(address) ?? []
    const position = (signature: string) => this.#positions.get(signature) ?? -1
    const below = options.before === undefined ? Number.POSITIVE_INFINITY : position(options.before)
    const above = options.until === undefined ? -1 : position(options.until)
    const out: TransactionRecord[] = []
    // positions is ascending: start at the last one below `before` and walk back to `until`.
    let i = upperBound(positions, below) - 1
    for (; i >= 0 && out.length < options.limit && (positions[i] as number) > above; i--) {
      const record = this.#history.get(this.#order[positions[i] as number] as string)
      if (record) out.push(record)
    }
    return out
  }

  /** Whether `signature` is one this runtime recorded. */
  knows(signature: string): boolean {
    return this.#history.has(signature)
  }

  rentExemptMinimum(space: number): bigint {
    return this.#svm.minimumBalanceForRentExemption(BigInt(space))
  }

  /** The fee of a message: its required signatures at the fixed rate. Throws on bytes that are no message. */
  feeForMessage(messageBytes: Uint8Array): bigint {
    const message = getCompiledTransactionMessageDecoder().decode(messageBytes)
    return BigInt(message.header.numSignerAccounts) * LAMPORTS_PER_SIGNATURE
  }

  /**
   * Gives `lamports` to `address` from the dev faucet ({@link DEV_FAUCET_ADDRESS}) in a System
   * transfer recorded as any transaction (the faucet pays its fee); returns its signature.
   */
  airdrop(address: Address, lamports: bigint): string {
    const funded = this.#svm.airdrop(DEV_FAUCET_ADDRESS as Address, (lamports + LAMPORTS_PER_SIGNATURE) as Lamports)
    if (!funded || funded instanceof FailedTransactionMetadata) {
      throw new Error(`airdrop failed: ${funded ? JSON.stringify(transactionErrorJson(funded)) : 'no result'}`)
    }
    const data = new Uint8Array(12)
    const view = new DataView(data.buffer)
    view.setUint32(0, 2, true) // System Transfer
    view.setBigUint64(4, lamports, true)
    const message = compileLegacyMessage(
      DEV_FAUCET_ADDRESS,
      [
        {
          programId: SYSTEM_PROGRAM,
          accounts: [
            { address: DEV_FAUCET_ADDRESS, signer: true, writable: true },
            { address, signer: false, writable: true },
          ],
          data,
        },
      ],
      this.latestBlockhash(),
    )
    const wire = transactionBytes(message, [ed25519.sign(message, FAUCET_SECRET)])
    const sent = this.send(SolanaDevRuntime.decode(wire), wire)
    if (!sent.recorded || sent.outcome.err !== null) throw new Error(`airdrop failed: ${JSON.stringify(sent.outcome.err)}`)
    return sent.signature
  }

  /** Decodes wire bytes into a transaction; throws on bytes that are not one. */
  static decode(wire: Uint8Array): Transaction {
    return getTransactionDecoder().decode(wire)
  }

  /**
   * Runs the transaction without committing anything; `replaceRecentBlockhash` runs it whatever its
   * blockhash. `accounts`: addresses whose state after the transaction is returned in that order
   * (as a validator's simulateTransaction does) — an address the transaction does not touch keeps
   * its current state, one that does not exist (or was closed) is null; none after a failure.
   * Signatures are checked unless `sigVerify` is false.
   */
  simulate(
    tx: Transaction,
    options: {
      replaceRecentBlockhash?: boolean | undefined
      accounts?: readonly string[] | undefined
      /** False: run it unsigned, as a wallet simulates what it is asked to sign (a validator's default for simulateTransaction). */
      sigVerify?: boolean | undefined
    } = {},
  ): Outcome & { accounts?: Array<SimulatedAccount | null> } {
    if (!options.replaceRecentBlockhash && !this.#blockhashOk(tx)) return BLOCKHASH_NOT_FOUND
    // A missing (all-zero) signature fails verification as a validator's would, not as an exception.
    if (options.sigVerify !== false && Object.values(tx.signatures).some((sig) => sig === null)) return SIGNATURE_FAILURE
    let r: ReturnType<LiteSVM['simulateTransaction']>
    if (options.sigVerify === false) {
      // The setting is the instance's: off for this one synchronous call only.
      this.#svm.withSigverify(false)
      try {
        r = this.#svm.simulateTransaction(tx)
      } finally {
        this.#svm.withSigverify(true)
      }
    } else r = this.#svm.simulateTransaction(tx)
    if (r instanceof FailedTransactionMetadata) return failedOutcome(r)
    const meta = r.meta()
    const outcome = { err: null, logs: meta.logs(), unitsConsumed: Number(meta.computeUnitsConsumed()) }
    if (!options.accounts) return outcome
    const post = new Map(r.postAccounts().map((a) => [a.address as string, a]))
    const accounts = options.accounts.map((address): SimulatedAccount | null => {
      const a = post.get(address) ?? this.account(address as Address)
      if (!a || BigInt(a.lamports) === 0n) return null
      return { lamports: BigInt(a.lamports), owner: a.programAddress, data: Uint8Array.from(a.data), executable: a.executable }
    })
    return { ...outcome, accounts }
  }

  /**
   * Processes the transaction in a new slot. Like a validator, a transaction that fails after
   * its fee was taken is recorded (with its error); one that fails before (bad signature, unknown
   * blockhash, no funds for the fee, already processed) is not, and `recorded` is false.
   */
  send(tx: Transaction, wire: Uint8Array): { signature: string; recorded: boolean; outcome: Outcome } {
    const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes)
    const signature = base58.encode(Object.values(tx.signatures)[0] ?? new Uint8Array(64))
    if (!this.#history.has(signature) && !this.isRecentBlockhash(message.lifetimeToken)) {
      return { signature, recorded: false, outcome: BLOCKHASH_NOT_FOUND }
    }
    const keys = message.staticAccounts
    const pre = keys.map((k) => this.balance(k))
    const preTokens = this.#tokenBalances(keys)
    const r = this.#svm.sendTransaction(tx)
    const outcome = r instanceof FailedTransactionMetadata ? failedOutcome(r) : successOutcome(r)
    const post = keys.map((k) => this.balance(k))
    const postTokens = this.#tokenBalances(keys)
    const fee = BigInt(message.header.numSignerAccounts) * LAMPORTS_PER_SIGNATURE
    // A failure before execution leaves every balance as it was: the fee was not taken.
    const charged = outcome.err === null || pre.some((b, i) => b !== post[i])
    if (!charged) return { signature, recorded: false, outcome }
    const version = message.version === 'legacy' ? 'legacy' : 0
    this.#record(r instanceof FailedTransactionMetadata ? r.meta() : r, wire, outcome, pre, post, fee, version, keys, [
      preTokens,
      postTokens,
    ])
    return { signature, recorded: true, outcome }
  }

  /** The SPL token accounts among `keys` as they are now, with their mints' decimals. */
  #tokenBalances(keys: readonly string[]): TokenBalanceRecord[] {
    const out: TokenBalanceRecord[] = []
    keys.forEach((key, accountIndex) => {
      const a = this.account(key as Address)
      if (!a || (a.programAddress !== TOKEN_PROGRAM && a.programAddress !== TOKEN_2022_PROGRAM)) return
      const token = decodeTokenAccount(Uint8Array.from(a.data))
      const mintAccount = token ? this.account(token.mint as Address) : null
      const mint = mintAccount ? decodeMint(Uint8Array.from(mintAccount.data)) : null
      if (!token || !mint) return
      out.push({
        accountIndex,
        mint: token.mint,
        owner: token.owner,
        programId: a.programAddress,
        amount: token.amount.toString(),
        decimals: mint.decimals,
      })
    })
    return out
  }

  status(signature: string): TransactionRecord | undefined {
    return this.#history.get(signature)
  }

  #record(
    meta: TransactionMetadata,
    wire: Uint8Array | undefined,
    outcome: Outcome,
    pre: bigint[],
    post: bigint[],
    fee: bigint,
    version: 'legacy' | 0,
    accountKeys: readonly string[],
    tokens: [TokenBalanceRecord[], TokenBalanceRecord[]] = [[], []],
  ): TransactionRecord {
    const signature = base58.encode(meta.signature())
    const record: TransactionRecord = {
      signature,
      slot: Number(this.#slot),
      blockTime: Math.floor(Date.now() / 1000),
      ...(wire ? { wire } : {}),
      err: outcome.err,
      logs: outcome.logs,
      fee: Number(fee),
      preBalances: pre.map(Number),
      postBalances: post.map(Number),
      preTokenBalances: tokens[0],
      postTokenBalances: tokens[1],
      unitsConsumed: outcome.unitsConsumed,
      version,
      accountKeys: [...accountKeys],
    }
    this.#remember(record)
    this.#slot += 1n
    this.#svm.warpToSlot(this.#slot)
    // A new slot, a new blockhash; the oldest drops out of the window.
    this.#svm.expireBlockhash()
    this.#recentBlockhashes = [...this.#recentBlockhashes, this.#svm.latestBlockhash()].slice(-MAX_RECENT_BLOCKHASHES)
    this.#emit('processed', record)
    this.#emit('slot', Number(this.#slot), Number(this.#slot) - 1)
    return record
  }

  /** Adds a record to the history and to the per-address index. */
  #remember(record: TransactionRecord) {
    if (this.#history.has(record.signature)) return
    const position = this.#order.length
    this.#order.push(record.signature)
    this.#history.set(record.signature, record)
    this.#positions.set(record.signature, position)
    for (const key of new Set(record.accountKeys ?? [])) {
      const list = this.#byAddress.get(key)
      if (list) list.push(position)
      else this.#byAddress.set(key, [position])
    }
  }

  /** Whether `tx`'s blockhash is in the window (bytes that are no message are left to LiteSVM to refuse). */
  #blockhashOk(tx: Transaction): boolean {
    try {
      return this.isRecentBlockhash(getCompiledTransactionMessageDecoder().decode(tx.messageBytes).lifetimeToken)
    } catch {
      return true
    }
  }

  #emit<E extends keyof RuntimeEvents>(event: E, ...args: Parameters<RuntimeEvents[E]>) {
    for (const l of this.#listeners) {
      try {
        ;(l[event] as ((...a: Parameters<RuntimeEvents[E]>) => void) | undefined)?.(...args)
      } catch {
        // A listener's failure (a closed socket) is the listener's; the transaction stands.
      }
    }
  }
}

/** What a validator answers for a transaction whose blockhash is unknown or too old. */
const BLOCKHASH_NOT_FOUND: Outcome = { err: 'BlockhashNotFound', logs: [], unitsConsumed: 0 }
const SIGNATURE_FAILURE: Outcome = { err: 'SignatureFailure', logs: [], unitsConsumed: 0 }

function staticAccountsOf(wire: Uint8Array): string[] {
  try {
    return [...getCompiledTransactionMessageDecoder().decode(getTransactionDecoder().decode(wire).messageBytes).staticAccounts]
  } catch {
    return []
  }
}

/** The number of entries of the ascending `list` that are below `value`. */
function upperBound(list: number[], value: number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((list[mid] as number) < value) lo = mid + 1
    else hi = mid
  }
  return lo
}

function successOutcome(r: TransactionMetadata): Outcome {
  return { err: null, logs: r.logs(), unitsConsumed: Number(r.computeUnitsConsumed()) }
}

function failedOutcome(r: FailedTransactionMetadata): Outcome {
  const meta = r.meta()
  return { err: transactionErrorJson(r), logs: meta.logs(), unitsConsumed: Number(meta.computeUnitsConsumed()) }
}
