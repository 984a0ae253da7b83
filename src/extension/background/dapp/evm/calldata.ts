/**
 * Transaction call data for the approval window: the token calls that hand
 * over spending rights or move tokens, decoded with viem's ABI decoder so the user reads
 * "approve, spender 0x…, unlimited" instead of hex. The raw data is still shown beside it.
 */
import { decodeFunctionData, encodeFunctionData, getAddress, type Hex, parseAbi } from 'viem'
import { amountText, isUnlimited } from '../../approval/text'
import type { DecodedCall } from '../../../protocol/approvalView'

/** ERC-20 approve/transfer/transferFrom (the same selectors as ERC-721's) and ERC-721/1155 setApprovalForAll. */
export const TOKEN_ABI = parseAbi([
  'function approve(address spender, uint256 amount)',
  'function transfer(address to, uint256 amount)',
  'function transferFrom(address from, address to, uint256 amount)',
  'function setApprovalForAll(address operator, bool approved)',
])

/** The readable form of `data` when it calls one of {@link TOKEN_ABI}; null for anything else (only the raw data is shown). */
export function decodeCalldata(data: string): DecodedCall | null {
  if (!/^0x[0-9a-fA-F]{8}/.test(data)) return null
  let call: ReturnType<typeof decodeFunctionData<typeof TOKEN_ABI>>
  try {
    call = decodeFunctionData({ abi: TOKEN_ABI, data: data as Hex })
  } catch {
    return null
  }
  const warnings: string[] = []
  // Bytes past the arguments, or non-canonical padding, are ignored by the token but worth a flag.
  if (encodeFunctionData({ abi: TOKEN_ABI, ...call } as Parameters<typeof encodeFunctionData>[0]).toLowerCase() !== data.toLowerCase()) {
    warnings.push('The call data is not the plain encoding of this call (extra or non-canonical bytes).')
  }
  switch (call.functionName) {
    case 'approve': {
      const [spender, amount] = call.args
      if (isUnlimited(amount)) warnings.push(`Unlimited approval: ${getAddress(spender)} can spend all of this token.`)
      return {
        method: 'approve(address,uint256)',
        rows: [
          ['Action', amount === 0n ? 'Revoke the approval' : 'Approve spending (ERC-20 amount, or ERC-721 token id)'],
          ['Token contract', '(the "To" address)'],
          ['Spender', getAddress(spender)],
          ['Amount', amountText(amount)],
        ],
        warnings,
      }
    }
    case 'transfer': {
      const [to, amount] = call.args
      return {
        method: 'transfer(address,uint256)',
        rows: [
          ['Action', 'Send tokens (ERC-20)'],
          ['Recipient', getAddress(to)],
          ['Amount', amount.toString(10)],
        ],
        warnings,
      }
    }
    case 'transferFrom': {
      const [from, to, amount] = call.args
      return {
        method: 'transferFrom(address,address,uint256)',
        rows: [
          ['Action', 'Move tokens (ERC-20 amount, or ERC-721 token id)'],
          ['From', getAddress(from)],
          ['Recipient', getAddress(to)],
          ['Amount', amount.toString(10)],
        ],
        warnings,
      }
    }
    case 'setApprovalForAll': {
      const [operator, approved] = call.args
      if (approved) warnings.push(`${getAddress(operator)} can move all your NFTs of this collection.`)
      return {
        method: 'setApprovalForAll(address,bool)',
        rows: [
          ['Action', approved ? 'Approve an operator for ALL your NFTs of this collection' : 'Revoke an operator'],
          ['Operator', getAddress(operator)],
          ['Approved', String(approved)],
        ],
        warnings,
      }
    }
  }
}
