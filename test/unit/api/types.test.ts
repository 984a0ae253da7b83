/**
 * Compile-time checks: these lines fail `tsc` if the client's mapped types stop following the
 * schemas, or if an enum list of src/api/enumLists.ts drifts from the hosted service's own
 * (the official client's generated types are the one copy of these lists Sigil does not own).
 */
import type { TurnkeyApiTypes } from '@turnkey/http'
import { describe, expect, it } from 'vitest'
import type { SigilClient } from '../../../src/api/client.js'
import type {
  ActivityStatus,
  AddressFormat,
  CredentialType,
  Curve,
  HostedOnRampProvider,
  TransactionHistoryStatus,
  TransferDirection,
  SmartContractInterfaceType,
  PolicyEffect,
  PolicyOutcome,
} from '../../../src/api/enums.js'

/** True when A and B are mutually assignable (exact equality of the two types). */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
/** Compiles only for `true`. */
type Assert<T extends true> = T

type _CurveHosted = Assert<Equals<Curve, TurnkeyApiTypes['v1Curve']>>
type _ActivityStatusHosted = Assert<Equals<ActivityStatus, TurnkeyApiTypes['v1ActivityStatus']>>
/** True when every member of A is a member of B. */
type Subset<A, B> = [A] extends [B] ? true : false
// Sigil derives 36 of the hosted formats (not ADDRESS_FORMAT_SPARK_*): a subset, never a name of its own.
type _AddressFormatHosted = Assert<Subset<AddressFormat, TurnkeyApiTypes['v1AddressFormat']>>
type _CredentialTypeHosted = Assert<Equals<CredentialType, TurnkeyApiTypes['v1CredentialType']>>
type _OnRampProviderHosted = Assert<Equals<HostedOnRampProvider, TurnkeyApiTypes['v1FiatOnRampProvider']>>
type _HistoryStatusHosted = Assert<Equals<TransactionHistoryStatus, TurnkeyApiTypes['v1EthTransactionHistoryItem']['status']>>
type _SolHistoryStatusHosted = Assert<Equals<TransactionHistoryStatus, TurnkeyApiTypes['v1SolTransactionHistoryItem']['status']>>
type _DirectionHosted = Assert<Equals<TransferDirection, TurnkeyApiTypes['v1TransactionHistoryTransfer']['direction']>>
/** True when A is assignable to B. */
type Assignable<A, B> = [A] extends [B] ? true : false
/** A zod output type with `| undefined` dropped from its optional members, as the generated types write them. */
type Defined<T> = T extends readonly (infer U)[]
  ? Defined<U>[]
  : T extends object
    ? { [K in keyof T]: Defined<Exclude<T[K], undefined>> }
    : T
// What Sigil answers is what the official client's types expect (Sigil's additions to `turnkey` aside).
type _EthHistoryHosted = Assert<
  Assignable<Defined<Awaited<ReturnType<SigilClient['listEthTransactionHistory']>>>, TurnkeyApiTypes['v1ListEthTransactionHistoryResponse']>
>
type _SolHistoryHosted = Assert<
  Assignable<Defined<Awaited<ReturnType<SigilClient['listSolTransactionHistory']>>>, TurnkeyApiTypes['v1ListSolTransactionHistoryResponse']>
>
type HostedEthHistory = TurnkeyApiTypes['v1ListEthTransactionHistoryResponse']
// @ts-expect-error: a history item without its block is not what the client expects
type _HistoryDrift = Assert<Assignable<{ transactions: Array<{ transactionHash: string }> }, HostedEthHistory>>
type _SmartContractInterfaceTypeHosted = Assert<Equals<SmartContractInterfaceType, TurnkeyApiTypes['v1SmartContractInterfaceType']>>
type _PolicyEffectHosted = Assert<Equals<PolicyEffect, TurnkeyApiTypes['v1Effect']>>
type _PolicyOutcomeHosted = Assert<Equals<PolicyOutcome, TurnkeyApiTypes['v1Outcome']>>
type _PolicyHosted = Assert<Assignable<Defined<Awaited<ReturnType<SigilClient['getPolicy']>>>, TurnkeyApiTypes['v1GetPolicyResponse']>>
type _PoliciesHosted = Assert<
  Assignable<Defined<Awaited<ReturnType<SigilClient['listPolicies']>>>, TurnkeyApiTypes['v1GetPoliciesResponse']>
>
// @ts-expect-error: a union with an extra member is not equal
type _Drift = Assert<Equals<Curve | 'CURVE_X', TurnkeyApiTypes['v1Curve']>>
// @ts-expect-error: a union missing a member is not equal either
type _Missing = Assert<Equals<Exclude<ActivityStatus, 'ACTIVITY_STATUS_REJECTED'>, TurnkeyApiTypes['v1ActivityStatus']>>

type WalletOut = Awaited<ReturnType<SigilClient['createWallet']>>
type _WalletId = Assert<Equals<WalletOut['walletId'], string>>
type OtpIn = Parameters<SigilClient['initOtpAuth']>[0]
type _OtpType = Assert<Equals<OtpIn['otpType'], 'OTP_TYPE_SMS' | 'OTP_TYPE_EMAIL'>>
type AccountsOut = Awaited<ReturnType<SigilClient['listWalletAccounts']>>
type _Curve = Assert<Equals<AccountsOut['accounts'][number]['curve'], Curve>>
type _V1 = Assert<Equals<Parameters<SigilClient['verifyOtpV1']>[0]['otpCode'], string>>

describe('compile-time sync', () => {
  it('type assertions compiled (this file type-checks under tsc)', () => {
    const ok: [
      _CurveHosted,
      _ActivityStatusHosted,
      _AddressFormatHosted,
      _CredentialTypeHosted,
      _OnRampProviderHosted,
      _SmartContractInterfaceTypeHosted,
      _PolicyEffectHosted,
      _PolicyOutcomeHosted,
      _PolicyHosted,
      _PoliciesHosted,
    ] = [true, true, true, true, true, true, true, true, true, true]
    const client: [_WalletId, _OtpType, _Curve, _V1] = [true, true, true, true]
    const history: [_HistoryStatusHosted, _SolHistoryStatusHosted, _DirectionHosted, _EthHistoryHosted, _SolHistoryHosted] = [
      true,
      true,
      true,
      true,
      true,
    ]
    expect([...ok, ...client, ...history].every(Boolean)).toBe(true)
  })
})
