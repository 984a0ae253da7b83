/**
 * The Solana dev runtime: a real SVM (LiteSVM) with the bookkeeping a JSON-RPC node keeps around
 * it — slots, the signature history with each transaction's outcome, fees and balances — so the
 * standard RPC methods can be answered. Development only: one process, instant finality, one
 * leader, blockhashes that stay valid until the runtime restarts.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { base58 } from '@scure/base'
import { type Address, type Lamports, type Transaction, getCompiledTransactionMessageDecoder, getTransactionDecoder } from '@solana/kit'
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from 'litesvm'
import { DEV_SOLANA_GENESIS_HASH } from '../../chains/networks.js'
import { type TransactionErrorJson, transactionErrorJson } from './errors.js'

/** Lamports per signature: LiteSVM's default fee rate, the same as Solana's clusters. */
export const LAMPORTS_PER_SIGNATURE = 5000n

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
  unitsConsumed: number
  version: 'legacy' | 0
}

export type Outcome = { err: TransactionErrorJson | null; logs: string[]; unitsConsumed: number }

export class SolanaDevRuntime {
  readonly genesisHash = DEV_SOLANA_GENESIS_HASH
  readonly #svm: LiteSVM
  readonly #history = new Map<string, TransactionRecord>()
  #slot: bigint

  constructor(svm?: LiteSVM) {
    this.#svm = svm ?? new LiteSVM()
    this.#slot = svm ? this.#svm.getClock().slot : 1n
    if (!svm) this.#svm.warpToSlot(this.#slot)
  }

  /** Restores a runtime saved with {@link save}, or makes a fresh one when `file` does not exist. */
  static open(file: string | undefined): SolanaDevRuntime {
    if (!file || !existsSync(file)) return new SolanaDevRuntime()
    const saved = JSON.parse(readFileSync(file, 'utf8')) as {
      svm: string
      history: Array<Omit<TransactionRecord, 'wire'> & { wire?: string }>
    }
    const runtime = new SolanaDevRuntime(LiteSVM.fromBytes(Buffer.from(saved.svm, 'base64')))
    for (const r of saved.history)
      runtime.#history.set(r.signature, { ...r, ...(r.wire ? { wire: Buffer.from(r.wire, 'base64') } : {}) } as TransactionRecord)
    return runtime
  }

  /** Writes the whole state (accounts and history) to `file`, atomically. */
  save(file: string): void {
    const history = [...this.#history.values()].map((r) => ({ ...r, ...(r.wire ? { wire: Buffer.from(r.wire).toString('base64') } : {}) }))
    writeFileSync(`${file}.tmp`, JSON.stringify({ svm: Buffer.from(this.#svm.toBytes()).toString('base64'), history }), { mode: 0o600 })
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

  balance(address: Address): bigint {
    return BigInt(this.#svm.getBalance(address) ?? 0n)
  }

  account(address: Address) {
    const a = this.#svm.getAccount(address)
    return a.exists ? a : null
  }

  /** Every account owned by `program`, with its address. */
  programAccounts(program: Address) {
    return this.#svm.getProgramAccounts(program)
  }

  rentExemptMinimum(space: number): bigint {
    return this.#svm.minimumBalanceForRentExemption(BigInt(space))
  }

  /** The fee of a message: its required signatures at the fixed rate. Throws on bytes that are no message. */
  feeForMessage(messageBytes: Uint8Array): bigint {
    const message = getCompiledTransactionMessageDecoder().decode(messageBytes)
    return BigInt(message.header.numSignerAccounts) * LAMPORTS_PER_SIGNATURE
  }

  /** Mints `lamports` to `address` (the runtime's own faucet); returns the airdrop's signature. */
  airdrop(address: Address, lamports: bigint): string {
    const pre = this.balance(address)
    const result = this.#svm.airdrop(address, lamports as Lamports)
    if (!result || result instanceof FailedTransactionMetadata) {
      throw new Error(`airdrop failed: ${result ? JSON.stringify(transactionErrorJson(result)) : 'no result'}`)
    }
    return this.#record(
      result,
      undefined,
      { err: null, logs: result.logs(), unitsConsumed: 0 },
      [pre],
      [this.balance(address)],
      0n,
      'legacy',
    ).signature
  }

  /** Decodes wire bytes into a transaction; throws on bytes that are not one. */
  static decode(wire: Uint8Array): Transaction {
    return getTransactionDecoder().decode(wire)
  }

  /** Runs the transaction without committing anything. */
  simulate(tx: Transaction): Outcome {
    const r = this.#svm.simulateTransaction(tx)
    if (r instanceof FailedTransactionMetadata) return failedOutcome(r)
    const meta = r.meta()
    return { err: null, logs: meta.logs(), unitsConsumed: Number(meta.computeUnitsConsumed()) }
  }

  /**
   * Processes the transaction in a new slot. Like a validator, a transaction that fails after
   * its fee was taken is recorded (with its error); one that fails before (bad signature, unknown
   * blockhash, no funds for the fee, already processed) is not, and `recorded` is false.
   */
  send(tx: Transaction, wire: Uint8Array): { signature: string; recorded: boolean; outcome: Outcome } {
    const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes)
    const keys = message.staticAccounts
    const pre = keys.map((k) => this.balance(k))
    const r = this.#svm.sendTransaction(tx)
    const signature = base58.encode(Object.values(tx.signatures)[0] ?? new Uint8Array(64))
    const outcome = r instanceof FailedTransactionMetadata ? failedOutcome(r) : successOutcome(r)
    const post = keys.map((k) => this.balance(k))
    const fee = BigInt(message.header.numSignerAccounts) * LAMPORTS_PER_SIGNATURE
    // A failure before execution leaves every balance as it was: the fee was not taken.
    const charged = outcome.err === null || pre.some((b, i) => b !== post[i])
    if (!charged) return { signature, recorded: false, outcome }
    const version = message.version === 'legacy' ? 'legacy' : 0
    this.#record(r instanceof FailedTransactionMetadata ? r.meta() : r, wire, outcome, pre, post, fee, version)
    return { signature, recorded: true, outcome }
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
      unitsConsumed: outcome.unitsConsumed,
      version,
    }
    this.#history.set(signature, record)
    this.#slot += 1n
    this.#svm.warpToSlot(this.#slot)
    return record
  }
}

function successOutcome(r: TransactionMetadata): Outcome {
  return { err: null, logs: r.logs(), unitsConsumed: Number(r.computeUnitsConsumed()) }
}

function failedOutcome(r: FailedTransactionMetadata): Outcome {
  const meta = r.meta()
  return { err: transactionErrorJson(r), logs: meta.logs(), unitsConsumed: Number(meta.computeUnitsConsumed()) }
}
