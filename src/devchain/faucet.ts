/**
 * The dev faucet: funds an address on a dev chain (development only, like the dev mailbox).
 * EVM: a real transfer from the dev mnemonic's account #0, which the dev node keeps unlocked.
 * Solana: the dev runtime's `requestAirdrop`; on the dev Solana network also
 * {@link FAUCET_TOKEN_UNITS} of the dev SPL token (src/devchain/solana/tokens.ts), minted by the
 * mint authority into the address's associated token account, which it creates when missing.
 */
import { z } from 'zod'
import { fieldError, SigilError } from '../api/errors.js'
import { JsonRpcError, JsonRpcUnreachable, jsonRpcRequest } from '../chains/jsonRpc.js'
import { base58, base64 } from '@scure/base'
import { DEV_SOLANA_CAIP2, DEV_SOLANA_MINT, type Network } from '../chains/networks.js'
import { DEV_FUNDER } from './evm.js'
import { devTokenMintTransaction } from './solana/tokens.js'

/** Most a single faucet request may ask for, in whole native units. */
export const FAUCET_MAX_UNITS = 1000

export const FaucetRequest = z.object({
  caip2: z.string().min(1).max(64),
  address: z.string().min(1).max(128),
  /** Whole native units as a decimal string ("0.5" ETH) or a number. */
  amount: z.union([z.string().max(64), z.number()]),
})
export type FaucetRequest = z.infer<typeof FaucetRequest>

/** Whole dev tokens a Solana faucet request also mints. */
export const FAUCET_TOKEN_UNITS = 100

/** Dev tokens the faucet minted: the mint, whole and base units, and the mint transaction's signature. */
export type FaucetTokenResult = { mint: string; symbol: string; amount: string; baseUnits: string; signature: string }

export type FaucetResult = {
  caip2: string
  address: string
  amount: string
  baseUnits: string
  txHash?: string
  signature?: string
  tokens?: FaucetTokenResult[]
}

/**
 * Funds `request.address` on the dev network `request.caip2`. Errors name the field at fault.
 * `nativeOnly` leaves out the dev tokens a Solana request also mints.
 */
export async function fund(
  networks: readonly Network[],
  request: FaucetRequest,
  options: { nativeOnly?: boolean } = {},
): Promise<FaucetResult> {
  const network = networks.find((n) => n.caip2 === request.caip2)
  if (!network)
    throw fieldError(
      'INVALID_ARGUMENT',
      'caip2',
      `unknown network ${JSON.stringify(request.caip2)}; known: ${networks.map((n) => n.caip2).join(', ')}`,
    )
  if (!network.dev) throw fieldError('PERMISSION_DENIED', 'caip2', `${network.caip2} is not a dev chain: the faucet funds dev chains only`)
  const amount = String(request.amount).trim()
  const baseUnits = parseUnits(amount, network.nativeDecimals)
  if (network.family === 'evm') {
    if (!/^0x[0-9a-fA-F]{40}$/.test(request.address))
      throw fieldError('INVALID_ARGUMENT', 'address', 'expected a 0x-prefixed 20-byte hex address')
    const txHash = await rpc<string>(network, 'eth_sendTransaction', [
      { from: DEV_FUNDER, to: request.address, value: `0x${baseUnits.toString(16)}` },
    ])
    await waitFor(async () => (await rpc<{ status?: string } | null>(network, 'eth_getTransactionReceipt', [txHash]))?.status !== undefined)
    return { caip2: network.caip2, address: request.address, amount, baseUnits: baseUnits.toString(), txHash }
  }
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(request.address))
    throw fieldError('INVALID_ARGUMENT', 'address', 'expected a base58 Solana address')
  if (baseUnits > BigInt(Number.MAX_SAFE_INTEGER)) throw fieldError('INVALID_ARGUMENT', 'amount', 'too large')
  if (base58Length(request.address) !== 32) throw fieldError('INVALID_ARGUMENT', 'address', 'expected a base58 Solana address (32 bytes)')
  const signature = await rpc<string>(network, 'requestAirdrop', [request.address, Number(baseUnits)])
  const result: FaucetResult = { caip2: network.caip2, address: request.address, amount, baseUnits: baseUnits.toString(), signature }
  const devToken =
    network.caip2 === DEV_SOLANA_CAIP2 && !options.nativeOnly ? network.tokens.find((t) => t.address === DEV_SOLANA_MINT) : undefined
  if (!devToken) return result
  const tokenUnits = BigInt(FAUCET_TOKEN_UNITS) * 10n ** BigInt(devToken.decimals)
  const { value } = await rpc<{ value: { blockhash: string } }>(network, 'getLatestBlockhash', [{ commitment: 'confirmed' }])
  const wire = devTokenMintTransaction(request.address, tokenUnits, value.blockhash)
  const tokenSignature = await rpc<string>(network, 'sendTransaction', [base64.encode(wire), { encoding: 'base64' }])
  return {
    ...result,
    tokens: [
      {
        mint: devToken.address,
        symbol: devToken.symbol,
        amount: String(FAUCET_TOKEN_UNITS),
        baseUnits: tokenUnits.toString(),
        signature: tokenSignature,
      },
    ],
  }
}

function base58Length(address: string): number {
  try {
    return base58.decode(address).length
  } catch {
    return 0
  }
}

/** "1.25" in whole units → base units; refuses what is not a positive decimal within the cap. */
export function parseUnits(amount: string, decimals: number): bigint {
  const m = /^(\d{1,6})(?:\.(\d+))?$/.exec(amount)
  if (!m) throw fieldError('INVALID_ARGUMENT', 'amount', 'expected a positive decimal number of whole units, e.g. "1.5"')
  const fraction = m[2] ?? ''
  if (fraction.length > decimals) throw fieldError('INVALID_ARGUMENT', 'amount', `at most ${decimals} decimal places`)
  const units = BigInt(m[1] ?? '0') * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0')
  if (units <= 0n) throw fieldError('INVALID_ARGUMENT', 'amount', 'must be more than 0')
  if (units > BigInt(FAUCET_MAX_UNITS) * 10n ** BigInt(decimals))
    throw fieldError('INVALID_ARGUMENT', 'amount', `at most ${FAUCET_MAX_UNITS} per request`)
  return units
}

/** Calls the dev chain's node; a node that is down or refuses is a SigilError saying so. */
async function rpc<T>(network: Network, method: string, params: unknown[]): Promise<T> {
  try {
    return await jsonRpcRequest<T>(network.rpcUrl, method, params)
  } catch (e) {
    if (e instanceof JsonRpcError) {
      throw new SigilError('FAILED_PRECONDITION', `the dev chain ${network.caip2} refused ${method}: ${e.rpcMessage}`)
    }
    if (!(e instanceof JsonRpcUnreachable)) throw e
    throw new SigilError(
      'FAILED_PRECONDITION',
      `the dev chain ${network.caip2} does not answer at ${network.rpcUrl} (is \`npm run chain\` running?)`,
    )
  }
}

async function waitFor(done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000
  while (!(await done())) {
    if (Date.now() > deadline) throw new SigilError('FAILED_PRECONDITION', 'the faucet transfer was not mined within 10 s')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
