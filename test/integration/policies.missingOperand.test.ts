/**
 * Issue 31 defect 3, the last gap: a DENY policy must not be skipped because an operand unrelated to
 * the decision is missing. Through the official `@turnkey/http` client, a user outside the root
 * quorum whose policies allow signing but deny an IDL `deposit` of more than 100 (a DENY on
 * `solana.tx.instructions.any(i, i.program_key == VAULT && i.parsed_instruction_data…['amount'] > 100)`)
 * signs a Solana transaction whose first instruction goes to the ComputeBudget program (which every
 * wallet adds, and for which no IDL is uploaded: it has no `parsed_instruction_data`). The language
 * does not short circuit, so that instruction made the whole DENY `MISSING_FIELD`, and the large
 * deposit after it was signed. Now: a large deposit is denied and never signed, a small one is
 * signed, and a deposit whose arguments do not decode is denied (fail closed).
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { base58 } from '@scure/base'
import {
  AccountRole,
  address as solAddress,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit'
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex, concatBytes } from '../../src/crypto/encoding.js'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let admin: TurnkeyClient
let bob: TurnkeyClient
let bobId: string
let root: string
let sol: string

const bobKey = newApiKey('bob')
const VAULT = solAddress(base58.encode(new Uint8Array(32).fill(11)))
const COMPUTE_BUDGET = solAddress('ComputeBudget111111111111111111111111111111')
const DENY = 'deposits up to 100'
const now = () => String(Date.now())

const VAULT_IDL = {
  instructions: [{ name: 'deposit', accounts: [{ name: 'owner', isMut: true, isSigner: true }], args: [{ name: 'amount', type: 'u64' }] }],
  types: [],
}

beforeAll(async () => {
  svc = await startTestService()
  root = svc.admin.organizationId
  admin = adminTurnkeyClient(svc)
  bob = new TurnkeyClient({ baseUrl: svc.url }, new ApiKeyStamper({ apiPublicKey: bobKey.publicKey, apiPrivateKey: bobKey.privateKeyHex }))
  const users = await svc.post(
    '/public/v1/submit/create_users',
    submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', root, {
      users: [{ userName: 'bob', apiKeys: [bobKey.param], authenticators: [], oauthProviders: [], userTags: [] }],
    }),
  )
  ;[bobId] = users.json.activity.result.createUsersResult.userIds
  const wallet = await admin.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: now(),
    organizationId: root,
    parameters: {
      walletName: 'signer',
      accounts: [
        { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' },
      ],
    },
  })
  ;[sol] = wallet.activity.result.createWalletResult?.addresses as [string]
  // An IDL for the vault only: the ComputeBudget instruction stays without parsed_instruction_data.
  const sci = await admin.createSmartContractInterface({
    type: 'ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE',
    timestampMs: now(),
    organizationId: root,
    parameters: {
      smartContractAddress: VAULT,
      smartContractInterface: JSON.stringify(VAULT_IDL),
      type: 'SMART_CONTRACT_INTERFACE_TYPE_SOLANA',
      label: 'vault',
    },
  })
  expect(sci.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
})
afterAll(async () => {
  await svc?.stop()
})

/** The outcome get_policy_evaluations records for `policyId` at the activity's first evaluation. */
async function outcome(activityId: string, policyId: string): Promise<string | undefined> {
  const { policyEvaluations } = await admin.getPolicyEvaluations({ organizationId: root, activityId })
  return policyEvaluations[0]?.policyEvaluations.find((e) => e.policyId === policyId)?.outcome
}

const signTx = (unsignedTransaction: string) =>
  bob.signTransaction({
    type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
    timestampMs: now(),
    organizationId: root,
    parameters: { signWith: sol, unsignedTransaction, type: 'TRANSACTION_TYPE_SOLANA' },
  })

/** Expects `attempt` refused by the DENY policy (gRPC 7, POLICY_DENIED), never signed; returns the failed activity's id. */
async function expectDenied(attempt: Promise<unknown>): Promise<string> {
  const e = await attempt.then(
    (ok) => {
      throw new Error(`signed, expected a denial: ${JSON.stringify(ok).slice(0, 300)}`)
    },
    (err: { code?: number; message?: string; details?: Array<Record<string, unknown>> | null }) => err,
  )
  expect(e.code, e.message).toBe(7)
  expect(String(e.message)).toContain('POLICY_DENIED')
  expect(String(e.message)).toContain(DENY)
  expect(String(e.message)).not.toMatch(/signedTransaction/)
  const info = (e.details ?? []).find((d) => d['@type'] === 'type.googleapis.com/sigil.ActivityInfo')
  expect(info?.status).toBe('ACTIVITY_STATUS_FAILED')
  return info?.activityId as string
}

const le = (v: bigint, bytes: number) => {
  const out = new Uint8Array(bytes)
  for (let i = 0; i < bytes; i++) out[i] = Number((v >> BigInt(8 * i)) & 0xffn)
  return out
}
const DISCRIMINATOR = sha256(new TextEncoder().encode('global:deposit')).subarray(0, 8)
/** ComputeBudget SetComputeUnitLimit(200 000): instruction 2, a u32. */
const SET_COMPUTE_UNIT_LIMIT = concatBytes(Uint8Array.of(2), le(200_000n, 4))

/** A v0 transaction: a ComputeBudget instruction, then a vault deposit with `depositData`. */
function computeBudgetThenDeposit(depositData: Uint8Array): string {
  const payer = createNoopSigner(solAddress(sol))
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(payer.address, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: base58.encode(new Uint8Array(32).fill(9)) as Blockhash, lastValidBlockHeight: 1n },
        m,
      ),
    (m) =>
      appendTransactionMessageInstructions(
        [
          { programAddress: COMPUTE_BUDGET, accounts: [], data: SET_COMPUTE_UNIT_LIMIT },
          { programAddress: VAULT, accounts: [{ address: payer.address, role: AccountRole.WRITABLE_SIGNER }], data: depositData },
        ],
        m,
      ),
  )
  return bytesToHex(new Uint8Array(getTransactionEncoder().encode(compileTransaction(message))))
}

describe('a DENY is not skipped for an instruction it does not need to read', () => {
  it('a ComputeBudget instruction ahead of a large IDL-decoded deposit: denied, never signed; a small deposit is signed', async () => {
    const policyIds: string[] = []
    try {
      for (const p of [
        {
          policyName: 'bob signs',
          effect: 'EFFECT_ALLOW' as const,
          condition: "activity.action == 'SIGN'",
          consensus: `approvers.any(u, u.id == '${bobId}')`,
        },
        {
          policyName: DENY,
          effect: 'EFFECT_DENY' as const,
          condition: `solana.tx.instructions.any(i, i.program_key == '${VAULT}' && i.parsed_instruction_data.program_call_args['amount'] > 100)`,
          consensus: '',
        },
      ]) {
        const r = await admin.createPolicy({
          type: 'ACTIVITY_TYPE_CREATE_POLICY_V3',
          timestampMs: now(),
          organizationId: root,
          parameters: { ...p, notes: '' },
        })
        policyIds.push(r.activity.result.createPolicyResult?.policyId as string)
      }
      const [allow, deny] = policyIds as [string, string]

      const large = await expectDenied(signTx(computeBudgetThenDeposit(concatBytes(DISCRIMINATOR, le(10n ** 12n, 8)))))
      expect(await outcome(large, deny)).toBe('OUTCOME_DENY_EXPLICIT')
      expect(await outcome(large, allow)).toBe('OUTCOME_ALLOW')

      // Arguments the IDL declares but that do not decode, behind the same ComputeBudget instruction: fail closed.
      const truncated = await expectDenied(signTx(computeBudgetThenDeposit(concatBytes(DISCRIMINATOR, le(10n ** 12n, 8).subarray(0, 5)))))
      expect(await outcome(truncated, deny)).toBe('OUTCOME_ERROR')

      const small = await signTx(computeBudgetThenDeposit(concatBytes(DISCRIMINATOR, le(100n, 8))))
      expect(small.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
      expect(small.activity.result.signTransactionResult?.signedTransaction).toMatch(/^01[0-9a-f]{128}/)
      expect(await outcome(small.activity.id, deny)).toBe('OUTCOME_DENY_IMPLICIT')
    } finally {
      for (const policyId of policyIds) {
        await admin.deletePolicy({
          type: 'ACTIVITY_TYPE_DELETE_POLICY',
          timestampMs: now(),
          organizationId: root,
          parameters: { policyId },
        })
      }
    }
  })
})
