/**
 * eth_undelegate_7702 (hosted OpenAPI v1EthUndelegate7702Intent): clears an account's EIP-7702
 * delegation with a type-4 transaction from the account to itself carrying an authorization to
 * the zero address; tracked like any send (get_send_transaction_status).
 */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'
import { EvmAddress, Quantity, SendTransactionResult } from './eth_send_transaction.js'

export const ethUndelegate7702 = defineSubmit({
  name: 'eth_undelegate_7702',
  path: '/public/v1/submit/eth_undelegate_7702',
  type: 'ACTIVITY_TYPE_ETH_UNDELEGATE_7702',
  intentKey: 'ethUndelegate7702Intent',
  resultKey: 'ethUndelegate7702Result',
  parameters: z.object({
    from: EvmAddress,
    caip2: z.string().min(1, { error: 'required' }).max(64),
    nonce: Quantity.optional(),
    gasLimit: Quantity.optional(),
    maxFeePerGas: Quantity.optional(),
    maxPriorityFeePerGas: Quantity.optional(),
  }),
  result: SendTransactionResult,
})
