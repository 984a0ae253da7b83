/**
 * Batch send latency: eth_send_transaction (V2) with 1, 3 and 10 calls, sponsored (the dev
 * sponsor pays through the Gas Station) and not (the account pays; one call is a plain EIP-1559
 * send, several a Gas Station batch), submitted over loopback to the service in its own process
 * and polled with get_send_transaction_status every 5 ms until INCLUDED, on the dev EVM chain
 * (anvil, automine). One client, sends one after another; each row uses its own account (its
 * first batch also carries the EIP-7702 authorization to the Gas Station).
 */
import { percentile } from './load.js'
import { startSendStack } from './sendStack.js'

export type BatchSendRow = { calls: number; sponsor: boolean; runs: number; failed: number; p50Ms: number; p95Ms: number }

const SHAPES = [1, 3, 10].flatMap((calls) => [false, true].map((sponsor) => ({ calls, sponsor })))

export async function benchBatchSend(runs = 10): Promise<BatchSendRow[]> {
  const stack = await startSendStack()
  const { svc, body, org } = stack
  try {
    const addresses = await stack.fundedAccounts('batch bench', SHAPES.length)
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
    await stack.close()
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
