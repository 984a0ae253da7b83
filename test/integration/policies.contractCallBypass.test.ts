/**
 * A gap by which a policy could be passed (the contract-call gap): a call an uploaded smart contract interface declares
 * (its ABI has the selector, its IDL the discriminator) but whose arguments do not decode is not a
 * call "without arguments". Through the official `@turnkey/http` client, a user outside the root
 * quorum whose policies allow signing but deny an ERC-20 `transfer` of more than 100 (a DENY on
 * `eth.tx.contract_call_args['amount']`), or an IDL `deposit` of more than 100 (a DENY on
 * `parsed_instruction_data.program_call_args['amount']`): a transfer or deposit whose arguments are
 * truncated is denied and never signed, a small one is signed, a large one is denied.
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
import { encodeFunctionData, type Hex, serializeTransaction } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex, concatBytes } from '../../src/crypto/encoding.js'
import { expectPolicyDenied, type PolicyOrg, policyOutcome, startPolicyOrg, type TestPolicy, withPolicies } from './helpers/policyOrg.js'

let org: PolicyOrg<'bob'>
let admin: TurnkeyClient
let bob: TurnkeyClient
let bobId: string
let root: string
let eth: string
let sol: string
const TOKEN = '0x4444444444444444444444444444444444444444'
const RECIPIENT = '0x52908400098527886E0F7030069857D2E4169EE7'
const PROGRAM = solAddress(base58.encode(new Uint8Array(32).fill(11)))
const now = () => String(Date.now())

const ERC20 = [
  {
    type: 'function',
    name: 'transfer',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'approve',
    inputs: [
      { name: 'spender', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
    stateMutability: 'nonpayable',
  },
] as const

const VAULT_IDL = {
  instructions: [{ name: 'deposit', accounts: [{ name: 'owner', isMut: true, isSigner: true }], args: [{ name: 'amount', type: 'u64' }] }],
  types: [],
}

beforeAll(async () => {
  org = await startPolicyOrg(['bob'], 'signer', [
    { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
    { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' },
  ])
  ;({ admin, root } = org)
  bob = org.clients.bob
  bobId = org.ids.bob
  ;[eth, sol] = org.addresses as [string, string]
  for (const [smartContractAddress, abi, type] of [
    [TOKEN, ERC20, 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM'],
    [PROGRAM, VAULT_IDL, 'SMART_CONTRACT_INTERFACE_TYPE_SOLANA'],
  ] as const) {
    const sci = await admin.createSmartContractInterface({
      type: 'ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE',
      timestampMs: now(),
      organizationId: root,
      parameters: { smartContractAddress, smartContractInterface: JSON.stringify(abi), type, label: 'interface' },
    })
    expect(sci.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  }
})
afterAll(async () => {
  await org?.svc.stop()
})

type Policy = TestPolicy

/** Bob may sign anything. */
const BOB_SIGNS = (): Policy => ({
  name: 'bob signs',
  effect: 'EFFECT_ALLOW',
  condition: "activity.action == 'SIGN'",
  consensus: `approvers.any(u, u.id == '${bobId}')`,
})

const signTx = (unsignedTransaction: string, type: 'TRANSACTION_TYPE_ETHEREUM' | 'TRANSACTION_TYPE_SOLANA', signWith: string) =>
  bob.signTransaction({
    type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
    timestampMs: now(),
    organizationId: root,
    parameters: { signWith, unsignedTransaction, type },
  })

const unsignedEth = (data: Hex) =>
  serializeTransaction({
    type: 'eip1559',
    chainId: 31337,
    nonce: 0,
    gas: 100_000n,
    maxFeePerGas: 2_000_000_000n,
    maxPriorityFeePerGas: 1n,
    to: TOKEN,
    value: 0n,
    data,
  })

const transfer = (amount: bigint) => encodeFunctionData({ abi: ERC20, functionName: 'transfer', args: [RECIPIENT, amount] })

describe('eth.tx.contract_call_args of a declared call whose arguments do not decode', () => {
  const DENY = 'transfers up to 100'

  it('a DENY on the amount denies a transfer with truncated or garbled arguments; small transfers are signed, large ones denied', async () => {
    await withPolicies(
      org,
      [BOB_SIGNS(), { name: DENY, effect: 'EFFECT_DENY', condition: "eth.tx.contract_call_args['amount'] > 100" }],
      async ([allow, deny]) => {
        const small = await signTx(unsignedEth(transfer(100n)), 'TRANSACTION_TYPE_ETHEREUM', eth)
        expect(small.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
        expect(small.activity.result.signTransactionResult?.signedTransaction).toMatch(/^02f8/)
        expect(await policyOutcome(org, small.activity.id, deny as string)).toBe('OUTCOME_DENY_IMPLICIT')

        const large = await expectPolicyDenied(signTx(unsignedEth(transfer(10n ** 24n)), 'TRANSACTION_TYPE_ETHEREUM', eth), DENY)
        expect(await policyOutcome(org, large, deny as string)).toBe('OUTCOME_DENY_EXPLICIT')

        const full = transfer(10n ** 24n)
        const garbled: Array<[string, Hex]> = [
          ['the amount cut in half', full.slice(0, full.length - 32) as Hex],
          ['no amount at all', full.slice(0, 10 + 64) as Hex],
          ['the selector alone', full.slice(0, 10) as Hex],
          ['the address cut short', full.slice(0, 10 + 40) as Hex],
        ]
        for (const [what, data] of garbled) {
          const id = await expectPolicyDenied(signTx(unsignedEth(data), 'TRANSACTION_TYPE_ETHEREUM', eth), DENY)
          expect(await policyOutcome(org, id, deny as string), what).toBe('OUTCOME_ERROR')
          expect(await policyOutcome(org, id, allow as string), what).toBe('OUTCOME_ALLOW')
        }
      },
    )
  })

  it('the function of a declared selector is still read when its arguments do not decode', async () => {
    const name = 'no approvals'
    await withPolicies(
      org,
      [BOB_SIGNS(), { name, effect: 'EFFECT_DENY', condition: "eth.tx.function_name == 'approve'" }],
      async ([, deny]) => {
        const approve = encodeFunctionData({ abi: ERC20, functionName: 'approve', args: [RECIPIENT, 2n ** 255n] })
        const id = await expectPolicyDenied(signTx(unsignedEth(approve.slice(0, 10 + 64) as Hex), 'TRANSACTION_TYPE_ETHEREUM', eth), name)
        expect(await policyOutcome(org, id, deny as string)).toBe('OUTCOME_DENY_EXPLICIT')
        // A transfer (readable or not) is not an approval.
        const ok = await signTx(unsignedEth(transfer(1n).slice(0, 10 + 64) as Hex), 'TRANSACTION_TYPE_ETHEREUM', eth)
        expect(ok.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
        expect(await policyOutcome(org, ok.activity.id, deny as string)).toBe('OUTCOME_DENY_IMPLICIT')
      },
    )
  })
})

describe('solana.tx parsed_instruction_data of a declared instruction whose arguments do not decode', () => {
  const DENY = 'deposits up to 100'
  const le64 = (v: bigint) => {
    const out = new Uint8Array(8)
    new DataView(out.buffer).setBigUint64(0, v, true)
    return out
  }
  const DISCRIMINATOR = sha256(new TextEncoder().encode('global:deposit')).subarray(0, 8)
  const deposit = (data: Uint8Array) => {
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
          [{ programAddress: PROGRAM, accounts: [{ address: payer.address, role: AccountRole.WRITABLE_SIGNER }], data }],
          m,
        ),
    )
    return bytesToHex(new Uint8Array(getTransactionEncoder().encode(compileTransaction(message))))
  }

  it('a DENY on the amount denies a deposit with truncated arguments; small deposits are signed, large ones denied', async () => {
    const condition = `solana.tx.instructions.any(i, i.program_key == '${PROGRAM}' && i.parsed_instruction_data.program_call_args['amount'] > 100)`
    await withPolicies(org, [BOB_SIGNS(), { name: DENY, effect: 'EFFECT_DENY', condition }], async ([allow, deny]) => {
      const small = await signTx(deposit(concatBytes(DISCRIMINATOR, le64(100n))), 'TRANSACTION_TYPE_SOLANA', sol)
      expect(small.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
      expect(small.activity.result.signTransactionResult?.signedTransaction).toMatch(/^01[0-9a-f]{128}/)
      expect(await policyOutcome(org, small.activity.id, deny as string)).toBe('OUTCOME_DENY_IMPLICIT')

      const large = await expectPolicyDenied(
        signTx(deposit(concatBytes(DISCRIMINATOR, le64(10n ** 12n))), 'TRANSACTION_TYPE_SOLANA', sol),
        DENY,
      )
      expect(await policyOutcome(org, large, deny as string)).toBe('OUTCOME_DENY_EXPLICIT')

      for (const [what, data] of [
        ['the amount cut short', concatBytes(DISCRIMINATOR, le64(10n ** 12n).subarray(0, 5))],
        ['the discriminator alone', DISCRIMINATOR],
      ] as const) {
        const id = await expectPolicyDenied(signTx(deposit(data), 'TRANSACTION_TYPE_SOLANA', sol), DENY)
        expect(await policyOutcome(org, id, deny as string), what).toBe('OUTCOME_ERROR')
        expect(await policyOutcome(org, id, allow as string), what).toBe('OUTCOME_ALLOW')
      }
    })
  })
})
