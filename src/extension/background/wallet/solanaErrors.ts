/**
 * Solana transaction errors in words for the user. The node reports them as Solana's JSON form of
 * `TransactionError` (`"InsufficientFundsForFee"`, `{"InsufficientFundsForRent":{"account_index":1}}`,
 * `{"InstructionError":[0,{"Custom":1}]}`), inside `transactionErrorJson`, inside a preflight
 * message ("Transaction simulation failed: {…}"), or already in words from a real validator; the
 * popup is shown a sentence, never the JSON.
 */

const SYSTEM_PROGRAM = '11111111111111111111111111111111'
const TOKEN_PROGRAMS = new Set(['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb'])

const TRANSACTION_ERRORS: Record<string, string> = {
  InsufficientFundsForFee: 'Not enough SOL to pay the network fee.',
  AccountNotFound: 'The paying account does not exist on this network yet: it holds no SOL to pay the fee.',
  BlockhashNotFound: 'The transaction expired before the network took it (its recent blockhash is too old); send it again.',
  AlreadyProcessed: 'The network has already processed this transaction.',
  InvalidAccountForFee: 'The paying account cannot pay fees (it is not a plain SOL account).',
  InvalidRentPayingAccount: 'An account in this transaction would hold less SOL than its rent exemption.',
  SignatureFailure: 'A signature of the transaction is not valid.',
  MissingSignatureForFee: 'The transaction is not signed by the account paying the fee.',
}

const INSTRUCTION_ERRORS: Record<string, string> = {
  InsufficientFunds: 'Not enough funds to make this transfer.',
  AccountNotRentExempt: 'An account in this transaction would hold less SOL than its rent exemption.',
  MissingRequiredSignature: 'The transaction is missing a signature it needs.',
  AccountAlreadyInitialized: 'The account to create already exists.',
  UninitializedAccount: 'An account the transaction uses does not exist yet.',
  IllegalOwner: 'An account the transaction uses belongs to another program.',
}

/** Custom errors of the System Program (SystemError) and the token programs (TokenError), by code. */
const SYSTEM_CUSTOM: Record<number, string> = {
  0: 'The account to create already exists.',
  1: 'Not enough SOL to make this transfer.',
}
const TOKEN_CUSTOM: Record<number, string> = {
  0: 'The token account would hold less SOL than its rent exemption.',
  1: 'Not enough tokens in the sending account.',
  2: 'The token’s mint is not valid.',
  3: 'The token account is for another token.',
  4: 'The token account belongs to someone else.',
  17: 'The token account is frozen.',
}

/** The program whose failure the logs name last ("Program <id> failed: …"). */
function failedProgram(logs: readonly string[] | undefined): string | undefined {
  for (const line of [...(logs ?? [])].reverse()) {
    const m = /^Program (\w{32,44}) failed/.exec(line)
    if (m) return m[1]
  }
  return undefined
}

function instructionWords(index: unknown, inner: unknown, logs: readonly string[] | undefined): string {
  const where = typeof index === 'number' ? ` (instruction ${index + 1})` : ''
  if (typeof inner === 'string') return INSTRUCTION_ERRORS[inner] ?? `The network refused the transaction: ${inner}${where}.`
  if (inner && typeof inner === 'object' && 'Custom' in inner && typeof inner.Custom === 'number') {
    const code = inner.Custom
    const program = failedProgram(logs)
    const known =
      program === SYSTEM_PROGRAM
        ? SYSTEM_CUSTOM[code]
        : program !== undefined && TOKEN_PROGRAMS.has(program)
          ? TOKEN_CUSTOM[code]
          : // Code 1 is "not enough funds" in both the System Program and the token programs.
            code === 1 && program === undefined
            ? 'Not enough funds to make this transfer.'
            : undefined
    return known ?? `The network refused the transaction: custom program error 0x${code.toString(16)}${where}.`
  }
  const name = inner && typeof inner === 'object' ? Object.keys(inner)[0] : undefined
  return `The network refused the transaction: ${name ?? 'InstructionError'}${where}.`
}

/**
 * A sentence for a Solana `TransactionError` in its JSON form. Account index 0 is the fee payer,
 * which for the wallet's own sends is the sender.
 */
export function solanaErrorWords(err: unknown, logs?: readonly string[]): string {
  if (typeof err === 'string') return TRANSACTION_ERRORS[err] ?? `The network refused the transaction: ${err}.`
  if (err && typeof err === 'object') {
    const e = err as Record<string, unknown>
    if ('InsufficientFundsForRent' in e) {
      const index = (e.InsufficientFundsForRent as { account_index?: unknown } | null)?.account_index
      return index === 0
        ? 'That would leave your account with less SOL than its rent exemption: send less, or send everything.'
        : 'The receiving account would hold less SOL than its rent exemption: a new Solana account needs a minimum balance, so send more.'
    }
    if (Array.isArray(e.InstructionError)) return instructionWords(e.InstructionError[0], e.InstructionError[1], logs)
    const name = Object.keys(e)[0]
    if (name) return `The network refused the transaction: ${name}.`
  }
  return 'The network refused the transaction.'
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/**
 * Words for a failed Solana send from what the node said: the error's JSON when there is one (on
 * its own or at the end of a preflight message), otherwise the node's message when it holds no
 * JSON; undefined when there is nothing to go on.
 */
export function solanaFailureWords(detail: {
  transactionErrorJson?: string | undefined
  rpcMessage?: string | undefined
  logs?: readonly string[] | undefined
}): string | undefined {
  if (detail.transactionErrorJson !== undefined) {
    const parsed = parseJson(detail.transactionErrorJson)
    if (parsed.ok) return solanaErrorWords(parsed.value, detail.logs)
  }
  const message = detail.rpcMessage
  if (message === undefined) return undefined
  const at = message.search(/[{"]/)
  if (at >= 0) {
    const parsed = parseJson(message.slice(at))
    if (parsed.ok) return solanaErrorWords(parsed.value, detail.logs)
  }
  const instruction = /Error processing Instruction (\d+): custom program error: 0x([0-9a-f]+)/i.exec(message)
  if (instruction) return instructionWords(Number(instruction[1]), { Custom: Number.parseInt(instruction[2] ?? '0', 16) }, detail.logs)
  if (/[{}[\]]/.test(message)) return 'The network refused the transaction.'
  return message.replace(/^Transaction simulation failed: /, 'The network refused the transaction: ')
}
