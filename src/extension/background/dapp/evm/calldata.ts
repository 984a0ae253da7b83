/**
 * Transaction call data for the approval window: the token calls that hand
 * over spending rights or move tokens, decoded with viem's ABI decoder so the user reads
 * "approve, spender 0x…, unlimited" instead of hex. The raw data is still shown beside it.
 * Amounts are in the token's units with its symbol ("10 USDC", exact) when its decimals are
 * known (tokenInfo.ts); otherwise the raw integer, saying the decimals are unknown.
 */
import { decodeFunctionData, encodeFunctionData, formatUnits, getAddress, type Hex, parseAbi } from 'viem'
import { amountText, isUnlimited } from '../../approval/text'
import type { DecodedCall } from '../../../protocol/approvalView'
import type { Core } from '../../core'
import { configuredTokens, readToken, type TokenFacts, type TokenNetwork } from './tokenInfo'

/** ERC-20 approve/transfer/transferFrom (the same selectors as ERC-721's) and ERC-721/1155 setApprovalForAll. */
export const TOKEN_ABI = parseAbi([
  'function approve(address spender, uint256 amount)',
  'function transfer(address to, uint256 amount)',
  'function transferFrom(address from, address to, uint256 amount)',
  'function setApprovalForAll(address operator, bool approved)',
])

/** An amount of the token: "10 USDC" (exact), "Unlimited USDC", or the raw integer when the decimals are unknown. */
function tokenAmount(amount: bigint, token: TokenFacts | null, approval = false): string {
  if (token === null) return approval && isUnlimited(amount) ? amountText(amount) : `${amount} (token decimals unknown)`
  const symbol = token.symbol ?? '(no symbol)'
  if (approval && isUnlimited(amount)) return `Unlimited ${symbol}`
  return `${formatUnits(amount, token.decimals)} ${symbol}`
}

/**
 * The readable form of `data` when it calls one of {@link TOKEN_ABI}; null for anything else (only
 * the raw data is shown). `token` is the called contract's units when known (an ERC-20's).
 */
export function decodeCalldata(data: string, token: TokenFacts | null = null): DecodedCall | null {
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
          [
            'Action',
            amount === 0n
              ? 'Revoke the approval'
              : token
                ? 'Approve spending (ERC-20)'
                : 'Approve spending (ERC-20 amount, or ERC-721 token id)',
          ],
          ['Token contract', '(the "To" address)'],
          ['Spender', getAddress(spender)],
          ['Amount', tokenAmount(amount, token, true)],
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
          ['Amount', tokenAmount(amount, token)],
        ],
        warnings,
      }
    }
    case 'transferFrom': {
      const [from, to, amount] = call.args
      return {
        method: 'transferFrom(address,address,uint256)',
        rows: [
          ['Action', token ? 'Move tokens (ERC-20)' : 'Move tokens (ERC-20 amount, or ERC-721 token id)'],
          ['From', getAddress(from)],
          ['Recipient', getAddress(to)],
          ['Amount', tokenAmount(amount, token)],
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

/**
 * {@link decodeCalldata} of a call to `to` on `network`, with the token's units read when the call
 * moves or approves an amount (configured tokens without a call, others from the node) and a
 * warning when the token claims a configured token's symbol.
 */
export async function decodeTokenCall(
  core: Core,
  network: TokenNetwork | undefined,
  to: string,
  data: string,
): Promise<DecodedCall | null> {
  const plain = decodeCalldata(data)
  if (plain === null || network === undefined || plain.method.startsWith('setApprovalForAll')) return plain
  const { token, warnings } = await readToken(core.deps.fetch, network, await configuredTokens(core, network), to)
  const decoded = decodeCalldata(data, token)
  return decoded === null ? null : { ...decoded, warnings: [...warnings, ...decoded.warnings] }
}
