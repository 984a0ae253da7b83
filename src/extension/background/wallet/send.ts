/**
 * The Send screen's background side: a fee estimate with the most that
 * can be sent, then the send through the service (eth_send_transaction V2 with the reviewed gas
 * and fees, so the fee shown is the fee signed; sol_send_transaction with a System Program
 * transfer, or for an SPL token a TransferChecked between the two associated token accounts —
 * the recipient's created first (rent paid by the sender) when it has none — whose blockhash the
 * service sets), then its status (get_send_transaction_status).
 *
 * EVM fees mirror the service's tracker (src/service/sends/evm.ts): gas limit = eth_estimateGas
 * × 1.2, maxFeePerGas = 2 × base fee + priority fee; the service refuses a send unless the
 * balance covers value + gasLimit × maxFeePerGas, so Max leaves exactly that room. Solana: the
 * node's getFeeForMessage for the transfer message.
 */
import { base64 } from '@scure/base'
import type { SigilClient } from '../../../api/client'
import { transferCalldata } from '../../../chains/erc20'
import { formatUnits } from '../../amounts'
import { checkRecipient } from '../../recipients'
import { type BalanceView, balancesOf, nodeFailure, watchedBalance, watchedOn } from './balances'
import type { ActiveSession, Core } from '../core'
import { ExtensionError } from '../failures'
import type { NetworkInfo } from '../chains/networks'
import { nodeRpc, quantity, RpcRefused } from '../chains/nodeRpc'
import { requirePopupNetwork } from '../chains/popupNetwork'
import { solTransferMessage, solTransferTransactionHex } from './solanaTransfer'
import { associatedTokenAddress, splTransferMessage, TOKEN_ACCOUNT_SIZE } from '../../../chains/splToken'
import { solanaFailureWords } from './solanaErrors'
import { isImportedKey, nodeBalances, RAW_SEND_PREFIX, rawSendStatus, sendFromImportedKey, sendSolFromImportedKey } from './importedKeys'

const GWEI = 1_000_000_000n

/** What a send moves: the network, the two ends, the asset (`token`: an ERC-20 contract or an SPL mint) and the amount. */
export type SendInput = { caip2: string; from: string; to: string; token?: string | undefined; amount?: string | undefined }

/** EVM gas and fees, decimal strings, as reviewed and then sent. */
export type EvmFees = { gasLimit: string; maxFeePerGas: string; maxPriorityFeePerGas: string }

/** The estimate the Review step shows. Amounts are atomic-unit decimal strings. */
export type SendEstimate = {
  caip2: string
  networkName: string
  from: string
  to: string
  asset: { symbol: string; decimals: number; token?: string }
  native: { symbol: string; decimals: number }
  /** The expected fee, and the most it can be (equal on Solana). */
  fee: string
  maxFee: string
  balance: string
  nativeBalance: string
  /** The most that can be sent (native: the balance less the most the fee can be). */
  max: string
  /** Why the amount cannot be sent (too much, or the node expects the transfer to fail); absent when it can. */
  problem?: string
  /** The form field `problem` is about, when the user fixes it there (a Solana amount below rent exemption). */
  problemField?: 'amount'
  /**
   * Solana SOL sends to an address that holds nothing yet: the rent-exempt minimum of the account the
   * send creates (lamports, the node's), which the amount must reach.
   */
  newAccountRent?: string
  evm?: EvmFees
  /**
   * Solana token sends to an address that has no account for the token yet: the send creates the
   * recipient's associated token account, and the sender pays its rent (lamports, held by that account).
   */
  createsTokenAccount?: { address: string; rent: string }
}

type Prepared = { network: NetworkInfo; to: string; asset: BalanceView; native: BalanceView }

async function prepare(core: Core, client: SigilClient, session: ActiveSession, p: SendInput): Promise<Prepared> {
  const network = await requirePopupNetwork(core, p.caip2, p.token)
  const to = checkRecipient(network.family, p.to)
  if (!to.ok) throw new ExtensionError('INVALID_ARGUMENT', `to: ${to.reason}`)
  const from = checkRecipient(network.family, p.from)
  if (!from.ok) throw new ExtensionError('INVALID_ARGUMENT', `from: ${from.reason}`)
  if (to.address.toLowerCase() === from.address.toLowerCase())
    throw new ExtensionError('INVALID_ARGUMENT', 'to: send to another address than the sender')
  const balances = (await isImportedKey(client, session, p.from))
    ? await nodeBalances(core, network, p.from)
    : await balancesOf(client, session, network, p.from)
  const native = balances.find((b) => b.token === undefined)
  if (!native) throw new ExtensionError('REQUEST_FAILED', 'The service gave no native balance.')
  const listed = p.token === undefined ? native : balances.find((b) => b.token !== undefined && sameToken(network, b.token, p.token))
  // A token the user watches (wallet_watchAsset, Import token) is sent as the network's own are.
  const asset = listed ?? (p.token === undefined ? undefined : await watchedBalance(core, session, network, p.from, p.token))
  if (!asset) throw new ExtensionError('INVALID_ARGUMENT', `token: not one of ${network.name}’s tokens`)
  return { network, to: to.address, asset, native }
}

/** Token addresses compare case-blind on EVM (hex), exactly on Solana (base58). */
function sameToken(network: NetworkInfo, a: string, b: string | undefined): boolean {
  return network.family === 'evm' ? a.toLowerCase() === b?.toLowerCase() : a === b
}

/** Whether the recipient's associated token account for `mint` exists, and that address. */
async function recipientTokenAccount(core: Core, network: NetworkInfo, owner: string, mint: string) {
  const address = associatedTokenAddress(owner, mint)
  const { value } = await nodeRpc<{ value: unknown }>(core, network, 'getAccountInfo', [
    address,
    { encoding: 'base64', commitment: 'confirmed' },
  ])
  return { address, exists: value !== null && value !== undefined }
}

/**
 * The rent rules a SOL transfer must keep (the network refuses it at preflight otherwise): an
 * account it creates must get at least the rent-exempt minimum of a 0-byte account, and the
 * sender, when it holds that minimum, is either left with at least it or emptied (Max). The
 * minimum is the node's.
 */
async function solanaRentChecks(
  core: Core,
  network: NetworkInfo,
  to: string,
  p: { amount: bigint | undefined; max: bigint; balance: bigint; symbol: string; decimals: number },
): Promise<{ newAccountRent?: bigint; problem?: string }> {
  const [minimum, recipient] = await Promise.all([
    nodeRpc<number>(core, network, 'getMinimumBalanceForRentExemption', [0]),
    nodeRpc<{ value: number }>(core, network, 'getBalance', [to, { commitment: 'confirmed' }]),
  ])
  const rent = BigInt(minimum)
  const isNew = BigInt(recipient.value) === 0n
  const sol = (n: bigint) => `${formatUnits(n, p.decimals)} ${p.symbol}`
  const out = isNew ? { newAccountRent: rent } : {}
  if (p.amount === undefined || p.amount > p.max) return out
  if (isNew && p.amount < rent)
    return {
      ...out,
      problem: `A new Solana account needs at least ${sol(rent)} (rent exemption); send at least that much.`,
    }
  const left = p.max - p.amount
  if (p.balance >= rent && left > 0n && left < rent) {
    const most = p.max - rent
    return {
      ...out,
      problem:
        most > 0n
          ? `That would leave your account with less ${p.symbol} than its rent exemption (${sol(rent)}): send at most ${sol(most)}, or send everything (Max).`
          : `That would leave your account with less ${p.symbol} than its rent exemption (${sol(rent)}): send everything (Max).`,
    }
  }
  return out
}

/** Gas and fees of an EVM call as Send reviews them (also used by NFT sends, nfts.ts); `failure` when the node expects it to revert. */
export async function evmFees(core: Core, network: NetworkInfo, call: { from: string; to: string; value: bigint; data: string }) {
  const hex = (n: bigint) => `0x${n.toString(16)}`
  let gas: bigint
  try {
    gas = quantity(
      await nodeRpc(core, network, 'eth_estimateGas', [{ from: call.from, to: call.to, value: hex(call.value), data: call.data }]),
      'eth_estimateGas',
    )
  } catch (err) {
    if (err instanceof RpcRefused) return { failure: `The node expects this transaction to fail: ${err.rpcMessage}` }
    throw err
  }
  const block = await nodeRpc<{ baseFeePerGas?: string } | null>(core, network, 'eth_getBlockByNumber', ['latest', false])
  let priority: bigint
  try {
    priority = quantity(await nodeRpc(core, network, 'eth_maxPriorityFeePerGas', []), 'eth_maxPriorityFeePerGas')
  } catch (err) {
    if (!(err instanceof RpcRefused)) throw err
    priority = GWEI
  }
  const baseFee =
    block?.baseFeePerGas === undefined
      ? quantity(await nodeRpc(core, network, 'eth_gasPrice', []), 'eth_gasPrice')
      : quantity(block.baseFeePerGas, 'baseFeePerGas')
  const maxFeePerGas = 2n * baseFee + priority
  const gasLimit = (gas * 12n) / 10n
  return { gas, gasLimit, maxFeePerGas, priority, fee: gas * (baseFee + priority), maxFee: gasLimit * maxFeePerGas }
}

/** Estimate the fee and the most that can be sent; `problem` says why `amount` cannot be sent. */
export async function estimateSend(core: Core, client: SigilClient, session: ActiveSession, p: SendInput): Promise<SendEstimate> {
  const { network, to, asset, native } = await prepare(core, client, session, p)
  const amount = p.amount === undefined ? undefined : BigInt(p.amount)
  const balance = BigInt(asset.balance)
  const nativeBalance = BigInt(native.balance)
  const base = {
    caip2: network.caip2,
    networkName: network.name,
    from: p.from,
    to,
    asset: { symbol: asset.symbol, decimals: asset.decimals, ...(asset.token ? { token: asset.token } : {}) },
    native: { symbol: native.symbol, decimals: native.decimals },
    balance: asset.balance,
    nativeBalance: native.balance,
  }
  if (network.family === 'solana') {
    const { value: blockhash } = await nodeRpc<{ value: { blockhash: string } }>(core, network, 'getLatestBlockhash', [
      { commitment: 'confirmed' },
    ])
    const token = asset.token
    const account = token === undefined ? undefined : await recipientTokenAccount(core, network, to, token)
    const message =
      token === undefined
        ? solTransferMessage(p.from, to, amount ?? 0n, blockhash.blockhash)
        : splTransferMessage({
            from: p.from,
            to,
            mint: token,
            decimals: asset.decimals,
            amount: amount ?? 0n,
            createRecipientAccount: account?.exists === false,
            blockhash: blockhash.blockhash,
          })
    const answer = await nodeRpc<{ value: number | null }>(core, network, 'getFeeForMessage', [
      base64.encode(message),
      { commitment: 'confirmed' },
    ])
    const fee = BigInt(answer.value ?? 5000)
    if (token !== undefined && account) {
      const rent =
        account.exists === false
          ? BigInt(await nodeRpc<number>(core, network, 'getMinimumBalanceForRentExemption', [TOKEN_ACCOUNT_SIZE]))
          : 0n
      let problem: string | undefined
      if (amount !== undefined && amount > balance) problem = `Not enough ${asset.symbol}.`
      else if (fee + rent > nativeBalance)
        problem = `Not enough ${native.symbol} to pay the fee${rent > 0n ? ` and the rent of the recipient’s ${asset.symbol} account` : ''}.`
      return {
        ...base,
        fee: fee.toString(),
        maxFee: fee.toString(),
        max: balance.toString(),
        ...(rent > 0n ? { createsTokenAccount: { address: account.address, rent: rent.toString() } } : {}),
        ...(problem ? { problem } : {}),
      }
    }
    const max = nativeBalance > fee ? nativeBalance - fee : 0n
    const rent = await solanaRentChecks(core, network, to, {
      amount,
      max,
      balance: nativeBalance,
      symbol: native.symbol,
      decimals: native.decimals,
    })
    const problem =
      amount !== undefined && amount > max
        ? { problem: `Not enough ${native.symbol}: the amount plus the fee is more than the balance.` }
        : rent.problem
          ? { problem: rent.problem, problemField: 'amount' as const }
          : {}
    return {
      ...base,
      fee: fee.toString(),
      maxFee: fee.toString(),
      max: max.toString(),
      ...(rent.newAccountRent !== undefined ? { newAccountRent: rent.newAccountRent.toString() } : {}),
      ...problem,
    }
  }
  const token = asset.token
  let call: { from: string; to: string; value: bigint; data: string }
  if (token !== undefined) {
    // More than the balance would only make the estimate revert: estimate the whole balance instead.
    const moved = amount !== undefined && amount <= balance ? amount : balance
    call = { from: p.from, to: token, value: 0n, data: transferCalldata(to, moved) }
  } else {
    // A plain account's gas does not depend on the value; estimate without it so Max can be estimated.
    const code = await nodeRpc<string>(core, network, 'eth_getCode', [to, 'latest'])
    call = { from: p.from, to, value: code === '0x' || code === '' ? 0n : (amount ?? 0n), data: '0x' }
  }
  const fees = await evmFees(core, network, call)
  if ('failure' in fees) {
    return { ...base, fee: '0', maxFee: '0', max: '0', problem: fees.failure }
  }
  const max = token !== undefined ? balance : nativeBalance > fees.maxFee ? nativeBalance - fees.maxFee : 0n
  let problem: string | undefined
  if (amount !== undefined && amount > max) {
    problem =
      token !== undefined
        ? `Not enough ${asset.symbol}.`
        : `Not enough ${native.symbol}: the amount plus the most the fee can cost is more than the balance.`
  } else if (token !== undefined && fees.maxFee > nativeBalance) {
    problem = `Not enough ${native.symbol} to pay the fee.`
  }
  return {
    ...base,
    fee: fees.fee.toString(),
    maxFee: fees.maxFee.toString(),
    max: max.toString(),
    evm: { gasLimit: fees.gasLimit.toString(), maxFeePerGas: fees.maxFeePerGas.toString(), maxPriorityFeePerGas: fees.priority.toString() },
    ...(problem ? { problem } : {}),
  }
}

/** Submit a reviewed send; returns the id to poll. EVM sends carry the reviewed gas and fees. */
export async function submitSend(
  core: Core,
  client: SigilClient,
  session: ActiveSession,
  p: SendInput & { amount: string; evm?: EvmFees | undefined },
): Promise<{ sendTransactionStatusId: string; activityStatus: string }> {
  const network = await requirePopupNetwork(core, p.caip2, p.token)
  const to = checkRecipient(network.family, p.to)
  if (!to.ok) throw new ExtensionError('INVALID_ARGUMENT', `to: ${to.reason}`)
  const amount = BigInt(p.amount)
  if (amount <= 0n) throw new ExtensionError('INVALID_ARGUMENT', 'amount: must be more than 0')
  const organizationId = session.record.organizationId
  let res: { sendTransactionStatusId?: string; activity: { status: string } }
  try {
    if (network.family === 'solana') {
      if (to.address === p.from) throw new ExtensionError('INVALID_ARGUMENT', 'to: send to another address than the sender')
      const token = p.token === undefined ? undefined : network.tokens.find((t) => t.address === p.token)
      if (p.token !== undefined && !token) throw new ExtensionError('INVALID_ARGUMENT', `token: not one of ${network.name}’s tokens`)
      if (await isImportedKey(client, session, p.from)) {
        if (token) throw new ExtensionError('INVALID_ARGUMENT', 'token: tokens are sent from wallet accounts only, not imported keys')
        return await sendSolFromImportedKey(core, client, session, network, { from: p.from, to: to.address, amount })
      }
      const message = token
        ? splTransferMessage({
            from: p.from,
            to: to.address,
            mint: token.address,
            decimals: token.decimals,
            amount,
            createRecipientAccount: !(await recipientTokenAccount(core, network, to.address, token.address)).exists,
          })
        : solTransferMessage(p.from, to.address, amount)
      const unsignedTransaction = solTransferTransactionHex(message)
      res = await client.solSendTransaction({ organizationId, caip2: network.caip2, unsignedTransaction, signWiths: [p.from] })
    } else {
      const token = p.token?.toLowerCase()
      if (
        token !== undefined &&
        !network.tokens.some((t) => t.address.toLowerCase() === token) &&
        !(await watchedOn(core, session, network)).some((w) => w.address.toLowerCase() === token)
      )
        throw new ExtensionError('INVALID_ARGUMENT', `token: not one of ${network.name}’s tokens`)
      if (!p.evm) throw new ExtensionError('INVALID_ARGUMENT', 'evm: the reviewed gas and fees are required')
      if (await isImportedKey(client, session, p.from))
        return await sendFromImportedKey(core, client, session, network, {
          from: p.from,
          to: to.address,
          amount,
          token: p.token,
          evm: p.evm,
        })
      const call =
        p.token === undefined ? { to: to.address, value: amount.toString() } : { to: p.token, data: transferCalldata(to.address, amount) }
      res = await client.ethSendTransaction({ organizationId, from: p.from, caip2: network.caip2, calls: [call], ...p.evm })
    }
  } catch (err) {
    // A send from an imported key goes to the node directly: its preflight refusal in words.
    if (network.family === 'solana' && err instanceof RpcRefused && err.method === 'sendTransaction')
      throw new ExtensionError(
        'REQUEST_FAILED',
        solanaFailureWords({ rpcMessage: err.rpcMessage }) ?? 'The network refused the transaction.',
      )
    throw nodeFailure(err, network)
  }
  if (res.sendTransactionStatusId === undefined) {
    const status = res.activity.status.replace('ACTIVITY_STATUS_', '').toLowerCase().replace(/_/g, ' ')
    throw new ExtensionError('REQUEST_FAILED', `The send was not started (${status}); see Activity.`)
  }
  return { sendTransactionStatusId: res.sendTransactionStatusId, activityStatus: res.activity.status }
}

/** A send's state for the popup: pending until INCLUDED (confirmed) or FAILED (with the decoded reason). */
export type SendStatusView = { state: 'pending' | 'confirmed' | 'failed'; txStatus: string; txHash?: string; message?: string }

type StatusResponse = Awaited<ReturnType<SigilClient['getSendTransactionStatus']>>

/** The readable reason of a failed send: the decoded revert, the Solana error, or the service's message. */
export function failureMessage(r: StatusResponse): string {
  const chain = r.error?.eth?.revertChain ?? r.error?.revertChain ?? []
  const revert = chain.map((e) => e.displayMessage ?? e.native?.message ?? e.custom?.errorName).find((m) => m)
  const solana = r.error?.solana ? solanaFailureWords(r.error.solana) : undefined
  // A send the user sped up or cancelled: the service ends it "replaced: …".
  if (/^replaced:/.test(r.txError ?? '')) return 'Replaced by a newer transaction (sped up or cancelled).'
  return revert ?? solana ?? r.txError ?? r.error?.message ?? 'The transaction failed.'
}

/** The status of a send started by {@link submitSend} (from the node's receipt for a send from an imported key). */
export async function sendStatus(
  core: Core,
  client: SigilClient,
  session: ActiveSession,
  p: { sendTransactionStatusId: string },
): Promise<SendStatusView> {
  if (p.sendTransactionStatusId.startsWith(RAW_SEND_PREFIX)) {
    const rest = p.sendTransactionStatusId.slice(RAW_SEND_PREFIX.length)
    const at = rest.lastIndexOf(':')
    return rawSendStatus(core, await requirePopupNetwork(core, rest.slice(0, at)), rest.slice(at + 1))
  }
  const r = await client.getSendTransactionStatus({
    organizationId: session.record.organizationId,
    sendTransactionStatusId: p.sendTransactionStatusId,
  })
  const txHash = r.eth?.txHash ?? r.solana?.signature
  const state = r.txStatus === 'INCLUDED' ? 'confirmed' : r.txStatus === 'FAILED' ? 'failed' : 'pending'
  return { state, txStatus: r.txStatus, ...(txHash ? { txHash } : {}), ...(state === 'failed' ? { message: failureMessage(r) } : {}) }
}
