import { describe, expect, it } from 'vitest'
import { amountText, isUnlimited, timeText } from '@/src/extension/background/approval/text'
import { checkTypedData, type TypedDataInput } from '@/src/extension/background/dapp/evm/typedData'
import { describeTypedData, typedDataTokens } from '@/src/extension/background/dapp/evm/typedDataSummary'
import { MAIL_TYPED_DATA, seaportOrder, usdcPermit } from '../../../../../helpers/typedData'

const ME = '0x4242424242424242424242424242424242424242'
const SPENDER = '0x5555555555555555555555555555555555555555'
const TOKEN = '0x6666666666666666666666666666666666666666'
const MAX = (1n << 256n) - 1n
const MAX160 = (1n << 160n) - 1n

function permit(value: bigint | string): TypedDataInput {
  return usdcPermit({ verifyingContract: TOKEN, owner: ME, spender: SPENDER, value: value.toString(), deadline: 1893456000 })
}

const PERMIT_DETAILS = [
  { name: 'token', type: 'address' },
  { name: 'amount', type: 'uint160' },
  { name: 'expiration', type: 'uint48' },
  { name: 'nonce', type: 'uint48' },
]
const PERMIT2_DOMAIN = { name: 'Permit2', chainId: 1, verifyingContract: '0x000000000022D473030F116dDEE9F6B43aC78BA3' }
const PERMIT2_DOMAIN_TYPE = [
  { name: 'name', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
]

/** Check first (as the background does), then describe. */
function describe2(typed: TypedDataInput, chainId: `0x${string}` = '0x1') {
  const checked = checkTypedData(typed)
  if (!checked.ok) throw new Error(checked.reason)
  return describeTypedData(typed, ME, chainId)
}

describe('amounts and times', () => {
  it('"unlimited" is max uint256, anything ≥ 2^255, or max uint160 for Permit2', () => {
    expect(isUnlimited(MAX)).toBe(true)
    expect(isUnlimited(1n << 255n)).toBe(true)
    expect(isUnlimited((1n << 255n) - 1n)).toBe(false)
    expect(isUnlimited(MAX160)).toBe(false)
    expect(isUnlimited(MAX160, 160)).toBe(true)
    expect(amountText(MAX)).toBe(`unlimited (${MAX})`)
    expect(amountText(1000n)).toBe('1000')
    expect(timeText(1893456000n)).toBe('2030-01-01 00:00:00 UTC (1893456000)')
    expect(timeText(MAX)).toBe(`never (${MAX})`)
  })
})

describe('typed data summaries and warnings', () => {
  it('EIP-2612 permit: token from verifyingContract, spender, amount, deadline as a date', () => {
    const d = describe2(permit(1_000_000n))
    expect(d.warnings).toEqual([])
    expect(d.summary?.title).toContain('EIP-2612 permit')
    expect(d.summary?.rows).toEqual([
      ['Token', `${TOKEN} (USD Coin)`],
      ['Spender', SPENDER],
      ['Amount', '1000000'],
      ['Deadline', '2030-01-01 00:00:00 UTC (1893456000)'],
      ['Owner', ME],
    ])
  })

  it('EIP-2612 permit of max uint256 or ≥ 2^255 is "unlimited" with a warning', () => {
    for (const v of [MAX, 1n << 255n]) {
      const d = describe2(permit(v))
      expect(d.summary?.rows).toContainEqual(['Amount', `unlimited (${v})`])
      expect(d.warnings).toEqual([`Unlimited approval: ${SPENDER} can spend all of this token.`])
    }
  })

  it('Permit2 PermitSingle and PermitBatch: tokens, amounts (max uint160 = unlimited), expirations, spender', () => {
    const single: TypedDataInput = {
      types: {
        EIP712Domain: PERMIT2_DOMAIN_TYPE,
        PermitDetails: PERMIT_DETAILS,
        PermitSingle: [
          { name: 'details', type: 'PermitDetails' },
          { name: 'spender', type: 'address' },
          { name: 'sigDeadline', type: 'uint256' },
        ],
      },
      primaryType: 'PermitSingle',
      domain: PERMIT2_DOMAIN,
      message: {
        details: { token: TOKEN, amount: MAX160.toString(), expiration: 1893456000, nonce: 0 },
        spender: SPENDER,
        sigDeadline: '1700000000',
      },
    }
    const d = describe2(single)
    expect(d.summary?.title).toContain('Permit2 allowance')
    expect(d.summary?.rows).toEqual([
      ['Token', TOKEN],
      ['Amount', `unlimited (${MAX160})`],
      ['Allowance expires', '2030-01-01 00:00:00 UTC (1893456000)'],
      ['Spender', SPENDER],
      ['Signature deadline', '2023-11-14 22:13:20 UTC (1700000000)'],
    ])
    expect(d.warnings).toEqual([`Unlimited approval: ${SPENDER} can spend all of token ${TOKEN}.`])

    const batch: TypedDataInput = {
      ...single,
      types: {
        ...single.types,
        PermitBatch: [
          { name: 'details', type: 'PermitDetails[]' },
          { name: 'spender', type: 'address' },
          { name: 'sigDeadline', type: 'uint256' },
        ],
      },
      primaryType: 'PermitBatch',
      message: {
        details: [
          { token: TOKEN, amount: '5', expiration: 1893456000, nonce: 0 },
          { token: SPENDER, amount: '7', expiration: 1893456000, nonce: 1 },
        ],
        spender: SPENDER,
        sigDeadline: '1700000000',
      },
    }
    const b = describe2(batch)
    expect(b.summary?.rows).toContainEqual(['Token #2', SPENDER])
    expect(b.summary?.rows).toContainEqual(['Amount #2', '7'])
    expect(b.warnings).toEqual([])
  })

  it('Permit2 PermitTransferFrom: token, amount, spender, deadline', () => {
    const typed: TypedDataInput = {
      types: {
        EIP712Domain: PERMIT2_DOMAIN_TYPE,
        TokenPermissions: [
          { name: 'token', type: 'address' },
          { name: 'amount', type: 'uint256' },
        ],
        PermitTransferFrom: [
          { name: 'permitted', type: 'TokenPermissions' },
          { name: 'spender', type: 'address' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      primaryType: 'PermitTransferFrom',
      domain: PERMIT2_DOMAIN,
      message: { permitted: { token: TOKEN, amount: '42' }, spender: SPENDER, nonce: '1', deadline: '1893456000' },
    }
    const d = describe2(typed)
    expect(d.summary?.title).toContain('Permit2 transfer')
    expect(d.summary?.rows).toEqual([
      ['Token', TOKEN],
      ['Amount', '42'],
      ['Spender', SPENDER],
      ['Deadline', '2030-01-01 00:00:00 UTC (1893456000)'],
    ])
  })

  it('Seaport order: what you give, consideration recipients, and a flag for each recipient that is not the signer', () => {
    const attacker = '0xBAdbaDBAdBADBADBAdbaDBAdBADBADBADbaDbAd0'.toLowerCase()
    const d = describe2(seaportOrder(ME, attacker, 13) as unknown as TypedDataInput)
    const rows = d.summary?.rows ?? []
    expect(rows.filter(([k]) => k.startsWith('You give'))).toHaveLength(13)
    expect(rows).toContainEqual(['You give #13', 'ERC-721 0x1111111111111111111111111111111111111111, id 1012, amount 1'])
    const consideration = rows.find(([k]) => k === 'Consideration #1')?.[1]
    expect(consideration).toContain('NOT you')
    expect(rows.at(-1)).toEqual(['Ends', '2030-01-01 00:00:00 UTC (1893456000)'])
    expect(d.warnings).toHaveLength(1)
    expect(d.warnings[0]).toMatch(/^Consideration #1 goes to 0x[0-9a-fA-F]{40}, not to your account\.$/)
    // paid to the signer: no warning
    expect(describe2(seaportOrder(ME, ME, 2) as unknown as TypedDataInput).warnings).toEqual([])
    // someone else's order
    expect(describe2(seaportOrder(SPENDER, ME, 2) as unknown as TypedDataInput).warnings).toEqual([
      `The order's offerer ${SPENDER} is not your account.`,
    ])
  })

  it('warns for a domain without chainId or verifyingContract, and for another chain; other data gets no summary', () => {
    const mail = structuredClone(MAIL_TYPED_DATA) as unknown as TypedDataInput
    expect(describe2(mail)).toEqual({ summary: null, warnings: [] })
    expect(describe2(mail, '0x2105').warnings).toEqual(['The domain is for chain 1, but the selected network is chain 8453.'])
    const bare = structuredClone(mail)
    bare.types['EIP712Domain'] = [{ name: 'name', type: 'string' }]
    bare.domain = { name: 'Ether Mail' }
    expect(describe2(bare).warnings).toEqual([
      'The domain has no chainId: this signature may be valid on every chain.',
      'The domain has no verifyingContract: this signature is not bound to one contract.',
    ])
  })
})

describe("token amounts in the token's units", () => {
  const USDC = new Map([[TOKEN, { decimals: 6, symbol: 'USDC', configured: true }]])
  const permit2Single = (amount: string): TypedDataInput => ({
    types: {
      EIP712Domain: PERMIT2_DOMAIN_TYPE,
      PermitDetails: PERMIT_DETAILS,
      PermitSingle: [
        { name: 'details', type: 'PermitDetails' },
        { name: 'spender', type: 'address' },
        { name: 'sigDeadline', type: 'uint256' },
      ],
    },
    primaryType: 'PermitSingle',
    domain: PERMIT2_DOMAIN,
    message: { details: { token: TOKEN, amount, expiration: 1893456000, nonce: 0 }, spender: SPENDER, sigDeadline: '1700000000' },
  })

  it("names the tokens to read: a permit's verifyingContract, Permit2's tokens, nothing for plain mail", () => {
    expect(typedDataTokens(permit(1n))).toEqual([TOKEN])
    expect(typedDataTokens(permit2Single('5'))).toEqual([TOKEN])
    expect(typedDataTokens(MAIL_TYPED_DATA as unknown as TypedDataInput)).toEqual([])
  })

  it('an EIP-2612 permit of 10 USDC reads "10 USDC", unlimited reads "unlimited USDC"; an unread token stays raw', () => {
    const chk = (t: TypedDataInput, known: Map<string, { decimals: number; symbol: string | null; configured: boolean }>) => {
      const c = checkTypedData(t)
      if (!c.ok) throw new Error(c.reason)
      return describeTypedData(t, ME, '0x1', known)
    }
    expect(chk(permit(10_000_000n), USDC).summary?.rows).toContainEqual(['Amount', '10 USDC'])
    expect(chk(permit(MAX), USDC).summary?.rows).toContainEqual(['Amount', 'unlimited USDC'])
    expect(chk(permit(10_000_000n), new Map()).summary?.rows).toContainEqual(['Amount', '10000000'])
    expect(chk(permit2Single('2500000'), USDC).summary?.rows).toContainEqual(['Amount', '2.5 USDC'])
    expect(chk(permit2Single(MAX160.toString()), USDC).summary?.rows).toContainEqual(['Amount', 'unlimited USDC'])
    expect(
      chk(permit2Single('2500000'), new Map([[TOKEN, { decimals: 6, symbol: null, configured: false }]])).summary?.rows,
    ).toContainEqual(['Amount', '2.5 (no symbol)'])
  })
})
