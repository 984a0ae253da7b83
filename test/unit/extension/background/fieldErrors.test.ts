/** Validation errors in words at the field. */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { describeIssue } from '@/src/extension/background/fieldErrors'
import { parseOnRampParams } from '@/src/extension/background/wallet/onRamp'

const issues = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value)
  if (r.success) throw new Error('expected a failure')
  return r.error.issues
}

describe('describeIssue', () => {
  it('names the field in words and says the rule, never the wire path', () => {
    expect(describeIssue(issues(z.object({ relayUrl: z.string().min(1) }), { relayUrl: '' }))).toEqual({
      field: 'relayUrl',
      message: 'Relay URL is required.',
    })
    expect(describeIssue(issues(z.object({ name: z.string().max(3) }), { name: 'abcd' }))).toEqual({
      field: 'name',
      message: 'Name must be at most 3 characters.',
    })
    expect(describeIssue(issues(z.object({ contact: z.string().regex(/^\+/, 'Include the country code.') }), { contact: '1' }))).toEqual({
      field: 'contact',
      message: 'Include the country code.',
    })
  })

  it('the on-ramp amount below the minimum says the minimum with its currency, at the Amount field', () => {
    const input = {
      onrampProvider: 'FIAT_ON_RAMP_PROVIDER_COINBASE',
      walletAddress: '0x' + 'ab'.repeat(20),
      network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM',
      cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH',
      fiatCurrencyCode: 'FIAT_ON_RAMP_CURRENCY_USD',
      fiatCurrencyAmount: '5',
    }
    let caught: unknown
    try {
      parseOnRampParams(input)
    } catch (e) {
      caught = e
    }
    expect(caught).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'fiatCurrencyAmount', message: 'The minimum is more than 20 USD.' })
    expect(String((caught as Error).message)).not.toMatch(/fiatCurrencyAmount|must be/)
  })
})
