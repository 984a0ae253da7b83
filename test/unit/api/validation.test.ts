import { describe, expect, it } from 'vitest'
import { SigilError } from '../../../src/api/errors.js'
import { createSubOrganization } from '../../../src/api/operations/create_sub_organization.js'
import { createWallet } from '../../../src/api/operations/create_wallet.js'
import { initFiatOnRamp } from '../../../src/api/operations/init_fiat_on_ramp.js'
import { initOtp } from '../../../src/api/operations/init_otp.js'
import { initOtpAuth } from '../../../src/api/operations/init_otp_auth.js'
import { otpAuth } from '../../../src/api/operations/otp_auth.js'
import { listWalletAccounts } from '../../../src/api/operations/list_wallet_accounts.js'
import { listEthTransactionHistory } from '../../../src/api/operations/list_eth_transaction_history.js'
import { listSolTransactionHistory } from '../../../src/api/operations/list_sol_transaction_history.js'
import { updateRootQuorum } from '../../../src/api/operations/update_root_quorum.js'
import { PaginationOptions, SubmitEnvelope } from '../../../src/api/common.js'
import { QUERY_OPERATIONS } from '../../../src/api/registry.js'
import { fieldPath, parseOrThrow } from '../../../src/api/validation.js'
import type { z } from 'zod'
import { ORG, failure, initOtpAuthParams, onRampParams, subOrgParams } from './fixtures.js'

function expectField(err: SigilError, field: string, problem?: string): void {
  expect(err.code).toBe('INVALID_ARGUMENT')
  expect(err.httpStatus).toBe(400)
  expect(err.message.startsWith(`${field}: `)).toBe(true)
  if (problem) expect(err.message).toBe(`${field}: ${problem}`)
  expect(err.fieldViolations.map((v) => v.field)).toContain(field)
  const wire = err.toWire()
  const bad = wire.details.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest')
  expect(bad).toBeDefined()
}

describe('parseOrThrow', () => {
  it('returns parsed data and strips unknown keys', () => {
    const p = parseOrThrow(initOtpAuth.parameters, { ...initOtpAuthParams(), extra: 1 }, 'parameters')
    expect(p.otpType).toBe('OTP_TYPE_EMAIL')
    expect('extra' in p).toBe(false)
  })

  it('names nested paths with indices', () => {
    expect(fieldPath('parameters', ['rootUsers', 0, 'userName'])).toBe('parameters.rootUsers[0].userName')
    expect(fieldPath('', ['type'])).toBe('type')
    expect(fieldPath('', [])).toBe('(body)')
    const p = subOrgParams()
    ;(p.rootUsers as Array<Record<string, unknown>>)[0]!.userName = undefined
    expectField(failure(createSubOrganization.parameters, p), 'parameters.rootUsers[0].userName', 'required')
  })

  it('reports every issue in fieldViolations', () => {
    const err = failure(otpAuth.parameters, {})
    const fields = err.fieldViolations.map((v) => v.field)
    expect(fields).toEqual(expect.arrayContaining(['parameters.otpId', 'parameters.otpCode', 'parameters.targetPublicKey']))
  })
})

describe('init_fiat_on_ramp rules', () => {
  it('accepts a realistic body', () => {
    expect(parseOrThrow(initFiatOnRamp.parameters, onRampParams(), 'parameters').countrySubdivisionCode).toBe('US-NY')
  })

  it('requires countrySubdivisionCode when countryCode is US', () => {
    const p = onRampParams()
    delete p.countrySubdivisionCode
    expectField(failure(initFiatOnRamp.parameters, p), 'parameters.countrySubdivisionCode', 'required when countryCode is US')
    // not required elsewhere
    expect(() => parseOrThrow(initFiatOnRamp.parameters, { ...p, countryCode: 'GB' }, 'parameters')).not.toThrow()
  })

  it('rejects fiatCurrencyAmount ≤ 20 or non-decimal', () => {
    expectField(
      failure(initFiatOnRamp.parameters, { ...onRampParams(), fiatCurrencyAmount: '20' }),
      'parameters.fiatCurrencyAmount',
      'must be greater than 20',
    )
    expectField(failure(initFiatOnRamp.parameters, { ...onRampParams(), fiatCurrencyAmount: '1e3' }), 'parameters.fiatCurrencyAmount')
    expect(parseOrThrow(initFiatOnRamp.parameters, { ...onRampParams(), fiatCurrencyAmount: '20.01' }, 'p').fiatCurrencyAmount).toBe(
      '20.01',
    )
  })

  it('rejects an unknown enum value naming the field', () => {
    expectField(
      failure(initFiatOnRamp.parameters, { ...onRampParams(), network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_DOGE' }),
      'parameters.network',
    )
  })
})

describe('OTP init rules', () => {
  for (const def of [initOtpAuth, initOtp]) {
    it(`${def.name}: accepts a realistic body`, () => {
      expect(parseOrThrow(def.parameters, initOtpAuthParams(), 'parameters').contact).toBe('alice@example.com')
    })
    it(`${def.name}: expirationSeconds must not exceed 600`, () => {
      expect(() => parseOrThrow(def.parameters, { ...initOtpAuthParams(), expirationSeconds: '600' }, 'parameters')).not.toThrow()
      expectField(
        failure(def.parameters, { ...initOtpAuthParams(), expirationSeconds: '601' }),
        'parameters.expirationSeconds',
        'must not exceed 600',
      )
    })
    it(`${def.name}: expirationSeconds must be digits`, () => {
      expectField(
        failure(def.parameters, { ...initOtpAuthParams(), expirationSeconds: '-5' }),
        'parameters.expirationSeconds',
        'must be a string of decimal digits',
      )
      expectField(failure(def.parameters, { ...initOtpAuthParams(), expirationSeconds: 300 }), 'parameters.expirationSeconds')
    })
    it(`${def.name}: otpLength 6..9`, () => {
      expectField(failure(def.parameters, { ...initOtpAuthParams(), otpLength: 5 }), 'parameters.otpLength', 'must be between 6 and 9')
      expectField(failure(def.parameters, { ...initOtpAuthParams(), otpLength: 10 }), 'parameters.otpLength', 'must be between 6 and 9')
      expect(() => parseOrThrow(def.parameters, { ...initOtpAuthParams(), otpLength: 9 }, 'parameters')).not.toThrow()
    })
    it(`${def.name}: appName is required`, () => {
      const p = initOtpAuthParams()
      delete p.appName
      expectField(failure(def.parameters, p), 'parameters.appName', 'required')
    })
  }

  it('other expirationSeconds fields must be digit strings', () => {
    const good = { otpId: 'o', otpCode: '123456', targetPublicKey: '04ab' }
    expect(() => parseOrThrow(otpAuth.parameters, { ...good, expirationSeconds: '900' }, 'parameters')).not.toThrow()
    expectField(
      failure(otpAuth.parameters, { ...good, expirationSeconds: '15m' }),
      'parameters.expirationSeconds',
      'must be a string of decimal digits',
    )
  })
})

describe('wallet and quorum rules', () => {
  it('accepts a realistic create_sub_organization body', () => {
    const p = parseOrThrow(createSubOrganization.parameters, subOrgParams(), 'parameters')
    expect(p.rootUsers[0]?.authenticators[0]?.attestation.transports).toContain('AUTHENTICATOR_TRANSPORT_INTERNAL')
  })

  it('mnemonicLength must be one of 12, 15, 18, 21, 24', () => {
    for (const n of [12, 15, 18, 21, 24]) {
      expect(() => parseOrThrow(createWallet.parameters, { walletName: 'w', accounts: [], mnemonicLength: n }, 'parameters')).not.toThrow()
    }
    expectField(
      failure(createWallet.parameters, { walletName: 'w', accounts: [], mnemonicLength: 13 }),
      'parameters.mnemonicLength',
      'must be one of 12, 15, 18, 21, 24',
    )
    const p = subOrgParams()
    ;(p.wallet as Record<string, unknown>).mnemonicLength = 16
    expectField(failure(createSubOrganization.parameters, p), 'parameters.wallet.mnemonicLength')
  })

  it('rootQuorumThreshold must be ≥ 1', () => {
    expectField(
      failure(createSubOrganization.parameters, { ...subOrgParams(), rootQuorumThreshold: 0 }),
      'parameters.rootQuorumThreshold',
      'must be at least 1',
    )
    expectField(failure(updateRootQuorum.parameters, { threshold: 0, userIds: ['u'] }), 'parameters.threshold', 'must be at least 1')
  })

  it('an unknown address format names the account field', () => {
    const p = {
      walletName: 'w',
      accounts: [{ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: 'm/0', addressFormat: 'ADDRESS_FORMAT_LITECOIN' }],
    }
    expectField(failure(createWallet.parameters, p), 'parameters.accounts[0].addressFormat')
  })
})

describe('envelope and pagination rules', () => {
  const envelope = { type: 'ACTIVITY_TYPE_CREATE_WALLET', timestampMs: '1767225600000', organizationId: ORG, parameters: {} }

  it('accepts a well-formed envelope', () => {
    expect(parseOrThrow(SubmitEnvelope, envelope, '').timestampMs).toBe('1767225600000')
  })

  it('timestampMs must be digits', () => {
    expectField(
      failure(SubmitEnvelope, { ...envelope, timestampMs: '2026-01-01' }, ''),
      'timestampMs',
      'must be a string of decimal digits',
    )
    expectField(failure(SubmitEnvelope, { ...envelope, timestampMs: 1767225600000 }, ''), 'timestampMs')
  })

  it('rejects an unknown activity type naming type', () => {
    expectField(failure(SubmitEnvelope, { ...envelope, type: 'ACTIVITY_TYPE_MINT_MONEY' }, ''), 'type', 'unknown activity type')
  })

  it('parameters must be an object', () => {
    expectField(failure(SubmitEnvelope, { ...envelope, parameters: [] }, ''), 'parameters')
  })

  it('limit must be a digit string 1..100', () => {
    const q = (limit: unknown) => ({ organizationId: ORG, paginationOptions: { limit } })
    expect(() => parseOrThrow(listWalletAccounts.request, q('100'), '')).not.toThrow()
    expectField(failure(listWalletAccounts.request, q('101'), ''), 'paginationOptions.limit', 'must be between 1 and 100')
    expectField(failure(listWalletAccounts.request, q('0'), ''), 'paginationOptions.limit')
    expectField(failure(listWalletAccounts.request, q('ten'), ''), 'paginationOptions.limit', 'must be a string of decimal digits')
  })

  it('every list query takes the one PaginationOptions schema (list_suborgs included)', () => {
    const paged = QUERY_OPERATIONS.filter((d) => 'paginationOptions' in (d.request as unknown as z.ZodObject).shape)
    expect(paged.map((d) => d.name).sort()).toEqual([
      'list_activities',
      'list_email_events',
      'list_eth_transaction_history',
      'list_secrets',
      'list_sol_transaction_history',
      'list_suborgs',
      'list_velocity_controls',
      'list_verified_suborgs',
      'list_wallet_accounts',
    ])
    // what the other required fields of a list need
    const required: Record<string, object> = {
      list_eth_transaction_history: { address: `0x${'11'.repeat(20)}`, caip2: 'eip155:1' },
      list_sol_transaction_history: { address: '11111111111111111111111111111111', caip2: 'solana:devnet' },
      list_email_events: { email: 'someone@example.com' },
    }
    for (const d of paged) {
      const field = (d.request as unknown as z.ZodObject).shape.paginationOptions as z.ZodOptional
      expect(field.unwrap(), d.name).toBe(PaginationOptions)
      const q = (paginationOptions: unknown) => ({ organizationId: ORG, ...required[d.name], paginationOptions })
      expect(() => parseOrThrow(d.request, q({ limit: '1', after: 'a', before: 'b' }), '')).not.toThrow()
      for (const limit of ['-0', '0', '101', 'abc', "'; DROP TABLE users;--", '', 7]) {
        expectField(failure(d.request, q({ limit }), ''), 'paginationOptions.limit')
      }
      expectField(failure(d.request, q({ after: 5 }), ''), 'paginationOptions.after')
      expectField(failure(d.request, q({ before: null }), ''), 'paginationOptions.before')
    }
  })

  it('history queries take an address and a caip2, naming the field at fault', () => {
    const eth = { organizationId: ORG, address: `0x${'ab'.repeat(20)}`, caip2: 'eip155:1' }
    expect(() => parseOrThrow(listEthTransactionHistory.request, eth, '')).not.toThrow()
    expectField(failure(listEthTransactionHistory.request, { ...eth, address: '0x1234' }, ''), 'address')
    expectField(failure(listEthTransactionHistory.request, { ...eth, address: undefined }, ''), 'address')
    expectField(failure(listEthTransactionHistory.request, { ...eth, caip2: '' }, ''), 'caip2', 'required')
    expectField(failure(listEthTransactionHistory.request, { ...eth, caip2: 'x'.repeat(65) }, ''), 'caip2')
    const sol = { organizationId: ORG, address: '11111111111111111111111111111111', caip2: 'solana:devnet' }
    expect(() => parseOrThrow(listSolTransactionHistory.request, sol, '')).not.toThrow()
    expectField(failure(listSolTransactionHistory.request, { ...sol, address: '' }, ''), 'address', 'required')
    expectField(failure(listSolTransactionHistory.request, { ...sol, address: 'x'.repeat(129) }, ''), 'address')
    expectField(failure(listSolTransactionHistory.request, { ...sol, caip2: 5 }, ''), 'caip2')
  })

  it('queries require organizationId', () => {
    expectField(failure(listWalletAccounts.request, {}, ''), 'organizationId', 'required')
  })
})
