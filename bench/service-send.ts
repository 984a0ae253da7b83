/**
 * Send latency: eth_send_transaction submitted over loopback to the service in its own
 * process, polled with get_send_transaction_status until INCLUDED, on the dev EVM chain (anvil,
 * automine). Clients send from accounts of their own. The node's share is measured by making the
 * tracker's JSON-RPC calls for one send directly; the rest is the service's own time.
 */
import { jsonRpcRequest } from '../src/chains/jsonRpc.js'
import { percentile, type LoadResult, runLoad } from './load.js'
import { startSendStack } from './sendStack.js'

export type SendBench = { load: LoadResult[]; submitP50Ms: number; nodeMsPerSend: number }

export async function benchServiceSend(durationMs = 5_000): Promise<SendBench> {
  const stack = await startSendStack()
  const { svc, chains, body, org } = stack
  try {
    const addresses = await stack.fundedAccounts('bench', 8)
    const submitTimes: number[] = []
    const sendOnce = async (from: string, n: number) => {
      const t = performance.now()
      const r = await svc.post(
        '/public/v1/submit/eth_send_transaction',
        body('ACTIVITY_TYPE_ETH_SEND_TRANSACTION', {
          from,
          caip2: 'eip155:31337',
          to: '0x000000000000000000000000000000000000bEEF',
          value: String(n + 1),
        }),
      )
      submitTimes.push(performance.now() - t)
      const id = r.json.activity?.result?.ethSendTransactionResult?.sendTransactionStatusId
      if (!id) return false
      for (;;) {
        const s = await svc.post('/public/v1/query/get_send_transaction_status', { organizationId: org, sendTransactionStatusId: id })
        if (s.json.txStatus === 'INCLUDED') return true
        if (s.json.txStatus === 'FAILED') return false
        await new Promise((res) => setTimeout(res, 5))
      }
    }
    const load: LoadResult[] = []
    for (const clients of [1, 8]) {
      let next = 0
      const owner = new Map<number, string>()
      load.push(
        await runLoad('eth send → INCLUDED', clients, durationMs, async (n) => {
          // each client loop keeps its own account, so nonces do not interleave between clients
          const slot = owner.get(n % clients) ?? addresses[next++ % addresses.length]!
          owner.set(n % clients, slot)
          return sendOnce(slot, n)
        }),
      )
    }

    // The node's share: the tracker's JSON-RPC calls for one send, made directly.
    const rpc = (method: string, params: unknown[]) => jsonRpcRequest(chains.evm.url, method, params)
    const from = addresses[0]!
    const nodeRuns: number[] = []
    for (let i = 0; i < 50; i++) {
      const t = performance.now()
      await rpc('eth_chainId', [])
      await rpc('eth_getTransactionCount', [from, 'pending'])
      await rpc('eth_estimateGas', [{ from, to: '0x000000000000000000000000000000000000bEEF', value: '0x1' }])
      await rpc('eth_maxPriorityFeePerGas', [])
      await rpc('eth_getBlockByNumber', ['latest', false])
      await rpc('eth_getBalance', [from, 'pending'])
      await rpc('eth_getTransactionReceipt', ['0x'.padEnd(66, '0')])
      nodeRuns.push(performance.now() - t)
    }
    nodeRuns.sort((a, b) => a - b)
    submitTimes.sort((a, b) => a - b)
    return { load, submitP50Ms: percentile(submitTimes, 50), nodeMsPerSend: percentile(nodeRuns, 50) }
  } finally {
    await stack.close()
  }
}

export function formatServiceSend(r: SendBench): string {
  const lines = ['name                      clients  sends  errors  sends/s   p50 ms   p99 ms', '-'.repeat(72)]
  for (const l of r.load) {
    lines.push(
      `${l.name.padEnd(25)} ${String(l.clients).padStart(7)} ${String(l.requests).padStart(6)} ${String(l.errors).padStart(7)} ${l.throughput.toFixed(1).padStart(8)} ${l.p50Ms.toFixed(2).padStart(8)} ${l.p99Ms.toFixed(2).padStart(8)}`,
    )
  }
  const one = r.load[0]
  lines.push(
    '',
    `submit (activity committed) p50: ${r.submitP50Ms.toFixed(2)} ms; the node's JSON-RPC calls for one send (excl. broadcast): ${r.nodeMsPerSend.toFixed(2)} ms p50`,
    one
      ? `service's own time per send at 1 client ≈ p50 − node ≈ ${(one.p50Ms - r.nodeMsPerSend).toFixed(2)} ms (includes the client's status polling every 5 ms and the tracker's follow-up cadence, 20 ms then backing off)`
      : '',
  )
  return lines.join('\n')
}
