/**
 * `npm run chain`: the dev chains on 127.0.0.1 (EVM on 8545, Solana on 8899 with its PubSub websocket on 8900; `SIGIL_EVM_PORT`,
 * `SIGIL_SOLANA_PORT` to move them), state kept in `<SIGIL_DATA_DIR>/chains`. Ctrl-C stops both.
 */
import { resolve } from 'node:path'
import { DEV_EVM_CAIP2 } from '../chains/networks.js'
import { startDevChains } from './index.js'

const port = (name: string, fallback: number) => {
  const v = process.env[name]
  const n = v === undefined ? fallback : Number(v)
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} must be a port number`)
  return n
}
const stateDir = resolve(process.env.SIGIL_DATA_DIR ?? '.sigil', 'chains')
const chains = await startDevChains({ evmPort: port('SIGIL_EVM_PORT', 8545), solanaPort: port('SIGIL_SOLANA_PORT', 8899), stateDir })
console.error(
  `Sigil dev chains ready (development only; state in ${stateDir})\n` +
    `  EVM     ${DEV_EVM_CAIP2.padEnd(48)} ${chains.evm.url}  (anvil; test mnemonic accounts funded)\n` +
    `  Solana  ${chains.solana.caip2.padEnd(48)} ${chains.solana.url}  (LiteSVM dev runtime; PubSub ${chains.solana.wsUrl})`,
)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void chains.close().then(() => process.exit(0))
  })
}
