import { createPublicClient, encodeDeployData, type Hex, http, parseUnits, type TransactionReceipt } from 'viem'
import { DEV_FUNDER } from '../../../src/devchain/evm.js'
import { ERC20_ARTIFACT } from '../../fixtures/contracts/erc20.js'

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

/**
 * Deploys the ERC-20 fixture (test/fixtures/contracts/erc20.ts) from the dev funder, who holds
 * the whole supply (1,000,000 × 10^18); returns the token's address.
 */
export async function deployTestToken(nodeUrl: string, name = 'Sigil Test Token', symbol = 'TST'): Promise<Hex> {
  const deployed = await sendFromDevFunder(nodeUrl, {
    gas: '0x300000',
    data: encodeDeployData({
      abi: ERC20_ARTIFACT.abi,
      bytecode: ERC20_ARTIFACT.bytecode,
      args: [name, symbol, parseUnits('1000000', 18), DEV_FUNDER],
    }),
  })
  if (deployed.status !== 'success' || !deployed.contractAddress) throw new Error('the test token did not deploy')
  return deployed.contractAddress
}
