/**
 * EVM revert data as the hosted service describes it (get_send_transaction_status `error`):
 * `Error(string)` and `Panic(uint256)` natively; a custom error when one of the organization's
 * smart-contract interfaces (Ethereum ABIs) declares its selector, the reverting contract's own
 * interfaces tried first; other selectors as `unknown`.
 */
import { decodeError } from 'micro-eth-signer/abi.js'
import { type AbiItem, type AbiParameter, isAbiError } from './contractInterfaces.js'
import { bytesToHex } from '../crypto/encoding.js'

export type RevertChainEntry = {
  address?: string
  errorType: 'native' | 'custom' | 'unknown'
  displayMessage: string
  native?: { nativeType: 'error_string' | 'panic' | 'execution_reverted'; message?: string; panicCode?: string }
  custom?: { errorName: string; paramsJson: string }
  unknown?: { selector?: string; data?: string }
}

export type EthTxError = { message: string; revertChain: RevertChainEntry[]; eth: { revertChain: RevertChainEntry[] } }

/**
 * The organization's ABIs (JSON texts) that declare the custom error `selector` (8 hex digits, no
 * 0x), those registered for `address` (the reverting contract) first. The sends tracker reads them
 * from the store (`abisDeclaringError`).
 */
export type CustomErrorAbis = (selector: string, address: string | undefined) => Promise<readonly string[]>

const ERROR_STRING = '08c379a0'
const PANIC = '4e487b71'

/** The revert data a node put in a JSON-RPC error (`error.data` hex, or Hardhat's `{data}`), if any. */
export function revertDataOf(rpcData: unknown): string | undefined {
  if (typeof rpcData === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(rpcData)) return rpcData
  if (rpcData && typeof rpcData === 'object' && 'data' in rpcData) return revertDataOf((rpcData as { data: unknown }).data)
  return undefined
}

/** The selector of revert data that may be a custom error (not Error(string) nor Panic(uint256)), lower-case hex without 0x. */
export function customSelectorOf(data: string | undefined): string | undefined {
  if (!data || data.length < 10) return undefined
  const selector = data.slice(2, 10).toLowerCase()
  return selector === ERROR_STRING || selector === PANIC ? undefined : selector
}

/** A decoded value as JSON: integers as decimal strings, bytes as 0x-hex. */
function jsonValue(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof Uint8Array) return `0x${bytesToHex(value)}`
  return value
}

/** One decoded argument as `displayMessage` shows it: strings quoted, numbers in decimal, the rest as JSON. */
function shown(param: AbiParameter, value: unknown): string {
  if (param.type === 'string') return JSON.stringify(value)
  if (typeof value === 'bigint' || typeof value === 'boolean') return value.toString()
  if (typeof value === 'string') return value
  if (value instanceof Uint8Array) return `0x${bytesToHex(value)}`
  return JSON.stringify(value, jsonValue)
}

/**
 * The arguments of a custom error as one object, each under its parameter's name (its index when
 * unnamed). The coder gives a single argument bare, several as an array or (all named) an object.
 */
function argumentsByName(inputs: readonly AbiParameter[], args: unknown): Array<[string, AbiParameter, unknown]> {
  if (inputs.length === 1) return [[inputs[0]?.name || '0', inputs[0] as AbiParameter, args]]
  return inputs.map((p, i) => {
    const value = Array.isArray(args) ? args[i] : (args as Record<string, unknown>)[p.name as string]
    return [p.name || String(i), p, value]
  })
}

/** `data` decoded as a custom error of `abi`, if the ABI declares one with its selector and the arguments decode. */
function customError(data: string, abi: readonly AbiItem[]): { errorName: string; paramsJson: string; displayMessage: string } | undefined {
  for (const item of abi) {
    if (!isAbiError(item)) continue
    let decoded: ReturnType<typeof decodeError>
    try {
      decoded = decodeError(data, [item])
    } catch {
      // the selector matches but the arguments do not decode (another error with the same selector)
      continue
    }
    if (!decoded) continue
    const args = argumentsByName(item.inputs ?? [], decoded.args)
    const params = Object.fromEntries(args.map(([name, , value]) => [name, value]))
    return {
      errorName: item.name,
      paramsJson: JSON.stringify(params, jsonValue),
      displayMessage: `${item.name}(${args.map(([, p, value]) => shown(p, value)).join(', ')})`,
    }
  }
  return undefined
}

/** One revert, decoded; `abis` are the ABIs to decode a custom error with, in order of preference. */
export function revertEntry(
  address: string | undefined,
  data: string | undefined,
  abis: readonly (readonly AbiItem[])[] = [],
): RevertChainEntry {
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
  if (customSelectorOf(data) !== undefined) {
    for (const abi of abis) {
      const custom = customError(data, abi)
      if (custom) {
        const { displayMessage, ...rest } = custom
        return { ...at, errorType: 'custom', displayMessage, custom: rest }
      }
    }
  }
  const selector = data.slice(0, 10)
  return { ...at, errorType: 'unknown', displayMessage: `execution reverted with unknown error ${selector}`, unknown: { selector, data } }
}

/** The `error` of a reverted send. */
export function revertError(
  address: string | undefined,
  data: string | undefined,
  when: 'simulation' | 'execution',
  abis: readonly (readonly AbiItem[])[] = [],
): EthTxError {
  const entry = revertEntry(address, data, abis)
  const chain = [entry]
  return {
    message: `${when === 'simulation' ? 'transaction would revert' : 'transaction reverted'}: ${entry.displayMessage}`,
    revertChain: chain,
    eth: { revertChain: chain },
  }
}

/**
 * The `error` of a reverted send, a custom error decoded with the ABIs `customErrors` finds for its
 * selector (read only when the revert is neither Error(string) nor Panic nor empty).
 */
export async function describeRevert(
  address: string | undefined,
  data: string | undefined,
  when: 'simulation' | 'execution',
  customErrors: CustomErrorAbis | undefined,
): Promise<EthTxError> {
  const selector = customSelectorOf(data)
  const abis: AbiItem[][] = []
  if (selector !== undefined && customErrors) {
    for (const json of await customErrors(selector, address)) {
      try {
        const abi: unknown = JSON.parse(json)
        if (Array.isArray(abi)) abis.push(abi as AbiItem[])
      } catch {
        // stored interfaces were checked when created; one that does not parse is skipped
      }
    }
  }
  return revertError(address, data, when, abis)
}
