/**
 * The last gap by which a policy could be passed: a DENY policy must not be skipped because an operand unrelated to
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
import type { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex, concatBytes } from '../../src/crypto/encoding.js'
import { expectPolicyDenied, type PolicyOrg, policyOutcome, startPolicyOrg, type TestPolicy, withPolicies } from './helpers/policyOrg.js'

let org: PolicyOrg<'bob'>
let admin: TurnkeyClient
let bob: TurnkeyClient
let bobId: string
let root: string
let sol: string

const VAULT = solAddress(base58.encode(new Uint8Array(32).fill(11)))
const COMPUTE_BUDGET = solAddress('ComputeBudget111111111111111111111111111111')
const DENY = 'deposits up to 100'
const now = () => String(Date.now())

const VAULT_IDL = {
  instructions: [{ name: 'deposit', accounts: [{ name: 'owner', isMut: true, isSigner: true }], args: [{ name: 'amount', type: 'u64' }] }],
  types: [],
}

beforeAll(async () => {
  org = await startPolicyOrg(['bob'], 'signer', [
    { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' },
  ])
  ;({ admin, root } = org)
  bob = org.clients.bob
  bobId = org.ids.bob
  sol = org.address
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
  await org?.svc.stop()
})

const signTx = (unsignedTransaction: string) =>
  bob.signTransaction({
    type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
    timestampMs: now(),
    organizationId: root,
    parameters: { signWith: sol, unsignedTransaction, type: 'TRANSACTION_TYPE_SOLANA' },
  })

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
    const policies: TestPolicy[] = [
      {
        name: 'bob signs',
        effect: 'EFFECT_ALLOW',
        condition: "activity.action == 'SIGN'",
        consensus: `approvers.any(u, u.id == '${bobId}')`,
      },
      {
        name: DENY,
        effect: 'EFFECT_DENY',
        condition: `solana.tx.instructions.any(i, i.program_key == '${VAULT}' && i.parsed_instruction_data.program_call_args['amount'] > 100)`,
      },
    ]
    await withPolicies(org, policies, async ([allow, deny]) => {
      const large = await expectPolicyDenied(signTx(computeBudgetThenDeposit(concatBytes(DISCRIMINATOR, le(10n ** 12n, 8)))), DENY)
      expect(await policyOutcome(org, large, deny as string)).toBe('OUTCOME_DENY_EXPLICIT')
      expect(await policyOutcome(org, large, allow as string)).toBe('OUTCOME_ALLOW')

      // Arguments the IDL declares but that do not decode, behind the same ComputeBudget instruction: fail closed.
      const truncated = await expectPolicyDenied(
        signTx(computeBudgetThenDeposit(concatBytes(DISCRIMINATOR, le(10n ** 12n, 8).subarray(0, 5)))),
        DENY,
      )
      expect(await policyOutcome(org, truncated, deny as string)).toBe('OUTCOME_ERROR')

      const small = await signTx(computeBudgetThenDeposit(concatBytes(DISCRIMINATOR, le(100n, 8))))
      expect(small.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
      expect(small.activity.result.signTransactionResult?.signedTransaction).toMatch(/^01[0-9a-f]{128}/)
      expect(await policyOutcome(org, small.activity.id, deny as string)).toBe('OUTCOME_DENY_IMPLICIT')
    })
  })
})
