/**
 * What the send benches share: the dev chains on free ports, the service in its own process
 * pointed at them, and Ethereum accounts of one new wallet funded from the dev faucet.
 */
import { createServer } from 'node:net'
import { DEV_SOLANA_CAIP2 } from '../src/chains/networks.js'
import { startDevChains } from '../src/devchain/index.js'
import { startBenchService } from './serviceProcess.js'

const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port
      s.close(() => ok(p))
    })
  })

/** The dev chains and the service using them; `close()` stops both. */
export async function startSendStack() {
  const chains = await startDevChains({ evmPort: await freePort(), solanaPort: 0 })
  const svc = await startBenchService(undefined, { SIGIL_RPC: `eip155:31337=${chains.evm.url},${DEV_SOLANA_CAIP2}=${chains.solana.url}` })
  const org = svc.admin.organizationId
  /** A submit body of the admin's organization. */
  const body = (type: string, parameters: unknown) => ({ parameters, organizationId: org, timestampMs: String(Date.now()), type })
  /** `count` Ethereum accounts of a new wallet, each given 100 ETH by the dev faucet. */
  async function fundedAccounts(walletName: string, count: number): Promise<string[]> {
    const wallet = await svc.post(
      '/public/v1/submit/create_wallet',
      body('ACTIVITY_TYPE_CREATE_WALLET', {
        walletName,
        accounts: Array.from({ length: count }, (_, i) => ({
          curve: 'CURVE_SECP256K1',
          pathFormat: 'PATH_FORMAT_BIP32',
          path: `m/44'/60'/0'/0/${i}`,
          addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
        })),
      }),
    )
    const addresses = wallet.json.activity.result.createWalletResult.addresses as string[]
    for (const address of addresses) {
      await fetch(`${svc.url}/dev/faucet`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ caip2: 'eip155:31337', address, amount: '100' }),
      })
    }
    return addresses
  }
  return {
    chains,
    svc,
    org,
    body,
    fundedAccounts,
    async close() {
      await svc.stop()
      await chains.close()
    },
  }
}
