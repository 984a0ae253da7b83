/**
 * The EVM dev chain: anvil (Foundry's local node, from the registry package `@foundry-rs/anvil`
 * and its platform binary), a real node serving standard JSON-RPC. chainId 31337, automine, the
 * well-known test mnemonic's first ten accounts funded with 10,000 ETH each (the same accounts
 * Hardhat's node funds). Prague rules (EIP-7702 delegations), with the Gas Station delegate
 * (SigilBatchExecutor) deployed at {@link DEV_GAS_STATION} by account #9's first transaction.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { BATCH_EXECUTOR_CREATION_CODE, BATCH_EXECUTOR_RUNTIME_CODE } from '../chains/gasStation/artifact.js'
import { DEV_GAS_STATION, DEV_GAS_STATION_DEPLOYER } from '../chains/gasStation/dev.js'
import { jsonRpcRequest } from '../chains/jsonRpc.js'
import { DEV_EVM_CHAIN_ID } from '../chains/networks.js'

/** The well-known development mnemonic (Hardhat and anvil): never hold real value with it. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk'
/** Account #0 of {@link DEV_MNEMONIC}: the faucet's source on the dev EVM chain. */
export const DEV_FUNDER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

export type EvmNodeOptions = { host?: string; port?: number; chainId?: number; stateFile?: string | undefined }
export type RunningEvmNode = { url: string; port: number; chainId: number; close(): Promise<void> }

const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
  'win32-x64': '@foundry-rs/anvil-win32-amd64',
}

/** The anvil binary shipped by the platform package npm installed beside `@foundry-rs/anvil`. */
export function anvilBinary(): string {
  const pkg = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`]
  if (!pkg) throw new Error(`no anvil binary for ${process.platform}-${process.arch}`)
  const require = createRequire(import.meta.url)
  return join(dirname(require.resolve(`${pkg}/package.json`)), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
}

/** Starts anvil and resolves once it answers `eth_chainId`. */
export async function startEvmNode(options: EvmNodeOptions = {}): Promise<RunningEvmNode> {
  const host = options.host ?? '127.0.0.1'
  const port = options.port ?? 8545
  const chainId = options.chainId ?? DEV_EVM_CHAIN_ID
  const args = ['--host', host, '--port', String(port), '--chain-id', String(chainId), '--mnemonic', DEV_MNEMONIC, '--accounts', '10']
  args.push('--balance', '10000', '--hardfork', 'prague', '--quiet')
  if (options.stateFile) args.push('--state', options.stateFile, '--state-interval', '5')
  const child: ChildProcess = spawn(anvilBinary(), args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2000)
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`

  const deadline = Date.now() + 15_000
  for (;;) {
    const early = await Promise.race([exited.then((code) => ({ code })), sleep(50).then(() => undefined)])
    if (early) throw new Error(`anvil exited (${early.code}) before it was ready: ${stderr.trim() || 'no output'}`)
    const id = await chainIdAt(url)
    if (id === chainId) break
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`anvil did not answer on ${url} within 15 s`)
    }
  }

  try {
    await ensureGasStation(url)
  } catch (err) {
    child.kill('SIGKILL')
    await exited
    throw err
  }

  let closing: Promise<void> | undefined
  return {
    url,
    port,
    chainId,
    close: () =>
      (closing ??= (async () => {
        if (child.exitCode !== null) return
        child.kill('SIGTERM')
        const stopped = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)])
        if (!stopped) {
          child.kill('SIGKILL')
          await exited
        }
      })()),
  }
}

/**
 * Deploys SigilBatchExecutor from {@link DEV_GAS_STATION_DEPLOYER} at its nonce 0 unless the code is
 * already at {@link DEV_GAS_STATION} (a resumed state file). Anything else at that address, or a
 * deployer that already sent transactions, means the fixed address cannot be had: a clear error.
 */
async function ensureGasStation(url: string): Promise<void> {
  const rpc = <T>(method: string, params: unknown[]) => jsonRpcRequest<T>(url, method, params, { timeoutMs: 10_000 })
  const code = await rpc<string>('eth_getCode', [DEV_GAS_STATION, 'latest'])
  if (code === BATCH_EXECUTOR_RUNTIME_CODE) return
  if (code !== '0x')
    throw new Error(
      `the dev chain at ${url} has other code at the Gas Station address ${DEV_GAS_STATION} (a state file from another build?)`,
    )
  const nonce = await rpc<string>('eth_getTransactionCount', [DEV_GAS_STATION_DEPLOYER, 'latest'])
  if (BigInt(nonce) !== 0n)
    throw new Error(
      `the dev chain at ${url} has no Gas Station at ${DEV_GAS_STATION}, and its deployer ${DEV_GAS_STATION_DEPLOYER} has already sent ${BigInt(nonce)} transactions, so it can no longer be deployed there (start from a fresh state file)`,
    )
  const hash = await rpc<string>('eth_sendTransaction', [
    { from: DEV_GAS_STATION_DEPLOYER, data: BATCH_EXECUTOR_CREATION_CODE, gas: '0x1e8480' },
  ])
  for (let i = 0; ; i++) {
    const receipt = await rpc<{ status: string; contractAddress: string | null } | null>('eth_getTransactionReceipt', [hash])
    if (receipt) {
      if (receipt.status !== '0x1' || receipt.contractAddress?.toLowerCase() !== DEV_GAS_STATION)
        throw new Error(`deploying the Gas Station on ${url} failed (status ${receipt.status}, address ${receipt.contractAddress})`)
      break
    }
    if (i >= 200) throw new Error(`the Gas Station deployment ${hash} on ${url} was not mined within 10 s`)
    await sleep(50)
  }
  const deployed = await rpc<string>('eth_getCode', [DEV_GAS_STATION, 'latest'])
  if (deployed !== BATCH_EXECUTOR_RUNTIME_CODE)
    throw new Error(`the Gas Station at ${DEV_GAS_STATION} on ${url} does not have the expected code`)
}

async function chainIdAt(url: string): Promise<number | undefined> {
  try {
    const result = await jsonRpcRequest<string | undefined>(url, 'eth_chainId', [], { timeoutMs: 1000 })
    return result ? Number.parseInt(result, 16) : undefined
  } catch {
    return undefined
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
