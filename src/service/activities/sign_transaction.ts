import type { z } from 'zod'
import { invalidField } from '../../api/errors.js'
import type { signTransaction, signTransactionV1 } from '../../api/operations/sign_transaction.js'
import { namingFields, renamed } from '../fieldNames.js'
import { signBitcoinTransaction } from '../../chains/sign/bitcoinTransaction.js'
import { signEthereumTransaction } from '../../chains/sign/ethereumTransaction.js'
import { signSolanaTransaction } from '../../chains/sign/solanaTransaction.js'
import { signTronTransaction } from '../../chains/sign/tronTransaction.js'
import { hexToBytes } from '../../crypto/encoding.js'
import { openSignerKey, requireSigner } from '../signing/signer.js'
import { enforceVelocity, evmMovements, solanaMovementsOfHex, type Movement } from '../velocity/enforce.js'
import { ethTxFromSerialized } from '../../chains/policy/ethTx.js'
import type { ActivityHandler } from './types.js'

type Params = z.infer<typeof signTransaction.parameters>

const CURVE_OF_TYPE: Partial<Record<Params['type'], string>> = {
  TRANSACTION_TYPE_ETHEREUM: 'CURVE_SECP256K1',
  TRANSACTION_TYPE_SOLANA: 'CURVE_ED25519',
  TRANSACTION_TYPE_BITCOIN: 'CURVE_SECP256K1',
  TRANSACTION_TYPE_TRON: 'CURVE_SECP256K1',
}

/**
 * sign_transaction V2 (wire-formats B4): Ethereum (legacy, EIP-2930, EIP-1559), Solana, Bitcoin
 * (a PSBT, hex: every input the key controls is signed, chains/sign/bitcoinTransaction.ts) and Tron
 * (`raw_data_hex`; chains/sign/tronTransaction.ts); `signedTransaction` is hex without `0x` (for
 * Bitcoin the signed PSBT, not finalized; for Tron the signed `Transaction` protobuf).
 *
 * @throws INVALID_ARGUMENT when parameters.type is not supported, the account's curve does not sign that type, or parameters.unsignedTransaction is not an unsigned transaction of that type with the account among its signers (for Bitcoin: not a PSBT, no input spends an output of the key, or an input of the key cannot be signed)
 * @throws NOT_FOUND when parameters.signWith names no wallet account or private key of the organization
 * @throws FAILED_PRECONDITION when parameters.signWith is a disabled private key
 * @throws VELOCITY_LIMIT_EXCEEDED when a velocity control of the organization would be exceeded by what the transaction moves (src/service/velocity/enforce.ts)
 */
export const handler: ActivityHandler<Params> = async (ctx, p) => {
  const curve = CURVE_OF_TYPE[p.type]
  if (!curve) throw invalidField('parameters.type', `${p.type} is not supported by this service`)
  const signer = await requireSigner(ctx.tx, ctx.organizationId, p.signWith, 'parameters.signWith')
  if (signer.curve !== curve) {
    throw invalidField('parameters.signWith', `${p.type} needs a ${curve} key; this one is ${signer.curve}`)
  }
  await enforceVelocity(ctx, {
    movements: movementsOf(p, signerAddresses(signer)),
    walletKey: signer.kind === 'walletAccount' ? signer.account.wallet_id : signer.privateKey.id,
  })
  const privateKey = openSignerKey(ctx.rt, signer)
  try {
    const signedTransaction = namingFields(
      (f) => (f === 'unsignedTransaction' ? 'parameters.unsignedTransaction' : `parameters.${f}`),
      () => {
        if (p.type === 'TRANSACTION_TYPE_ETHEREUM')
          return signEthereumTransaction({ privateKey, unsignedTransaction: p.unsignedTransaction })
        if (p.type === 'TRANSACTION_TYPE_TRON') return signTronTransaction({ privateKey, unsignedTransaction: p.unsignedTransaction })
        if (p.type === 'TRANSACTION_TYPE_BITCOIN') {
          return signBitcoinTransaction({ privateKey, unsignedTransaction: p.unsignedTransaction }).signedTransaction
        }
        return signSolanaTransaction({ privateKey, publicKey: hexToBytes(signer.publicKey), unsignedTransaction: p.unsignedTransaction })
      },
    )
    return { signedTransaction }
  } finally {
    privateKey.fill(0)
  }
}

/** sign_transaction V1: as V2 with `privateKeyId` for `signWith`; errors name parameters.privateKeyId. */
export const handlerV1: ActivityHandler<z.infer<typeof signTransactionV1.parameters>> = async (ctx, p) => {
  const { privateKeyId, ...rest } = p
  try {
    return await handler(ctx, { ...rest, signWith: privateKeyId })
  } catch (e) {
    throw renamed(e, (f) => (f === 'parameters.signWith' ? 'parameters.privateKeyId' : f))
  }
}

/** What the transaction moves out of the signer, for velocity controls (Bitcoin and Tron: not measured as amounts). */
function movementsOf(p: Params, signerAddresses: readonly string[]): Movement[] {
  if (p.type === 'TRANSACTION_TYPE_ETHEREUM') {
    const tx = ethTxFromSerialized(p.unsignedTransaction)
    if (!tx?.to) return []
    const caip2 = tx.chain_id !== undefined ? `eip155:${tx.chain_id}` : undefined
    // The sender is the signer; evmTransfers only labels the movement with it.
    return evmMovements(caip2, ZERO_ADDRESS, [{ to: tx.to, value: tx.value, data: tx.data }])
  }
  if (p.type === 'TRANSACTION_TYPE_SOLANA') return solanaMovementsOfHex(undefined, p.unsignedTransaction, signerAddresses)
  return []
}

const ZERO_ADDRESS = `0x${'00'.repeat(20)}`

/** The addresses the signer signs for (a private key may have several formats). */
function signerAddresses(signer: Awaited<ReturnType<typeof requireSigner>>): string[] {
  return signer.kind === 'walletAccount' ? [signer.account.address] : signer.privateKey.addresses.map((a) => a.address)
}
