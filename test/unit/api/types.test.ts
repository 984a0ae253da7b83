/**
 * Compile-time checks: these lines fail `tsc` if the hand-written unions drift from the
 * schemas, or if the client's mapped types stop following the schemas.
 */
import { describe, expect, it } from 'vitest'
import type { SigilClient } from '../../../src/api/client.js'
import type { ActivityStatus, Curve } from '../../../src/api/enums.js'
import type {
  ActivityStatusName,
  Assert,
  CurveName,
  Equals,
  _AssertActivityStatusInSync,
  _AssertAddressFormatInSync,
  _AssertCredentialTypeInSync,
  _AssertCurveInSync,
} from '../../../src/api/enums.sync.js'

type _Uses = [_AssertActivityStatusInSync, _AssertAddressFormatInSync, _AssertCredentialTypeInSync, _AssertCurveInSync]
// @ts-expect-error: a union with an extra member is not equal to the schema type
type _Drift = Assert<Equals<CurveName | 'CURVE_X', Curve>>
// @ts-expect-error: a union missing a member is not equal either
type _Missing = Assert<Equals<Exclude<ActivityStatusName, 'ACTIVITY_STATUS_REJECTED'>, ActivityStatus>>

type WalletOut = Awaited<ReturnType<SigilClient['createWallet']>>
type _WalletId = Assert<Equals<WalletOut['walletId'], string>>
type OtpIn = Parameters<SigilClient['initOtpAuth']>[0]
type _OtpType = Assert<Equals<OtpIn['otpType'], 'OTP_TYPE_SMS' | 'OTP_TYPE_EMAIL'>>
type AccountsOut = Awaited<ReturnType<SigilClient['listWalletAccounts']>>
type _Curve = Assert<Equals<AccountsOut['accounts'][number]['curve'], Curve>>
type _V1 = Assert<Equals<Parameters<SigilClient['verifyOtpV1']>[0]['otpCode'], string>>

describe('compile-time sync', () => {
  it('type assertions compiled (this file type-checks under tsc)', () => {
    const ok: [_WalletId, _OtpType, _Curve, _V1] = [true, true, true, true]
    expect(ok).toEqual([true, true, true, true])
  })
})
