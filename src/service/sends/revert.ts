/**
 * EVM revert data as the hosted service describes it (get_send_transaction_status `error`):
 * `Error(string)` and `Panic(uint256)` natively, other selectors as `unknown` (custom errors
 * decode once the organization's smart-contract interfaces are consulted).
 */
import { decodeError } from 'micro-eth-signer/abi.js'

export type RevertChainEntry = {
  address?: string
  errorType: 'native' | 'custom' | 'unknown'
  displayMessage: string
  native?: { nativeType: 'error_string' | 'panic' | 'execution_reverted'; message?: string; panicCode?: string }
  custom?: { errorName: string; paramsJson: string }
  unknown?: { selector?: string; data?: string }
}

export type EthTxError = { message: string; revertChain: RevertChainEntry[]; eth: { revertChain: RevertChainEntry[] } }

/** The revert data a node put in a JSON-RPC error (`error.data` hex, or Hardhat's `{data}`), if any. */
export function revertDataOf(rpcData: unknown): string | undefined {
  if (typeof rpcData === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(rpcData)) return rpcData
  if (rpcData && typeof rpcData === 'object' && 'data' in rpcData) return revertDataOf((rpcData as { data: unknown }).data)
  return undefined
}

/** One revert, decoded. */
export function revertEntry(address: string | undefined, data: string | undefined): RevertChainEntry {
  const at = address ? { address } : {}
  if (!data || data === '0x') {
    return {
      ...at,
      errorType: 'native',
      displayMessage: 'execution reverted',
      native: { nativeType: 'execution_reverted', message: 'execution reverted' },
    }
  }
  let decoded: ReturnType<typeof decodeError>
  try {
    decoded = decodeError(data)
  } catch {
    decoded = undefined
  }
  if (decoded?.name === 'Error') {
    const message = String(decoded.args)
    return { ...at, errorType: 'native', displayMessage: `execution reverted: ${message}`, native: { nativeType: 'error_string', message } }
  }
  if (decoded?.name === 'Panic') {
    const panicCode = `0x${BigInt(decoded.args as bigint).toString(16)}`
    return {
      ...at,
      errorType: 'native',
      displayMessage: decoded.message,
      native: { nativeType: 'panic', message: decoded.message, panicCode },
    }
  }
  const selector = data.slice(0, 10)
  return { ...at, errorType: 'unknown', displayMessage: `execution reverted with unknown error ${selector}`, unknown: { selector, data } }
}

/** The `error` of a reverted send. */
export function revertError(address: string | undefined, data: string | undefined, when: 'simulation' | 'execution'): EthTxError {
  const entry = revertEntry(address, data)
  const chain = [entry]
  return {
    message: `${when === 'simulation' ? 'transaction would revert' : 'transaction reverted'}: ${entry.displayMessage}`,
    revertChain: chain,
    eth: { revertChain: chain },
  }
}
