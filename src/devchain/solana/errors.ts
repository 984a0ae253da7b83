/**
 * LiteSVM's transaction errors in the JSON form Solana's RPC uses (`TransactionError` as serde
 * serializes it): a bare string for a fieldless variant, `{ InstructionError: [index, err] }`
 * for an instruction's error, and so on. The name tables follow LiteSVM's enums in order.
 */
import type { FailedTransactionMetadata } from 'litesvm'

const TRANSACTION_ERRORS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
] as const

const INSTRUCTION_ERRORS = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
  'AccountAlreadyInitialized',
  'UninitializedAccount',
  'UnbalancedInstruction',
  'ModifiedProgramId',
  'ExternalAccountLamportSpend',
  'ExternalAccountDataModified',
  'ReadonlyLamportChange',
  'ReadonlyDataModified',
  'DuplicateAccountIndex',
  'ExecutableModified',
  'RentEpochModified',
  'NotEnoughAccountKeys',
  'AccountDataSizeChanged',
  'AccountNotExecutable',
  'AccountBorrowFailed',
  'AccountBorrowOutstanding',
  'DuplicateAccountOutOfSync',
  'InvalidError',
  'ExecutableDataModified',
  'ExecutableLamportChange',
  'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId',
  'CallDepth',
  'MissingAccount',
  'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded',
  'InvalidSeeds',
  'InvalidRealloc',
  'ComputationalBudgetExceeded',
  'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure',
  'ProgramFailedToComplete',
  'ProgramFailedToCompile',
  'Immutable',
  'IncorrectAuthority',
  'AccountNotRentExempt',
  'InvalidAccountOwner',
  'ArithmeticOverflow',
  'UnsupportedSysvar',
  'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits',
  'BorshIoError',
] as const

/** A transaction error as Solana's JSON-RPC shows it in `meta.err` and `getSignatureStatuses`. */
export type TransactionErrorJson = string | Record<string, unknown>

export function transactionErrorJson(failed: FailedTransactionMetadata): TransactionErrorJson {
  const err: unknown = failed.err()
  if (typeof err === 'number') return TRANSACTION_ERRORS[err] ?? `TransactionError(${err})`
  if (err && typeof err === 'object') {
    const e = err as { index?: number; accountIndex?: number; err?: () => unknown }
    const name = err.constructor.name
    if (name === 'TransactionErrorInstructionError' && typeof e.err === 'function')
      return { InstructionError: [e.index, instructionErrorJson(e.err())] }
    if (name === 'TransactionErrorDuplicateInstruction') return { DuplicateInstruction: e.index }
    if (name === 'TransactionErrorInsufficientFundsForRent') return { InsufficientFundsForRent: { account_index: e.accountIndex } }
    if (name === 'TransactionErrorProgramExecutionTemporarilyRestricted') {
      return { ProgramExecutionTemporarilyRestricted: { account_index: e.accountIndex } }
    }
  }
  return String(err)
}

function instructionErrorJson(err: unknown): TransactionErrorJson {
  if (typeof err === 'number') return INSTRUCTION_ERRORS[err] ?? `InstructionError(${err})`
  if (err && typeof err === 'object') {
    if ('code' in err && typeof err.code === 'number') return { Custom: err.code }
    if ('msg' in err && typeof err.msg === 'string') return { BorshIoError: err.msg }
  }
  return String(err)
}

/** The one-line text the real RPC puts in a preflight failure's message. */
export function describeTransactionError(err: TransactionErrorJson): string {
  if (typeof err === 'string') return err
  const ie = err.InstructionError
  if (Array.isArray(ie)) {
    const [index, inner] = ie as [number, TransactionErrorJson]
    const what =
      typeof inner === 'string'
        ? inner
        : 'Custom' in inner
          ? `custom program error: 0x${Number(inner.Custom).toString(16)}`
          : JSON.stringify(inner)
    return `Error processing Instruction ${index}: ${what}`
  }
  return JSON.stringify(err)
}
