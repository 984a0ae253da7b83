/**
 * The EVM dev chain: anvil (Foundry's local node, from the registry package `@foundry-rs/anvil`
 * and its platform binary), a real node serving standard JSON-RPC. chainId 31337, automine, the
 * well-known test mnemonic's first ten accounts funded with 10,000 ETH each (the same accounts
 * Hardhat's node funds).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
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
  args.push('--balance', '10000', '--quiet')
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

async function chainIdAt(url: string): Promise<number | undefined> {
  try {
    const result = await jsonRpcRequest<string | undefined>(url, 'eth_chainId', [], { timeoutMs: 1000 })
    return result ? Number.parseInt(result, 16) : undefined
  } catch {
    return undefined
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
