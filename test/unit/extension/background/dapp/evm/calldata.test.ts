import { encodeFunctionData, maxUint256, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeCalldata } from '@/src/extension/background/dapp/evm/calldata'

const SPENDER = '0x5555555555555555555555555555555555555555'
const FROM = '0x4242424242424242424242424242424242424242'
const abi = parseAbi([
  'function approve(address spender, uint256 amount)',
  'function transfer(address to, uint256 amount)',
  'function transferFrom(address from, address to, uint256 amount)',
  'function setApprovalForAll(address operator, bool approved)',
  'function mint(uint256 amount)',
])

describe('transaction call data', () => {
  it('approve(max) is "unlimited" with a warning; its selector is 0x095ea7b3', () => {
    const data = encodeFunctionData({ abi, functionName: 'approve', args: [SPENDER, maxUint256] })
    expect(data.slice(0, 10)).toBe('0x095ea7b3')
    expect(decodeCalldata(data)).toEqual({
      method: 'approve(address,uint256)',
      rows: [
        ['Action', 'Approve spending (ERC-20 amount, or ERC-721 token id)'],
        ['Token contract', '(the "To" address)'],
        ['Spender', SPENDER],
        ['Amount', `unlimited (${maxUint256})`],
      ],
      warnings: [`Unlimited approval: ${SPENDER} can spend all of this token.`],
    })
    const huge = decodeCalldata(encodeFunctionData({ abi, functionName: 'approve', args: [SPENDER, 1n << 255n] }))
    expect(huge?.rows).toContainEqual(['Amount', `unlimited (${1n << 255n})`])
    const small = decodeCalldata(encodeFunctionData({ abi, functionName: 'approve', args: [SPENDER, 1000n] }))
    expect(small?.rows).toContainEqual(['Amount', '1000 (token decimals unknown)'])
    expect(small?.warnings).toEqual([])
    expect(decodeCalldata(encodeFunctionData({ abi, functionName: 'approve', args: [SPENDER, 0n] }))?.rows[0]).toEqual([
      'Action',
      'Revoke the approval',
    ])
  })

  it('transfer (0xa9059cbb) and transferFrom (0x23b872dd): recipient and the raw amount when the token is not known', () => {
    const t = encodeFunctionData({ abi, functionName: 'transfer', args: [SPENDER, 5n] })
    expect(t.slice(0, 10)).toBe('0xa9059cbb')
    expect(decodeCalldata(t)).toMatchObject({
      method: 'transfer(address,uint256)',
      rows: [
        ['Action', 'Send tokens (ERC-20)'],
        ['Recipient', SPENDER],
        ['Amount', '5 (token decimals unknown)'],
      ],
      warnings: [],
    })
    const tf = encodeFunctionData({ abi, functionName: 'transferFrom', args: [FROM, SPENDER, 7n] })
    expect(tf.slice(0, 10)).toBe('0x23b872dd')
    expect(decodeCalldata(tf)?.rows).toEqual([
      ['Action', 'Move tokens (ERC-20 amount, or ERC-721 token id)'],
      ['From', FROM],
      ['Recipient', SPENDER],
      ['Amount', '7 (token decimals unknown)'],
    ])
  })

  it("with the token's units: exact amounts with its symbol, 'Unlimited <symbol>' for a max approval", () => {
    const usdc = { decimals: 6, symbol: 'USDC', configured: false }
    expect(decodeCalldata(encodeFunctionData({ abi, functionName: 'transfer', args: [SPENDER, 10_000_000n] }), usdc)?.rows).toEqual([
      ['Action', 'Send tokens (ERC-20)'],
      ['Recipient', SPENDER],
      ['Amount', '10 USDC'],
    ])
    // Exact, never rounded: one atomic unit past 10.
    const tf = decodeCalldata(encodeFunctionData({ abi, functionName: 'transferFrom', args: [FROM, SPENDER, 10_000_001n] }), usdc)
    expect(tf?.rows).toContainEqual(['Amount', '10.000001 USDC'])
    expect(tf?.rows).toContainEqual(['Action', 'Move tokens (ERC-20)'])
    const max = decodeCalldata(encodeFunctionData({ abi, functionName: 'approve', args: [SPENDER, maxUint256] }), usdc)
    expect(max?.rows).toContainEqual(['Amount', 'Unlimited USDC'])
    expect(max?.rows).toContainEqual(['Action', 'Approve spending (ERC-20)'])
    const noSymbol = decodeCalldata(encodeFunctionData({ abi, functionName: 'approve', args: [SPENDER, 5n * 10n ** 17n] }), {
      decimals: 18,
      symbol: null,
      configured: false,
    })
    expect(noSymbol?.rows).toContainEqual(['Amount', '0.5 (no symbol)'])
  })

  it('setApprovalForAll(true) (0xa22cb465) warns that the operator can move all NFTs of the collection', () => {
    const on = encodeFunctionData({ abi, functionName: 'setApprovalForAll', args: [SPENDER, true] })
    expect(on.slice(0, 10)).toBe('0xa22cb465')
    expect(decodeCalldata(on)?.warnings).toEqual([`${SPENDER} can move all your NFTs of this collection.`])
    const off = decodeCalldata(encodeFunctionData({ abi, functionName: 'setApprovalForAll', args: [SPENDER, false] }))
    expect(off?.warnings).toEqual([])
    expect(off?.rows).toContainEqual(['Action', 'Revoke an operator'])
  })

  it('unknown or malformed data is not decoded; extra bytes are flagged', () => {
    expect(decodeCalldata('0x')).toBeNull()
    expect(decodeCalldata(encodeFunctionData({ abi, functionName: 'mint', args: [1n] }))).toBeNull()
    expect(decodeCalldata('0x095ea7b3')).toBeNull() // selector without arguments
    const data = encodeFunctionData({ abi, functionName: 'transfer', args: [SPENDER, 5n] })
    expect(decodeCalldata(`${data}deadbeef`)?.warnings).toEqual([
      'The call data is not the plain encoding of this call (extra or non-canonical bytes).',
    ])
  })
})
