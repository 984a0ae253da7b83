import { createPublicClient, type Hex, http, type TransactionReceipt } from 'viem'
import { DEV_FUNDER } from '../../../src/devchain/evm.js'

/**
 * Sends `tx` from the dev funder (an account the dev EVM node holds unlocked) with the node's own
 * `eth_sendTransaction`, and waits for the receipt: how tests fund accounts and deploy fixtures.
 */
export async function sendFromDevFunder(nodeUrl: string, tx: Record<string, unknown>): Promise<TransactionReceipt> {
  const res = await fetch(nodeUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendTransaction', params: [{ from: DEV_FUNDER, ...tx }] }),
  })
  const { result, error } = (await res.json()) as { result?: Hex; error?: { message: string } }
  if (!result) throw new Error(`eth_sendTransaction from the dev funder failed: ${error?.message ?? res.status}`)
  return createPublicClient({ transport: http(nodeUrl) }).waitForTransactionReceipt({ hash: result })
}
