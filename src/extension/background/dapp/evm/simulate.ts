/**
 * Simulation of a dApp's transaction before the approval window opens:
 * eth_call and eth_estimateGas against the network's node, EIP-1559 fees as the service's
 * sends fill them (src/service/sends/evm.ts: priority from the node, max = 2 × base + priority,
 * gas limit = estimate × 1.2), and a revert decoded with the same decoder the service uses
 * (src/chains/revert.ts), custom errors with the organization's smart-contract interfaces.
 */
import { type CustomErrorAbis, describeRevert, revertDataOf } from '../../../../chains/revert'
import { EvmRpcError, EvmRpcUnreachable, evmRpc } from '../../chains/nodeRpc'
import type { DappContext } from '../../methods'

/** The call the transaction makes; `to` null: a contract creation (`data` is the creation code). */
export type SimCall = { from: string; to: string | null; value: bigint; data: string }
/** Fees and gas the dApp fixed itself (each optional). */
export type SimGiven = { gas?: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint }

/** What the window shows and the send uses. */
export type Simulation = {
  /** Gas limit sent (the dApp's, or the estimate × 1.2); null when the estimate failed. */
  gasLimit: bigint | null
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  /** Expected cost: estimated gas × (base fee + priority), in wei; null when unknown. */
  feeWei: bigint | null
  /** Most it can cost: gas limit × max fee, in wei; null when unknown. */
  maxFeeWei: bigint | null
  /** Why it will fail (decoded revert, or the node's reason), or null when the simulation passed. */
  failure: string | null
  /** The latest block's base fee; null on a chain without EIP-1559 (no `baseFeePerGas`). */
  baseFeePerGas: bigint | null
}

const GWEI = 1_000_000_000n
const hex = (n: bigint) => `0x${n.toString(16)}`

/** The reason a refused eth_call / eth_estimateGas gives: a decoded revert, else the node's message. */
async function reasonOf(e: EvmRpcError, to: string | null, customErrors: CustomErrorAbis | undefined): Promise<string> {
  const data = revertDataOf(e.data)
  if (data !== undefined || /revert/i.test(e.message)) {
    const described = await describeRevert(to?.toLowerCase(), data, 'simulation', customErrors)
    return described.revertChain[0]?.displayMessage ?? described.message
  }
  return e.message
}

/**
 * Simulate `call` on the node at `rpcUrl`. Throws {@link EvmRpcUnreachable} when the node cannot
 * be asked (nothing is shown then); a refusal by the node is a `failure`, not a throw.
 */
export async function simulateTransaction(
  fetchFn: typeof fetch | undefined,
  rpcUrl: string,
  call: SimCall,
  given: SimGiven,
  customErrors?: CustomErrorAbis,
): Promise<Simulation> {
  // Without `to` the node runs the creation code (eth_call answers the runtime code, eth_estimateGas the creation's gas).
  const req = { from: call.from, ...(call.to !== null ? { to: call.to } : {}), value: hex(call.value), data: call.data }
  const rpc = <T>(method: string, params: unknown[]) => evmRpc<T>(fetchFn, rpcUrl, method, params)
  const settle = <T>(p: Promise<T>) =>
    p.then(
      (v) => ({ ok: true as const, v }),
      (e: unknown) => {
        if (e instanceof EvmRpcError) return { ok: false as const, e }
        throw e
      },
    )
  const [callR, gasR, prioR, blockR] = await Promise.all([
    settle(rpc<string>('eth_call', [req, 'latest'])),
    given.gas === undefined ? settle(rpc<string>('eth_estimateGas', [req])) : Promise.resolve({ ok: true as const, v: hex(given.gas) }),
    given.maxPriorityFeePerGas === undefined
      ? settle(rpc<string>('eth_maxPriorityFeePerGas', []))
      : Promise.resolve({ ok: true as const, v: hex(given.maxPriorityFeePerGas) }),
    settle(rpc<{ baseFeePerGas?: string } | null>('eth_getBlockByNumber', ['latest', false])),
  ])
  if (!blockR.ok) throw new EvmRpcUnreachable('the node did not give the latest block')
  const baseFeeQ = blockR.v?.baseFeePerGas
  const baseFee = BigInt(baseFeeQ ?? '0x0')
  let maxPriorityFeePerGas = prioR.ok ? BigInt(prioR.v) : GWEI
  const maxFeePerGas = given.maxFeePerGas ?? 2n * baseFee + maxPriorityFeePerGas
  if (maxPriorityFeePerGas > maxFeePerGas) maxPriorityFeePerGas = maxFeePerGas

  let failure: string | null = null
  if (!callR.ok) failure = await reasonOf(callR.e, call.to, customErrors)
  else if (!gasR.ok) failure = await reasonOf(gasR.e, call.to, customErrors)

  const estimate = gasR.ok ? BigInt(gasR.v) : null
  const gasLimit = given.gas ?? (estimate === null ? null : (estimate * 12n) / 10n)
  const price = baseFee + maxPriorityFeePerGas < maxFeePerGas ? baseFee + maxPriorityFeePerGas : maxFeePerGas
  return {
    gasLimit,
    maxFeePerGas,
    maxPriorityFeePerGas,
    feeWei: estimate === null ? null : estimate * price,
    maxFeeWei: gasLimit === null ? null : gasLimit * maxFeePerGas,
    failure,
    baseFeePerGas: baseFeeQ === undefined ? null : baseFee,
  }
}

/** The organization's Ethereum ABIs, the reverting contract's own first (what the service's decoder uses). */
export function organizationAbis(ctx: DappContext, organizationId: string): CustomErrorAbis {
  return async (_selector, address) =>
    ctx.core.withSession(async (client) => {
      const { smartContractInterfaces } = await client.listSmartContractInterfaces({ organizationId })
      const eth = smartContractInterfaces.filter((i) => i.type === 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM')
      const own = (i: (typeof eth)[number]) => address !== undefined && i.smartContractAddress.toLowerCase() === address.toLowerCase()
      return [...eth.filter(own), ...eth.filter((i) => !own(i))].map((i) => i.smartContractInterface)
    })
}
