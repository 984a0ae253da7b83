/**
 * Imported private keys in Send and on the accounts screen. The service reads balances and sends
 * (get_wallet_address_balances, eth_send_transaction) for wallet accounts only, so for an imported
 * key the background reads balances from the network's node and sends an EVM transfer itself: it
 * builds the transaction with the reviewed gas and fees, has the service sign it with the key
 * (sign_transaction signs with any of the organization's keys by address), broadcasts it with
 * eth_send_raw_transaction and follows the receipt on the node. A SOL transfer is signed the same
 * way and sent to the network's node, then followed by its signature status.
 */
import { base58, base64 } from '@scure/base'
import type { SigilClient } from '../../../api/client'
import { hexToBytes } from '../../../crypto/encoding'
import { transferCalldata } from '../../../chains/erc20'
import { buildUnsignedTransaction } from '../dapp/evm/ethTransaction'
import type { NetworkInfo } from '../chains/networks'
import { nodeRpc, quantity } from '../chains/nodeRpc'
import type { ActiveSession, Core } from '../core'
import { ExtensionError } from '../failures'
import type { BalanceView } from './balances'
import type { EvmFees } from './send'
import { solTransferMessage, solTransferTransactionHex } from './solanaTransfer'
import { solanaErrorWords } from './solanaErrors'

/** Prefix of the status id of a send this module broadcast (`raw:<caip2>:<tx hash>`). */
export const RAW_SEND_PREFIX = 'raw:'

/** Whether `address` is one of the organization's imported private keys (EVM compared case-insensitively). */
export async function isImportedKey(client: SigilClient, session: ActiveSession, address: string): Promise<boolean> {
  const { privateKeys } = await client.listPrivateKeys({ organizationId: session.record.organizationId })
  const lower = address.toLowerCase()
  return privateKeys.some((k) =>
    k.addresses.some((a) => a.address === address || (address.startsWith('0x') && a.address.toLowerCase() === lower)),
  )
}

const BALANCE_OF = '0x70a08231'

/** The native balance and the network's token balances of `address`, read from the node. */
export async function nodeBalances(core: Core, network: NetworkInfo, address: string): Promise<BalanceView[]> {
  if (network.family === 'solana') {
    const { value } = await nodeRpc<{ value: number }>(core, network, 'getBalance', [address, { commitment: 'confirmed' }])
    return [
      {
        caip19: `${network.caip2}/slip44:501`,
        symbol: network.nativeSymbol,
        name: network.nativeSymbol,
        decimals: network.nativeDecimals,
        balance: BigInt(value).toString(),
      },
    ]
  }
  const native = quantity(await nodeRpc(core, network, 'eth_getBalance', [address, 'latest']), 'eth_getBalance')
  const out: BalanceView[] = [
    {
      caip19: `${network.caip2}/slip44:60`,
      symbol: network.nativeSymbol,
      name: network.nativeSymbol,
      decimals: network.nativeDecimals,
      balance: native.toString(),
    },
  ]
  for (const t of network.tokens) {
    const data = `${BALANCE_OF}${address.slice(2).toLowerCase().padStart(64, '0')}`
    const raw = await nodeRpc<string>(core, network, 'eth_call', [{ to: t.address, data }, 'latest'])
    const balance = raw === '0x' ? 0n : quantity(raw.replace(/^0x0+(?=[0-9a-fA-F])/, '0x'), 'balanceOf')
    out.push({
      caip19: `${network.caip2}/erc20:${t.address}`,
      symbol: t.symbol,
      name: t.name,
      decimals: t.decimals,
      balance: balance.toString(),
      token: t.address,
    })
  }
  return out
}

/** Send SOL from an imported key: the transfer signed by the key service, sent to the node; returns the status id to poll. */
export async function sendSolFromImportedKey(
  core: Core,
  client: SigilClient,
  session: ActiveSession,
  network: NetworkInfo,
  p: { from: string; to: string; amount: bigint },
): Promise<{ sendTransactionStatusId: string; activityStatus: string }> {
  const { value } = await nodeRpc<{ value: { blockhash: string } }>(core, network, 'getLatestBlockhash', [{ commitment: 'confirmed' }])
  const unsigned = solTransferTransactionHex(solTransferMessage(p.from, p.to, p.amount, value.blockhash))
  const signed = await client.signTransaction({
    organizationId: session.record.organizationId,
    signWith: p.from,
    unsignedTransaction: unsigned.replace(/^0x/, ''),
    type: 'TRANSACTION_TYPE_SOLANA',
  })
  if (signed.activity.status !== 'ACTIVITY_STATUS_COMPLETED' || !signed.signedTransaction)
    throw new ExtensionError('REQUEST_FAILED', 'The key service did not sign the transaction; see Activity.')
  const wire = hexToBytes(signed.signedTransaction.replace(/^0x/, ''))
  const signature = await nodeRpc<string>(core, network, 'sendTransaction', [
    base64.encode(wire),
    { encoding: 'base64', preflightCommitment: 'confirmed' },
  ])
  if (typeof signature !== 'string' || base58.decode(signature).length !== 64)
    throw new ExtensionError('NODE_UNAVAILABLE', `${network.name} gave no transaction signature.`)
  return { sendTransactionStatusId: `${RAW_SEND_PREFIX}${network.caip2}:${signature}`, activityStatus: signed.activity.status }
}

/** Send from an imported EVM key with the reviewed gas and fees; returns the status id to poll. */
export async function sendFromImportedKey(
  core: Core,
  client: SigilClient,
  session: ActiveSession,
  network: NetworkInfo,
  p: { from: string; to: string; amount: bigint; token?: string | undefined; evm: EvmFees },
): Promise<{ sendTransactionStatusId: string; activityStatus: string }> {
  if (network.family !== 'evm') return sendSolFromImportedKey(core, client, session, network, p)
  const chainId = `0x${BigInt(network.caip2.replace(/^eip155:/, '')).toString(16)}` as const
  const nonce = quantity(await nodeRpc(core, network, 'eth_getTransactionCount', [p.from, 'pending']), 'eth_getTransactionCount')
  const hex = (n: bigint | string) => `0x${BigInt(n).toString(16)}`
  const call =
    p.token === undefined
      ? { to: p.to, value: hex(p.amount), data: '0x' }
      : { to: p.token, value: '0x0', data: transferCalldata(p.to, p.amount) }
  const built = buildUnsignedTransaction(
    {
      from: p.from,
      ...call,
      nonce: hex(nonce),
      gas: hex(p.evm.gasLimit),
      maxFeePerGas: hex(p.evm.maxFeePerGas),
      maxPriorityFeePerGas: hex(p.evm.maxPriorityFeePerGas),
      chainId,
    },
    chainId,
  )
  if (!built.ok) throw new ExtensionError('INVALID_ARGUMENT', `The transaction could not be built: ${built.reason}`)
  const organizationId = session.record.organizationId
  const signed = await client.signTransaction({
    organizationId,
    signWith: p.from,
    unsignedTransaction: built.unsignedHex.replace(/^0x/, ''),
    type: 'TRANSACTION_TYPE_ETHEREUM',
  })
  if (signed.activity.status !== 'ACTIVITY_STATUS_COMPLETED' || !signed.signedTransaction)
    throw new ExtensionError('REQUEST_FAILED', 'The key service did not sign the transaction; see Activity.')
  const sent = await client.ethSendRawTransaction({
    organizationId,
    signedTransaction: `0x${signed.signedTransaction.replace(/^0x/, '')}`,
    caip2: network.caip2,
  })
  if (!sent.transactionHash) throw new ExtensionError('REQUEST_FAILED', 'The transaction was not broadcast; see Activity.')
  return { sendTransactionStatusId: `${RAW_SEND_PREFIX}${network.caip2}:${sent.transactionHash}`, activityStatus: sent.activity.status }
}

/** The state of a send this module broadcast, from the node's receipt (EVM) or signature status (Solana). */
export async function rawSendStatus(
  core: Core,
  network: NetworkInfo,
  txHash: string,
): Promise<{ state: 'pending' | 'confirmed' | 'failed'; txStatus: string; txHash: string; message?: string }> {
  if (network.family === 'solana') {
    const { value } = await nodeRpc<{ value: Array<{ err: unknown; confirmationStatus?: string } | null> }>(
      core,
      network,
      'getSignatureStatuses',
      [[txHash]],
    )
    const st = value[0]
    if (st && st.err != null) return { state: 'failed', txStatus: 'FAILED', txHash, message: solanaErrorWords(st.err) }
    if (st && (st.confirmationStatus === 'confirmed' || st.confirmationStatus === 'finalized'))
      return { state: 'confirmed', txStatus: 'INCLUDED', txHash }
    return { state: 'pending', txStatus: 'BROADCASTED', txHash }
  }
  const receipt = await nodeRpc<{ status?: string } | null>(core, network, 'eth_getTransactionReceipt', [txHash])
  if (!receipt) return { state: 'pending', txStatus: 'BROADCASTED', txHash }
  if (receipt.status === '0x1') return { state: 'confirmed', txStatus: 'INCLUDED', txHash }
  return { state: 'failed', txStatus: 'FAILED', txHash, message: 'The transaction reverted on chain.' }
}
