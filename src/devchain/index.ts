/**
 * The dev chains `npm run chain` and `npm start` run: the EVM node (anvil) and the Solana dev
 * runtime (LiteSVM behind JSON-RPC), both on 127.0.0.1. Development only.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { startEvmNode, type RunningEvmNode } from './evm.js'
import { startSolanaRpc, type RunningSolanaRpc } from './solana/server.js'

export type DevChainsOptions = {
  host?: string
  evmPort?: number
  solanaPort?: number
  /** Where chain state is kept across restarts (`<dir>/evm-state.json`, `<dir>/solana-state.json`); none: in memory. */
  stateDir?: string | undefined
}

export type RunningDevChains = { evm: RunningEvmNode; solana: RunningSolanaRpc; close(): Promise<void> }

export async function startDevChains(options: DevChainsOptions = {}): Promise<RunningDevChains> {
  if (options.stateDir) mkdirSync(options.stateDir, { recursive: true })
  const state = (name: string) => (options.stateDir ? join(options.stateDir, name) : undefined)
  const host = options.host ?? '127.0.0.1'
  const evm = await startEvmNode({ host, port: options.evmPort ?? 8545, stateFile: state('evm-state.json') })
  let solana: RunningSolanaRpc
  try {
    solana = await startSolanaRpc({ host, port: options.solanaPort ?? 8899, stateFile: state('solana-state.json') })
  } catch (e) {
    await evm.close()
    throw e
  }
  return {
    evm,
    solana,
    async close() {
      await Promise.all([evm.close(), solana.close()])
    },
  }
}
