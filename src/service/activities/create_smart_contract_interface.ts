import type { z } from 'zod'
import { SigilError } from '../../api/errors.js'
import { MAX_SMART_CONTRACT_INTERFACES, MAX_SMART_CONTRACT_INTERFACE_DEPTH } from '../../api/limits.js'
import {
  CreateSmartContractInterfaceParams,
  type createSmartContractInterface,
} from '../../api/operations/create_smart_contract_interface.js'
import { addressKey, isEvmAddress, isSolanaAddress, parseEthereumAbi, parseSolanaIdl } from '../../chains/contractInterfaces.js'
import { countSmartContractInterfacesLocked, insertSmartContractInterface } from '../store/smartContractInterfaces.js'
import type { ActivityHandler } from './types.js'

/**
 * The parameters as the service reads them (src/service/http/dispatch.ts, where the wire schema runs,
 * before anything is recorded): the wire schema, then the interface checked against its `type` with
 * the chains' parsers, and so is the address. A refusal is INVALID_ARGUMENT naming
 * `parameters.smartContractInterface` or `parameters.smartContractAddress`.
 */
export const CheckedSmartContractInterfaceParams = CreateSmartContractInterfaceParams.superRefine((p, ctx) => {
  const ethereum = p.type === 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM'
  const checked = ethereum
    ? parseEthereumAbi(p.smartContractInterface, MAX_SMART_CONTRACT_INTERFACE_DEPTH)
    : parseSolanaIdl(p.smartContractInterface, MAX_SMART_CONTRACT_INTERFACE_DEPTH)
  if (!checked.ok) {
    const what = ethereum ? 'not an Ethereum ABI' : 'not a Solana IDL'
    ctx.addIssue({ code: 'custom', path: ['smartContractInterface'], message: `${what}: ${checked.problem}` })
  }
  if (ethereum ? !isEvmAddress(p.smartContractAddress) : !isSolanaAddress(p.smartContractAddress)) {
    ctx.addIssue({
      code: 'custom',
      path: ['smartContractAddress'],
      message: ethereum ? 'expected a 0x-prefixed 20-byte hex address' : 'expected a base58 Solana address (32 bytes)',
    })
  }
})

/**
 * create_smart_contract_interface (hosted OpenAPI v1CreateSmartContractInterfaceIntent): stores the
 * ABI or IDL (already checked against its type by {@link CheckedSmartContractInterfaceParams}) as given, with its address. Several
 * interfaces may name one address. An ABI's custom errors are indexed for revert decoding.
 *
 * @throws FAILED_PRECONDITION when the organization already holds MAX_SMART_CONTRACT_INTERFACES (100) interfaces
 * @throws INTERNAL when the ABI the schema accepted does not parse here (a bug)
 */
export const handler: ActivityHandler<z.infer<typeof createSmartContractInterface.parameters>> = async (ctx, p) => {
  if ((await countSmartContractInterfacesLocked(ctx.tx, ctx.organizationId)) >= MAX_SMART_CONTRACT_INTERFACES) {
    throw new SigilError(
      'FAILED_PRECONDITION',
      `the organization holds ${MAX_SMART_CONTRACT_INTERFACES} smart contract interfaces, the most it may; delete one first`,
    )
  }
  const ethereum = p.type === 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM'
  let errorSelectors: string[] = []
  if (ethereum) {
    const abi = parseEthereumAbi(p.smartContractInterface, MAX_SMART_CONTRACT_INTERFACE_DEPTH)
    if (!abi.ok) throw new SigilError('INTERNAL', 'the ABI the request schema accepted does not parse')
    errorSelectors = abi.errorSelectors
  }
  const id = crypto.randomUUID()
  await insertSmartContractInterface(ctx.tx, {
    id,
    orgId: ctx.organizationId,
    type: p.type,
    address: p.smartContractAddress,
    addressKey: addressKey(ethereum ? 'ethereum' : 'solana', p.smartContractAddress),
    json: p.smartContractInterface,
    label: p.label,
    notes: p.notes ?? '',
    errorSelectors,
    now: ctx.now,
  })
  return { smartContractInterfaceId: id }
}
