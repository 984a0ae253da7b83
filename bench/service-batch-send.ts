/**
 * Batch send latency: eth_send_transaction (V2) with 1, 3 and 10 calls, sponsored (the dev
 * sponsor pays through the Gas Station) and not (the account pays; one call is a plain EIP-1559
 * send, several a Gas Station batch), submitted over loopback to the service in its own process
 * and polled with get_send_transaction_status every 5 ms until INCLUDED, on the dev EVM chain
 * (anvil, automine). One client, sends one after another; each row uses its own account (its
 * first batch also carries the EIP-7702 authorization to the Gas Station).
 */
import { createServer } from 'node:net'
import { DEV_SOLANA_CAIP2 } from '../src/chains/networks.js'
import { startDevChains } from '../src/devchain/index.js'
import { percentile } from './load.js'
import { startBenchService } from './serviceProcess.js'

const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port
      s.close(() => ok(p))
    })
  })

export type BatchSendRow = { calls: number; sponsor: boolean; runs: number; failed: number; p50Ms: number; p95Ms: number }

const SHAPES = [1, 3, 10].flatMap((calls) => [false, true].map((sponsor) => ({ calls, sponsor })))

export async function benchBatchSend(runs = 10): Promise<BatchSendRow[]> {
  const chains = await startDevChains({ evmPort: await freePort(), solanaPort: 0 })
  const svc = await startBenchService(undefined, { SIGIL_RPC: `eip155:31337=${chains.evm.url},${DEV_SOLANA_CAIP2}=${chains.solana.url}` })
  try {
    const org = svc.admin.organizationId
    const body = (type: string, parameters: unknown) => ({ parameters, organizationId: org, timestampMs: String(Date.now()), type })
    const wallet = await svc.post(
      '/public/v1/submit/create_wallet',
      body('ACTIVITY_TYPE_CREATE_WALLET', {
        walletName: 'batch bench',
        accounts: SHAPES.map((_, i) => ({
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
    const sendOnce = async (from: string, calls: number, sponsor: boolean): Promise<number | undefined> => {
      const t = performance.now()
      const r = await svc.post(
        '/public/v1/submit/eth_send_transaction',
        body('ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2', {
          from,
          caip2: 'eip155:31337',
          ...(sponsor ? { sponsor: true } : {}),
          calls: Array.from({ length: calls }, (_, i) => ({ to: '0x000000000000000000000000000000000000bEEF', value: String(i + 1) })),
        }),
      )
      const id = r.json.activity?.result?.ethSendTransactionResultV2?.sendTransactionStatusId
      if (!id) return undefined
      for (;;) {
        const s = await svc.post('/public/v1/query/get_send_transaction_status', { organizationId: org, sendTransactionStatusId: id })
        if (s.json.txStatus === 'INCLUDED') return performance.now() - t
        if (s.json.txStatus === 'FAILED') return undefined
        await new Promise((res) => setTimeout(res, 5))
      }
    }
    const rows: BatchSendRow[] = []
    for (const [i, shape] of SHAPES.entries()) {
      const from = addresses[i] as string
      const times: number[] = []
      let failed = 0
      for (let run = 0; run < runs; run++) {
        const ms = await sendOnce(from, shape.calls, shape.sponsor)
        if (ms === undefined) failed++
        else times.push(ms)
      }
      times.sort((a, b) => a - b)
      rows.push({ ...shape, runs, failed, p50Ms: percentile(times, 50), p95Ms: percentile(times, 95) })
    }
    return rows
  } finally {
    await svc.stop()
    await chains.close()
  }
}

export function formatBatchSend(rows: BatchSendRow[]): string {
  const lines = ['calls  paid by    runs  failed   p50 ms   p95 ms', '-'.repeat(48)]
  for (const r of rows) {
    lines.push(
      `${String(r.calls).padStart(5)}  ${(r.sponsor ? 'sponsor' : 'account').padEnd(9)} ${String(r.runs).padStart(5)} ${String(r.failed).padStart(7)} ${r.p50Ms.toFixed(1).padStart(8)} ${r.p95Ms.toFixed(1).padStart(8)}`,
    )
  }
  return lines.join('\n')
}
