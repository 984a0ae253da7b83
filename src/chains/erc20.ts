/**
 * The two ERC-20 (EIP-20) calls Sigil reads and recognizes: `balanceOf(address)` to read a
 * balance with `eth_call`, and `transfer(address,uint256)` calldata of a send, decoded for the
 * transaction history. ABI encoding: a 4-byte selector (first bytes of keccak256 of the
 * signature), then each argument as one 32-byte word.
 */

/** keccak256("balanceOf(address)")[0..4]. */
export const BALANCE_OF_SELECTOR = '0x70a08231'
/** keccak256("transfer(address,uint256)")[0..4]. */
export const TRANSFER_SELECTOR = '0xa9059cbb'

const word = (hex: string) => hex.padStart(64, '0')

/** Calldata of `balanceOf(owner)`. */
export function balanceOfCalldata(owner: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(owner)) throw new TypeError('owner is not an EVM address')
  return `${BALANCE_OF_SELECTOR}${word(owner.slice(2).toLowerCase())}`
}

/** Calldata of `transfer(to, amount)`. */
export function transferCalldata(to: string, amount: bigint): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(to)) throw new TypeError('to is not an EVM address')
  if (amount < 0n || amount >= 2n ** 256n) throw new RangeError('amount is not a uint256')
  return `${TRANSFER_SELECTOR}${word(to.slice(2).toLowerCase())}${word(amount.toString(16))}`
}

/**
 * The recipient (lowercase) and amount of `transfer(address,uint256)` calldata; undefined for any
 * other calldata (another selector, another length, an address word with its high bytes set).
 */
export function decodeTransferCalldata(data: string | undefined): { to: string; amount: bigint } | undefined {
  if (!data) return undefined
  const hex = data.toLowerCase()
  if (!hex.startsWith(TRANSFER_SELECTOR) || hex.length !== 10 + 128 || !/^[0-9a-f]*$/.test(hex.slice(2))) return undefined
  const to = hex.slice(10, 74)
  if (!to.startsWith('0'.repeat(24))) return undefined
  return { to: `0x${to.slice(24)}`, amount: BigInt(`0x${hex.slice(74)}`) }
}

/** A uint256 return value (the first 32-byte word of `eth_call`'s result); undefined when the result is shorter or not hex. */
export function decodeUint256(result: unknown): bigint | undefined {
  if (typeof result !== 'string' || !/^0x[0-9a-fA-F]*$/.test(result) || result.length < 66) return undefined
  return BigInt(`0x${result.slice(2, 66)}`)
}
