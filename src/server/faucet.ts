import { SigilError } from '../api/errors.js'
import { parseOrThrow } from '../api/validation.js'
import { FaucetRequest, fund } from '../devchain/faucet.js'
import type { ServiceApp } from '../service/http/app.js'
import type { SandboxDeliver } from '../service/onramp/delivery.js'
import type { Runtime } from '../service/runtime.js'

/**
 * `POST /dev/faucet {caip2, address, amount}` (wire-formats A6): funds an address on a dev chain.
 * Mounted only in dev mode (`SIGIL_DEV_FAUCET`, on unless production), like the dev mailbox.
 */
export function mountFaucet(app: ServiceApp, rt: Runtime): void {
  app.post('/dev/faucet', async (c) => {
    let json: unknown
    try {
      json = await c.req.json()
    } catch {
      throw new SigilError('INVALID_JSON', 'request body is not valid JSON')
    }
    const request = parseOrThrow(FaucetRequest, json, '')
    const result = await fund(rt.config.networks, request)
    rt.log.info('dev faucet', { reqId: c.get('reqId'), caip2: result.caip2, address: result.address, baseUnits: result.baseUnits })
    return c.json(result)
  })
}

/**
 * The sandbox on-ramp's delivery in dev mode: the bought coin from the dev faucet (native coin
 * only), resolving once the transfer is on the node with its hash (EVM) or signature (Solana).
 */
export const faucetDelivery: SandboxDeliver = async (network, address, amount) => {
  const result = await fund([network], { caip2: network.caip2, address, amount }, { nativeOnly: true })
  const txHash = result.txHash ?? result.signature
  if (!txHash) throw new SigilError('INTERNAL', 'the dev faucet returned no transaction')
  return { txHash }
}
