/**
 * The home screen's EIP-7702 line for one of the user's Ethereum accounts: whether the account's
 * code delegates it (read from the network's node), to Sigil's batch executor (the Gas Station
 * the service's signed network list names) or to another contract, and "Undelegate": the
 * service's eth_undelegate_7702 (a transaction from the account to itself authorising the zero
 * address), followed until it lands, then read again from the node.
 */
import type { SigilClient } from '../../../api/client'
import { delegationOf } from '../../../chains/gasStation/batch'
import { requirePopupNetwork } from '../chains/popupNetwork'
import { nodeRpc } from '../chains/nodeRpc'
import type { ActiveSession, Core } from '../core'
import { ExtensionError } from '../failures'
import { accountBook, flatten } from './accountBook'
import { FORMAT_OF_FAMILY } from './balances'

/** An account's delegation as the home screen shows it. */
export type DelegationView =
  | { kind: 'none' }
  /** Delegated to the network's Gas Station (Sigil's batch executor). */
  | { kind: 'sigil'; to: string }
  /** Delegated to another contract. */
  | { kind: 'other'; to: string }
  /** Not a delegation designator: a contract's code at this address. */
  | { kind: 'contract' }

/** How long Undelegate waits for the transaction to land before answering with what the node says. */
export const UNDELEGATE_WAIT_MS = 60_000
const POLL_MS = 300

async function evmNetwork(core: Core, caip2: string) {
  const network = await requirePopupNetwork(core, caip2)
  if (network.family !== 'evm') throw new ExtensionError('INVALID_ARGUMENT', `caip2: ${network.name} is not an Ethereum network`)
  return network
}

async function ownEvmNetwork(core: Core, client: SigilClient, session: ActiveSession, p: { caip2: string; address: string }) {
  const network = await evmNetwork(core, p.caip2)
  const own = flatten((await accountBook(client, session, core.deps.local)).groups).some(
    (a) => a.address.toLowerCase() === p.address.toLowerCase() && a.addressFormat === FORMAT_OF_FAMILY.evm,
  )
  if (!own) throw new ExtensionError('INVALID_ARGUMENT', `address: not one of your ${network.name} accounts`)
  return network
}

/**
 * The delegation of `address` on the EVM network `caip2`: public facts of the chain, read from the
 * node only (the home screen asks for each account it shows, without a service request).
 */
export async function accountDelegation(
  core: Core,
  p: { caip2: string; address: string },
): Promise<{ caip2: string; address: string; delegation: DelegationView }> {
  const network = await evmNetwork(core, p.caip2)
  const code = await nodeRpc<unknown>(core, network, 'eth_getCode', [p.address, 'latest'])
  if (typeof code !== 'string') throw new ExtensionError('NODE_UNAVAILABLE', `The RPC node of ${network.name} answered no code`)
  const d = delegationOf(code.toLowerCase())
  const gasStation = network.gasStation?.toLowerCase()
  const delegation: DelegationView =
    d.kind === 'delegated'
      ? gasStation !== undefined && d.to === gasStation
        ? { kind: 'sigil', to: d.to }
        : { kind: 'other', to: d.to }
      : d
  return { caip2: network.caip2, address: p.address, delegation }
}

/** Clear the delegation of `address` on `caip2` through the service, wait for it to land, and read it again. */
export async function undelegateAccount(
  core: Core,
  client: SigilClient,
  session: ActiveSession,
  p: { caip2: string; address: string },
): Promise<{ caip2: string; address: string; delegation: DelegationView }> {
  const network = await ownEvmNetwork(core, client, session, p)
  const organizationId = session.record.organizationId
  const res = await client.ethUndelegate7702({ organizationId, from: p.address, caip2: network.caip2 })
  if (res.activity.status !== 'ACTIVITY_STATUS_COMPLETED')
    throw new ExtensionError('REQUEST_FAILED', 'Undelegating needs another approval in the service: nothing was sent yet')
  const deadline = core.now() + UNDELEGATE_WAIT_MS
  for (;;) {
    const status = await client.getSendTransactionStatus({ organizationId, sendTransactionStatusId: res.sendTransactionStatusId })
    if (status.txStatus === 'INCLUDED') break
    if (status.txStatus === 'FAILED') {
      const why = (status.error?.message ?? status.txError ?? 'the service could not send it').slice(0, 200)
      throw new ExtensionError('REQUEST_FAILED', `Undelegating failed: ${why}`)
    }
    if (core.now() > deadline) break
    await new Promise((r) => setTimeout(r, POLL_MS))
  }
  return accountDelegation(core, p)
}
