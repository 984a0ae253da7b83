/**
 * `eth_signTransaction` with fields left out: as MetaMask does, the nonce, gas
 * limit and fees a dApp omits are filled from the network's node instead of refusing the request.
 * The nonce is `eth_getTransactionCount(from, "pending")`; gas and EIP-1559 fees come from the
 * same simulation eth_sendTransaction uses (simulate.ts: estimate × 1.2, max = 2 × base +
 * priority); a chain without EIP-1559 gets `eth_gasPrice`. What the dApp gave is kept as given.
 * The approval window then shows every value, and which ones Sigil filled.
 */
import type { CustomErrorAbis } from '../../../../chains/revert'
import { simulateTransaction } from './simulate'
import type { TransactionRequest } from './ethTransaction'
import { evmRpc } from '../../chains/nodeRpc'

/** The fields Sigil can fill, as the window names them. */
export type FilledField = 'nonce' | 'gas limit' | 'fees'

/** The transaction with nothing missing, or why the gas could not be filled. */
export type FillResult =
  | {
      ok: true
      tx: TransactionRequest
      filled: FilledField[]
      /** "This transaction will fail: …" when the simulation refused the call. */
      warnings: string[]
      /** Expected fee (estimated gas × effective price) when the gas was estimated; else null. */
      estimatedWei: bigint | null
    }
  | { ok: false; reason: string }

const hex = (n: bigint) => `0x${n.toString(16)}`

/** The fields `tx` leaves out (fees: neither `gasPrice` nor `maxFeePerGas`). */
export function missingFields(tx: Pick<TransactionRequest, 'nonce' | 'gas' | 'gasLimit' | 'gasPrice' | 'maxFeePerGas'>): FilledField[] {
  const out: FilledField[] = []
  if (tx.nonce === undefined) out.push('nonce')
  if (tx.gas === undefined && tx.gasLimit === undefined) out.push('gas limit')
  if (tx.gasPrice === undefined && tx.maxFeePerGas === undefined) out.push('fees')
  return out
}

/**
 * Fill what `tx` (already checked: its fees are consistent; `to` null is a contract creation) leaves
 * out from the node at `rpcUrl`. Throws EvmRpcUnreachable / EvmRpcError when the node cannot answer a read.
 */
export async function fillTransaction(
  fetchFn: typeof fetch | undefined,
  rpcUrl: string,
  tx: Omit<TransactionRequest, 'to'> & { to: string | null },
  customErrors?: CustomErrorAbis,
): Promise<FillResult> {
  const missing = missingFields(tx)
  const { to: _to, ...rest } = tx
  const out: TransactionRequest = { ...rest, ...(tx.to !== null ? { to: tx.to } : {}) }
  const warnings: string[] = []
  let estimatedWei: bigint | null = null
  const nonce = missing.includes('nonce') ? evmRpc<string>(fetchFn, rpcUrl, 'eth_getTransactionCount', [tx.from, 'pending']) : undefined
  nonce?.catch(() => undefined) // awaited below, after the simulation (which may throw first)
  if (missing.includes('gas limit') || missing.includes('fees')) {
    const gas = tx.gas ?? tx.gasLimit
    // A legacy gas price is both the max and the priority fee: the estimate is then priced at it.
    const maxFee = tx.maxFeePerGas ?? tx.gasPrice
    const prio = tx.maxPriorityFeePerGas ?? tx.gasPrice
    const sim = await simulateTransaction(
      fetchFn,
      rpcUrl,
      { from: tx.from, to: tx.to, value: BigInt(tx.value ?? '0x0'), data: tx.data ?? tx.input ?? '0x' },
      {
        ...(gas !== undefined ? { gas: BigInt(gas) } : {}),
        ...(maxFee !== undefined ? { maxFeePerGas: BigInt(maxFee) } : {}),
        ...(prio !== undefined ? { maxPriorityFeePerGas: BigInt(prio) } : {}),
      },
      customErrors,
    )
    if (sim.failure !== null) warnings.push(`This transaction will fail: ${sim.failure}`)
    if (missing.includes('gas limit')) {
      if (sim.gasLimit === null) return { ok: false, reason: `the gas could not be estimated (${sim.failure ?? 'no estimate'})` }
      out.gas = hex(sim.gasLimit)
      delete out.gasLimit
      estimatedWei = sim.feeWei
    }
    if (missing.includes('fees')) {
      if (sim.baseFeePerGas !== null) {
        out.maxFeePerGas = hex(sim.maxFeePerGas)
        out.maxPriorityFeePerGas = hex(sim.maxPriorityFeePerGas)
      } else {
        const price = await evmRpc<unknown>(fetchFn, rpcUrl, 'eth_gasPrice', [])
        if (typeof price !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(price)) throw new Error('malformed eth_gasPrice answer')
        out.gasPrice = price
        delete out.maxPriorityFeePerGas
      }
    }
  }
  if (nonce !== undefined) {
    const count = await nonce
    if (typeof count !== 'string' || !/^0x[0-9a-fA-F]{1,16}$/.test(count)) throw new Error('malformed eth_getTransactionCount answer')
    out.nonce = hex(BigInt(count))
  }
  return { ok: true, tx: out, filled: missing, warnings, estimatedWei }
}
