/**
 * On-ramp provider names: the interface's (ALPHA, BETA) and the hosted service's (COINBASE,
 * MOONPAY) are both accepted by the three operations that take one, kept as sent, and resolve
 * to the same two providers; credential listings give the hosted name.
 */
import { describe, expect, it } from 'vitest'
import { FiatOnRampCredential } from '../../../src/api/common.js'
import {
  HOSTED_ON_RAMP_PROVIDER,
  HOSTED_ON_RAMP_PROVIDERS,
  ON_RAMP_PROVIDERS,
  type OnRampProviderName,
  onRampProviderOf,
} from '../../../src/api/enums.js'
import type { SigilError } from '../../../src/api/errors.js'
import { createFiatOnRampCredential } from '../../../src/api/operations/create_fiat_on_ramp_credential.js'
import { initFiatOnRamp } from '../../../src/api/operations/init_fiat_on_ramp.js'
import { updateFiatOnRampCredential } from '../../../src/api/operations/update_fiat_on_ramp_credential.js'
import { parseOrThrow } from '../../../src/api/validation.js'
import { onRampParams } from './fixtures.js'

const credential = { publishableApiKey: 'pk', encryptedSecretApiKey: 'sealed' }
const OPERATIONS = [
  ['create_fiat_on_ramp_credential', createFiatOnRampCredential.parameters, credential],
  ['update_fiat_on_ramp_credential', updateFiatOnRampCredential.parameters, { ...credential, fiatOnrampCredentialId: 'c1' }],
  ['init_fiat_on_ramp', initFiatOnRamp.parameters, onRampParams()],
] as const

describe('on-ramp provider names', () => {
  it('ALPHA is COINBASE and BETA is MOONPAY, both ways', () => {
    expect(HOSTED_ON_RAMP_PROVIDER).toEqual({
      FIAT_ON_RAMP_PROVIDER_ALPHA: 'FIAT_ON_RAMP_PROVIDER_COINBASE',
      FIAT_ON_RAMP_PROVIDER_BETA: 'FIAT_ON_RAMP_PROVIDER_MOONPAY',
    })
    const cases: Array<[OnRampProviderName, string]> = [
      ['FIAT_ON_RAMP_PROVIDER_ALPHA', 'FIAT_ON_RAMP_PROVIDER_ALPHA'],
      ['FIAT_ON_RAMP_PROVIDER_COINBASE', 'FIAT_ON_RAMP_PROVIDER_ALPHA'],
      ['FIAT_ON_RAMP_PROVIDER_BETA', 'FIAT_ON_RAMP_PROVIDER_BETA'],
      ['FIAT_ON_RAMP_PROVIDER_MOONPAY', 'FIAT_ON_RAMP_PROVIDER_BETA'],
    ]
    for (const [name, provider] of cases) expect(onRampProviderOf(name)).toBe(provider)
    expect(ON_RAMP_PROVIDERS.map((p) => HOSTED_ON_RAMP_PROVIDER[p])).toEqual([...HOSTED_ON_RAMP_PROVIDERS])
  })

  for (const [name, schema, base] of OPERATIONS) {
    it(`${name} accepts all four names and keeps the one sent`, () => {
      for (const provider of [...ON_RAMP_PROVIDERS, ...HOSTED_ON_RAMP_PROVIDERS]) {
        const parsed = parseOrThrow(schema, { ...base, onrampProvider: provider }, 'parameters') as { onrampProvider: string }
        expect(parsed.onrampProvider).toBe(provider)
      }
    })

    it(`${name} refuses any other name with INVALID_ARGUMENT naming parameters.onrampProvider`, () => {
      for (const provider of ['FIAT_ON_RAMP_PROVIDER_GAMMA', 'COINBASE', 'fiat_on_ramp_provider_moonpay', '', 1]) {
        let err: SigilError | undefined
        try {
          parseOrThrow(schema, { ...base, onrampProvider: provider }, 'parameters')
        } catch (e) {
          err = e as SigilError
        }
        expect(err?.code).toBe('INVALID_ARGUMENT')
        expect(err?.httpStatus).toBe(400)
        expect(err?.message.startsWith('parameters.onrampProvider: ')).toBe(true)
        expect(err?.fieldViolations.map((v) => v.field)).toEqual(['parameters.onrampProvider'])
      }
    })
  }

  it('a listed credential names its provider the hosted way only', () => {
    const row = {
      fiatOnrampCredentialId: 'c1',
      organizationId: 'o1',
      publishableApiKey: 'pk',
      sandboxMode: true,
      createdAt: { seconds: '1', nanos: '0' },
      updatedAt: { seconds: '1', nanos: '0' },
    }
    expect(FiatOnRampCredential.safeParse({ ...row, onrampProvider: 'FIAT_ON_RAMP_PROVIDER_MOONPAY' }).success).toBe(true)
    expect(FiatOnRampCredential.safeParse({ ...row, onrampProvider: 'FIAT_ON_RAMP_PROVIDER_BETA' }).success).toBe(false)
  })
})
