import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import { solanaParties } from '../../chains/transfers.js'
import type { solSendTransaction, solSendTransactionV1 } from '../../api/operations/sol_send_transaction.js'
import { requireNetwork } from '../chains/assets.js'
import { parseUnsignedSolana, type SolanaSendRequest } from '../sends/solana.js'
import { recordSend } from '../sends/record.js'
import type { WalletAccountRow } from '../store/wallets.js'
import { requireAccount } from '../signing/walletLookup.js'
import { enforceVelocity, solanaMovements } from '../velocity/enforce.js'
import { solanaTxFromMessage } from '../../chains/policy/solanaTx.js'
import type { ActivityHandler } from './types.js'
import { base58 } from '@scure/base'

type Params = z.infer<typeof solSendTransaction.parameters> | z.infer<typeof solSendTransactionV1.parameters>

/** Legacy and v0 transactions fit in one packet (1232 bytes). */
const MAX_TRANSACTION_BYTES = 1232

/**
 * sol_send_transaction: checks the transaction and that `signWith` is one of its signers, and
 * records the send in the activity's transaction; the tracker sets a fresh blockhash when asked
 * (or when the transaction has none), signs, broadcasts with preflight and follows it.
 *
 * @throws INVALID_ARGUMENT when parameters.caip2 is not a configured Solana network, parameters.sponsor is true, parameters.unsignedTransaction is over 1232 bytes or not a serialized Solana transaction, or a signer is not a Solana account, not a required signer of the transaction, listed twice or missing
 * @throws NOT_FOUND when parameters.signWith (or an address of parameters.signWiths) names no wallet account of the organization
 * @throws VELOCITY_LIMIT_EXCEEDED when a velocity control of the organization would be exceeded by what the transaction moves out of its signers (src/service/velocity/enforce.ts)
 */
export const handler: ActivityHandler<Params> = async (ctx, p) => {
  const network = requireNetwork(ctx.rt.config.networks, p.caip2, 'parameters.caip2')
  if (network.family !== 'solana') throw fieldError('INVALID_ARGUMENT', 'parameters.caip2', `${network.caip2} is not a Solana network`)
  if (p.sponsor)
    throw fieldError('INVALID_ARGUMENT', 'parameters.sponsor', 'fee sponsorship is not offered by this service; send with sponsor false')
  const hex = p.unsignedTransaction.replace(/^0x/, '')
  if (hex.length / 2 > MAX_TRANSACTION_BYTES)
    throw fieldError('INVALID_ARGUMENT', 'parameters.unsignedTransaction', `at most ${MAX_TRANSACTION_BYTES} bytes`)
  let tx: ReturnType<typeof parseUnsignedSolana>
  try {
    tx = parseUnsignedSolana(hex)
  } catch {
    throw fieldError(
      'INVALID_ARGUMENT',
      'parameters.unsignedTransaction',
      'not a serialized Solana transaction (signature slots, then a legacy or v0 message)',
    )
  }
  const wanted =
    'signWiths' in p ? p.signWiths.map((a, i) => [a, `parameters.signWiths.${i}`] as const) : [[p.signWith, 'parameters.signWith'] as const]
  const signers = tx.message.accountKeys.slice(0, tx.message.numRequiredSignatures).map((k) => base58.encode(k))
  const accounts: WalletAccountRow[] = []
  for (const [address, field] of wanted) {
    const account = await requireAccount(ctx.tx, ctx.organizationId, address, field)
    if (account.address_format !== 'ADDRESS_FORMAT_SOLANA') {
      throw fieldError('INVALID_ARGUMENT', field, `a ${account.address_format} account cannot sign on ${network.caip2}`)
    }
    if (!signers.includes(account.address)) throw fieldError('INVALID_ARGUMENT', field, 'not a required signer of this transaction')
    if (accounts.some((a) => a.id === account.id)) throw fieldError('INVALID_ARGUMENT', field, 'listed twice')
    accounts.push(account)
  }
  const [account] = accounts
  if (!account) throw fieldError('INVALID_ARGUMENT', 'parameters.signWiths', 'at least one signer')
  await enforceVelocity(ctx, {
    movements: solanaMovements(
      network.caip2,
      solanaTxFromMessage(tx.message),
      accounts.map((a) => a.address),
    ),
    walletKey: account.wallet_id,
  })
  const request: SolanaSendRequest = {
    unsignedTransaction: hex,
    signers: accounts.map((a) => ({ accountId: a.id, address: a.address })),
    ...(p.recentBlockhash !== undefined ? { recentBlockhash: p.recentBlockhash } : {}),
  }
  return { sendTransactionStatusId: await recordSend(ctx, network, account, request, solanaParties(tx.message)) }
}
