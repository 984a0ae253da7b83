/**
 * Policies over what an activity signs or sends (the resource namespaces), through the
 * official `@turnkey/http` client and a user outside the root quorum: an `eth.tx.to` allow-list for
 * sign_transaction and for eth_send_transaction (broadcast to the dev EVM node), an explicit DENY on
 * `eth.tx.value` beating that allow, `eth.tx.contract_call_args` from an uploaded ABI,
 * `solana.tx.program_keys` / `transfers`, `wallet.id` / `wallet_account.address`,
 * `eth.eip_712.domain.verifying_contract`, and a `credentials` consensus. get_policy_evaluations
 * shows each outcome per policy.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { base58 } from '@scure/base'
import { getTransferSolInstruction } from '@solana-program/system'
import { getTransferInstruction } from '@solana-program/token'
import {
  AccountRole,
  address as solAddress,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getTransactionEncoder,
  type Instruction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit'
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { createPublicClient, encodeFunctionData, http, parseEther, serializeTransaction, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveNetworks } from '../../src/chains/networks.js'
import { bytesToHex, concatBytes } from '../../src/crypto/encoding.js'
import { type RunningEvmNode, startEvmNode } from '../../src/devchain/evm.js'
import { usdcPermit } from '../helpers/typedData.js'
import { newApiKey } from './helpers/keys.js'
import { freePort } from './helpers/process.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

let node: RunningEvmNode
let svc: TestService
let admin: TurnkeyClient
let bob: TurnkeyClient
let bobId: string
let root: string
/** Accounts of the wallet 'treasury' (Ethereum, Solana) and of the wallet 'other' (Ethereum). */
let eth: string
let sol: string
let otherEth: string
let treasuryId: string

const bobKey = newApiKey('bob')
const carolKey = newApiKey('carol')
let carolId: string
const ALLOWED = '0x1111111111111111111111111111111111111111'
const ALSO_ALLOWED = '0x52908400098527886E0F7030069857D2E4169EE7'
const ELSEWHERE = '0x3333333333333333333333333333333333333333'
const now = () => String(Date.now())
const le64 = (v: bigint) => {
  const out = new Uint8Array(8)
  new DataView(out.buffer).setBigUint64(0, v, true)
  return out
}

beforeAll(async () => {
  node = await startEvmNode({ port: await freePort() })
  svc = await startTestService({ networks: resolveNetworks(`eip155:31337=${node.url}`) })
  root = svc.admin.organizationId
  admin = adminTurnkeyClient(svc)
  bob = new TurnkeyClient({ baseUrl: svc.url }, new ApiKeyStamper({ apiPublicKey: bobKey.publicKey, apiPrivateKey: bobKey.privateKeyHex }))
  const users = await svc.post(
    '/public/v1/submit/create_users',
    submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', root, {
      users: [
        { userName: 'bob', apiKeys: [bobKey.param], authenticators: [], oauthProviders: [], userTags: [] },
        { userName: 'carol', apiKeys: [carolKey.param], authenticators: [], oauthProviders: [], userTags: [] },
      ],
    }),
  )
  ;[bobId, carolId] = users.json.activity.result.createUsersResult.userIds
  const wallet = async (walletName: string, solana: boolean) => {
    const r = await admin.createWallet({
      type: 'ACTIVITY_TYPE_CREATE_WALLET',
      timestampMs: now(),
      organizationId: root,
      parameters: {
        walletName,
        accounts: [
          { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
          ...(solana
            ? [
                {
                  curve: 'CURVE_ED25519',
                  pathFormat: 'PATH_FORMAT_BIP32',
                  path: "m/44'/501'/0'/0'",
                  addressFormat: 'ADDRESS_FORMAT_SOLANA',
                } as const,
              ]
            : []),
        ],
      },
    })
    return r.activity.result.createWalletResult as { walletId: string; addresses: string[] }
  }
  const treasury = await wallet('treasury', true)
  treasuryId = treasury.walletId
  ;[eth, sol] = treasury.addresses as [string, string]
  otherEth = (await wallet('other', false)).addresses[0] as string
  expect((await svc.post('/dev/faucet', { caip2: 'eip155:31337', address: eth, amount: '10' }, null)).status).toBe(200)
})
afterAll(async () => {
  await svc?.stop()
  await node?.close()
})

/** Creates the policies, runs `body`, and deletes them whatever happens (each test sees only its own). */
async function withPolicies(
  policies: Array<{ name: string; effect: 'EFFECT_ALLOW' | 'EFFECT_DENY'; condition: string; consensus?: string }>,
  body: (ids: string[]) => Promise<void>,
) {
  const ids: string[] = []
  try {
    for (const p of policies) {
      const r = await admin.createPolicy({
        type: 'ACTIVITY_TYPE_CREATE_POLICY_V3',
        timestampMs: now(),
        organizationId: root,
        parameters: { policyName: p.name, effect: p.effect, condition: p.condition, consensus: p.consensus ?? BOB, notes: '' },
      })
      ids.push(r.activity.result.createPolicyResult?.policyId as string)
    }
    await body(ids)
  } finally {
    for (const policyId of ids) {
      await admin.deletePolicy({ type: 'ACTIVITY_TYPE_DELETE_POLICY', timestampMs: now(), organizationId: root, parameters: { policyId } })
    }
  }
}

let BOB = ''
beforeAll(() => {
  BOB = `approvers.any(user, user.id == '${bobId}')`
})

/** The outcome get_policy_evaluations records for `policyId` at the activity's first evaluation. */
async function outcome(activityId: string, policyId: string): Promise<string | undefined> {
  const { policyEvaluations } = await admin.getPolicyEvaluations({ organizationId: root, activityId })
  return policyEvaluations[0]?.policyEvaluations.find((e) => e.policyId === policyId)?.outcome
}

const unsignedEth = (to: string | undefined, value = 1n, data: Hex = '0x') =>
  serializeTransaction({
    type: 'eip1559',
    chainId: 31337,
    nonce: 0,
    gas: 100_000n,
    maxFeePerGas: 2_000_000_000n,
    maxPriorityFeePerGas: 1n,
    value,
    data,
    ...(to ? { to: to as Hex } : {}),
  })

const signTx = (unsignedTransaction: string, type: 'TRANSACTION_TYPE_ETHEREUM' | 'TRANSACTION_TYPE_SOLANA', signWith = eth) =>
  bob.signTransaction({
    type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
    timestampMs: now(),
    organizationId: root,
    parameters: { signWith, unsignedTransaction, type },
  })

const ETH_SIGN = "activity.type == 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2' && activity.params.type == 'TRANSACTION_TYPE_ETHEREUM'"

describe('eth.tx', () => {
  it('sign_transaction: an allow-list of eth.tx.to completes what it lists and leaves the rest waiting', async () => {
    const list = `['${ALLOWED}', '${ALSO_ALLOWED.toLowerCase()}']`
    await withPolicies(
      [{ name: 'allow-list', effect: 'EFFECT_ALLOW', condition: `${ETH_SIGN} && eth.tx.to in ${list}` }],
      async ([allow]) => {
        for (const to of [ALLOWED, ALSO_ALLOWED]) {
          const ok = await signTx(unsignedEth(to).slice(2), 'TRANSACTION_TYPE_ETHEREUM')
          expect(ok.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
          expect(ok.activity.result.signTransactionResult?.signedTransaction).toMatch(/^02f8/)
          expect(await outcome(ok.activity.id, allow as string)).toBe('OUTCOME_ALLOW')
        }
        const waits = await signTx(unsignedEth(ELSEWHERE), 'TRANSACTION_TYPE_ETHEREUM')
        expect(waits.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
        expect(waits.activity.result.signTransactionResult).toBeUndefined()
        expect(await outcome(waits.activity.id, allow as string)).toBe('OUTCOME_DENY_IMPLICIT')
        // A contract creation has to '' and is not on the list.
        expect((await signTx(unsignedEth(undefined), 'TRANSACTION_TYPE_ETHEREUM')).activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
        // Bytes that are not a transaction: eth.tx is absent, the policy errors and does not apply (no 500).
        const garbage = await signTx('02deadbeef', 'TRANSACTION_TYPE_ETHEREUM')
        expect(garbage.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
        expect(await outcome(garbage.activity.id, allow as string)).toBe('OUTCOME_ERROR')
      },
    )
  })

  it('an explicit DENY on eth.tx.value beats the allow-list (403 POLICY_DENIED, FAILED, both outcomes recorded)', async () => {
    await withPolicies(
      [
        { name: 'allow-list', effect: 'EFFECT_ALLOW', condition: `${ETH_SIGN} && eth.tx.to == '${ALLOWED}'` },
        { name: 'at most 1 ETH', effect: 'EFFECT_DENY', condition: 'eth.tx.value > 1000000000000000000', consensus: '' },
      ],
      async ([allow, deny]) => {
        expect((await signTx(unsignedEth(ALLOWED, parseEther('1')), 'TRANSACTION_TYPE_ETHEREUM')).activity.status).toBe(
          'ACTIVITY_STATUS_COMPLETED',
        )
        const denied = await signTx(unsignedEth(ALLOWED, parseEther('1.5')), 'TRANSACTION_TYPE_ETHEREUM').catch((e) => e)
        expect(denied).toMatchObject({ code: 7 })
        expect(String(denied.message)).toContain('OUTCOME_DENY_EXPLICIT')
        expect(String(denied.message)).toContain('at most 1 ETH')
        const raw = await svc.post(
          '/public/v1/submit/sign_transaction',
          submitBody('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', root, {
            signWith: eth,
            unsignedTransaction: unsignedEth(ALLOWED, parseEther('2')),
            type: 'TRANSACTION_TYPE_ETHEREUM',
          }),
          bobKey.stamper,
        )
        expect(raw.status).toBe(403)
        const activity = raw.json.details.find((d: any) => d['@type'] === 'type.googleapis.com/sigil.ActivityInfo')
        expect(activity.status).toBe('ACTIVITY_STATUS_FAILED')
        expect(await outcome(activity.activityId, deny as string)).toBe('OUTCOME_DENY_EXPLICIT')
        expect(await outcome(activity.activityId, allow as string)).toBe('OUTCOME_ALLOW')
      },
    )
  })

  it('eth_send_transaction: the allow-list sends (broadcast, included on the dev node); another recipient waits and sends nothing', async () => {
    const condition = `activity.type == 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2' && eth.tx.to in ['${ALLOWED}'] && eth.tx.chain_id == 31337 && eth.tx.from == '${eth.toLowerCase()}'`
    await withPolicies([{ name: 'send allow-list', effect: 'EFFECT_ALLOW', condition }], async ([allow]) => {
      const evm = createPublicClient({ transport: http(node.url) })
      const before = await evm.getBalance({ address: ALLOWED })
      const send = (to: string) =>
        bob.ethSendTransaction({
          type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2',
          timestampMs: now(),
          organizationId: root,
          parameters: { from: eth, caip2: 'eip155:31337' as never, calls: [{ to, value: parseEther('0.25').toString() }] },
        })
      const ok = await send(ALLOWED)
      expect(ok.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
      expect(await outcome(ok.activity.id, allow as string)).toBe('OUTCOME_ALLOW')
      const sendTransactionStatusId = ok.activity.result.ethSendTransactionResultV2?.sendTransactionStatusId as string
      const deadline = Date.now() + 20_000
      let status = await admin.getSendTransactionStatus({ organizationId: root, sendTransactionStatusId })
      while (status.txStatus !== 'INCLUDED' && status.txStatus !== 'FAILED' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50))
        status = await admin.getSendTransactionStatus({ organizationId: root, sendTransactionStatusId })
      }
      expect(status.txStatus).toBe('INCLUDED')
      expect(await evm.getBalance({ address: ALLOWED })).toBe(before + parseEther('0.25'))

      const nonce = await evm.getTransactionCount({ address: eth as Hex })
      const waits = await send(ELSEWHERE)
      expect(waits.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
      expect(waits.activity.result.ethSendTransactionResultV2).toBeUndefined()
      expect(await outcome(waits.activity.id, allow as string)).toBe('OUTCOME_DENY_IMPLICIT')
      expect(await evm.getTransactionCount({ address: eth as Hex })).toBe(nonce)
      expect(await evm.getBalance({ address: ELSEWHERE })).toBe(0n)
    })
  })

  it('eth_send_transaction batches: every call must pass the allow-list, and a contract creation (to absent) never matches it', async () => {
    const condition = `activity.type == 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2' && eth.tx.to in ['${ALLOWED}']`
    await withPolicies([{ name: 'batch allow-list', effect: 'EFFECT_ALLOW', condition }], async ([allow]) => {
      const send = (calls: Array<{ to?: string; value?: string; data?: string }>) =>
        bob.ethSendTransaction({
          type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2',
          timestampMs: now(),
          organizationId: root,
          parameters: { from: eth, caip2: 'eip155:31337' as never, calls: calls as never },
        })
      const both = await send([
        { to: ALLOWED, value: '1' },
        { to: ALLOWED, value: '2' },
      ])
      expect(both.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
      expect(await outcome(both.activity.id, allow as string)).toBe('OUTCOME_ALLOW')
      // One call elsewhere among allowed ones: the batch waits, nothing is recorded to send.
      const hidden = await send([
        { to: ALLOWED, value: '1' },
        { to: ELSEWHERE, value: '1' },
        { to: ALLOWED, value: '1' },
      ])
      expect(hidden.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
      expect(hidden.activity.result.ethSendTransactionResultV2).toBeUndefined()
      expect(await outcome(hidden.activity.id, allow as string)).toBe('OUTCOME_DENY_IMPLICIT')
      const creation = await send([{ data: '0x6000' }])
      expect(creation.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
      expect(await outcome(creation.activity.id, allow as string)).toBe('OUTCOME_DENY_IMPLICIT')
    })
  })

  it('contract_call_args from an uploaded ABI: a token transfer to one recipient only', async () => {
    const token = '0x4444444444444444444444444444444444444444'
    const abi = [
      {
        type: 'function',
        name: 'transfer',
        inputs: [
          { name: '_to', type: 'address' },
          { name: '_amount', type: 'uint256' },
        ],
        outputs: [{ name: '', type: 'bool' }],
        stateMutability: 'nonpayable',
      },
    ] as const
    const sci = await admin.createSmartContractInterface({
      type: 'ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE',
      timestampMs: now(),
      organizationId: root,
      parameters: {
        smartContractAddress: token,
        smartContractInterface: JSON.stringify(abi),
        type: 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM',
        label: 'token',
      },
    })
    expect(sci.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const condition = `eth.tx.to == '${token}' && eth.tx.function_name == 'transfer' && eth.tx.contract_call_args['_to'] == '${ALSO_ALLOWED.toLowerCase()}' && eth.tx.contract_call_args['_amount'] <= 1000`
    await withPolicies([{ name: 'token to one recipient', effect: 'EFFECT_ALLOW', condition }], async ([allow]) => {
      const call = (to: string, amount: bigint) => encodeFunctionData({ abi, functionName: 'transfer', args: [to as Hex, amount] })
      const ok = await signTx(unsignedEth(token, 0n, call(ALSO_ALLOWED, 1000n)), 'TRANSACTION_TYPE_ETHEREUM')
      expect(ok.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
      expect(await outcome(ok.activity.id, allow as string)).toBe('OUTCOME_ALLOW')
      for (const [to, amount] of [
        [ELSEWHERE, 1n],
        [ALSO_ALLOWED, 1001n],
      ] as const) {
        const waits = await signTx(unsignedEth(token, 0n, call(to, amount)), 'TRANSACTION_TYPE_ETHEREUM')
        expect(waits.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
        expect(await outcome(waits.activity.id, allow as string)).toBe('OUTCOME_DENY_IMPLICIT')
      }
    })
  })
})

describe('transactions that do not parse', () => {
  it('leave the namespace absent: policies reading it do not apply, nothing answers 500', async () => {
    const read = `eth.tx.to == '${ALLOWED}' || solana.tx.program_keys.count() > 0`
    await withPolicies([{ name: 'reads both', effect: 'EFFECT_ALLOW', condition: read }], async ([allow]) => {
      const cases: Array<[string, 'TRANSACTION_TYPE_ETHEREUM' | 'TRANSACTION_TYPE_SOLANA', string]> = [
        ['', 'TRANSACTION_TYPE_ETHEREUM', eth],
        ['zz', 'TRANSACTION_TYPE_ETHEREUM', eth],
        [`02${'f'.repeat(4000)}`, 'TRANSACTION_TYPE_ETHEREUM', eth],
        ['c0', 'TRANSACTION_TYPE_ETHEREUM', eth],
        ['', 'TRANSACTION_TYPE_SOLANA', sol],
        [`01${'00'.repeat(64)}ff`, 'TRANSACTION_TYPE_SOLANA', sol],
      ]
      for (const [unsignedTransaction, type, signWith] of cases) {
        const r = await svc.post(
          '/public/v1/submit/sign_transaction',
          submitBody('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', root, { signWith, unsignedTransaction, type }),
          bobKey.stamper,
        )
        expect(r.status, `${type} ${unsignedTransaction.slice(0, 10)}`).toBe(200)
        expect(r.json.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
        expect(await outcome(r.json.activity.id, allow as string)).toBe('OUTCOME_ERROR')
      }
    })
  })
})

describe('solana.tx', () => {
  const SYSTEM = '11111111111111111111111111111111'
  const recipient = solAddress(base58.encode(new Uint8Array(32).fill(7)))
  const unsignedSol = (instructions: (payer: ReturnType<typeof createNoopSigner>) => Instruction[]) => {
    const payer = createNoopSigner(solAddress(sol))
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(payer.address, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: base58.encode(new Uint8Array(32).fill(9)) as Blockhash, lastValidBlockHeight: 1n },
          m,
        ),
      (m) => appendTransactionMessageInstructions(instructions(payer), m),
    )
    return bytesToHex(new Uint8Array(getTransactionEncoder().encode(compileTransaction(message))))
  }

  it('program_keys and transfers: System Program transfers to one recipient only', async () => {
    const condition = `activity.params.type == 'TRANSACTION_TYPE_SOLANA' && solana.tx.program_keys.all(p, p == '${SYSTEM}') && solana.tx.transfers.all(t, t.to == '${recipient}' && t.amount <= 5000)`
    await withPolicies([{ name: 'sol to one recipient', effect: 'EFFECT_ALLOW', condition }], async ([allow]) => {
      const ok = await signTx(
        unsignedSol((payer) => [getTransferSolInstruction({ source: payer, destination: recipient, amount: 5000n })]),
        'TRANSACTION_TYPE_SOLANA',
        sol,
      )
      expect(ok.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
      expect(ok.activity.result.signTransactionResult?.signedTransaction).toMatch(/^01[0-9a-f]{128}/)
      expect(await outcome(ok.activity.id, allow as string)).toBe('OUTCOME_ALLOW')

      const tooMuch = await signTx(
        unsignedSol((payer) => [getTransferSolInstruction({ source: payer, destination: recipient, amount: 5001n })]),
        'TRANSACTION_TYPE_SOLANA',
        sol,
      )
      expect(tooMuch.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
      const token = solAddress(base58.encode(new Uint8Array(32).fill(8)))
      const withToken = await signTx(
        unsignedSol((payer) => [
          getTransferSolInstruction({ source: payer, destination: recipient, amount: 1n }),
          getTransferInstruction({ source: token, destination: recipient, authority: payer, amount: 1n }),
        ]),
        'TRANSACTION_TYPE_SOLANA',
        sol,
      )
      expect(withToken.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
      expect(await outcome(withToken.activity.id, allow as string)).toBe('OUTCOME_DENY_IMPLICIT')
    })
  })
  it('parsed_instruction_data from an uploaded IDL: program_call_args and named_accounts', async () => {
    const program = solAddress(base58.encode(new Uint8Array(32).fill(11)))
    const idl = {
      instructions: [
        { name: 'deposit', accounts: [{ name: 'owner', isMut: true, isSigner: true }], args: [{ name: 'amount', type: 'u64' }] },
      ],
      types: [],
    }
    const sci = await admin.createSmartContractInterface({
      type: 'ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE',
      timestampMs: now(),
      organizationId: root,
      parameters: {
        smartContractAddress: program,
        smartContractInterface: JSON.stringify(idl),
        type: 'SMART_CONTRACT_INTERFACE_TYPE_SOLANA',
        label: 'vault',
      },
    })
    expect(sci.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    // Anchor's default discriminator: sha256("global:deposit")[0..8], then the u64 little-endian.
    const deposit = (amount: bigint) =>
      unsignedSol((payer) => [
        {
          programAddress: program,
          accounts: [{ address: payer.address, role: AccountRole.WRITABLE_SIGNER }],
          data: concatBytes(sha256(new TextEncoder().encode('global:deposit')).subarray(0, 8), le64(amount)),
        },
      ])
    const condition = `solana.tx.instructions.all(i, i.program_key == '${program}' && i.parsed_instruction_data.instruction_name == 'deposit' && i.parsed_instruction_data.program_call_args['amount'] <= 100 && i.parsed_instruction_data.named_accounts['owner'] == '${sol}')`
    await withPolicies([{ name: 'small deposits', effect: 'EFFECT_ALLOW', condition }], async ([allow]) => {
      const ok = await signTx(deposit(100n), 'TRANSACTION_TYPE_SOLANA', sol)
      expect(ok.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
      expect(await outcome(ok.activity.id, allow as string)).toBe('OUTCOME_ALLOW')
      const waits = await signTx(deposit(101n), 'TRANSACTION_TYPE_SOLANA', sol)
      expect(waits.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
      expect(await outcome(waits.activity.id, allow as string)).toBe('OUTCOME_DENY_IMPLICIT')
    })
  })
})

const signPayload = (
  signWith: string,
  payload = 'ab'.repeat(32),
  encoding: 'PAYLOAD_ENCODING_HEXADECIMAL' | 'PAYLOAD_ENCODING_EIP712' = 'PAYLOAD_ENCODING_HEXADECIMAL',
) =>
  bob.signRawPayload({
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
    timestampMs: now(),
    organizationId: root,
    parameters: { signWith, payload, encoding, hashFunction: 'HASH_FUNCTION_NO_OP' },
  })

describe('wallet, wallet_account, eth.eip_712, credentials', () => {
  it('wallet.id and wallet_account.address: signing with the treasury only', async () => {
    await withPolicies(
      [
        {
          name: 'treasury',
          effect: 'EFFECT_ALLOW',
          condition: `activity.action == 'SIGN' && wallet.id == '${treasuryId}' && wallet.label == 'treasury' && !wallet.exported`,
        },
        { name: 'one account', effect: 'EFFECT_ALLOW', condition: `activity.action == 'SIGN' && wallet_account.address == '${eth}'` },
      ],
      async ([byWallet, byAccount]) => {
        const ok = await signPayload(eth)
        expect(ok.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
        expect(await outcome(ok.activity.id, byWallet as string)).toBe('OUTCOME_ALLOW')
        expect(await outcome(ok.activity.id, byAccount as string)).toBe('OUTCOME_ALLOW')
        const other = await signPayload(otherEth)
        expect(other.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
        expect(await outcome(other.activity.id, byWallet as string)).toBe('OUTCOME_DENY_IMPLICIT')
        expect(await outcome(other.activity.id, byAccount as string)).toBe('OUTCOME_DENY_IMPLICIT')
      },
    )
  })

  it('eth.eip_712.domain.verifying_contract: typed data for one contract only (addresses compared in lower case)', async () => {
    const typed = (verifyingContract: string) =>
      JSON.stringify(usdcPermit({ verifyingContract, owner: eth, spender: ALSO_ALLOWED, value: '1000000', deadline: '1900000000' }))
    const condition = `eth.eip_712.domain.verifying_contract == '${ALSO_ALLOWED.toLowerCase()}' && eth.eip_712.primary_type == 'Permit' && eth.eip_712.message['value'] <= 1000000 && eth.eip_712.domain.chain_id == 1`
    await withPolicies([{ name: 'permits for one token', effect: 'EFFECT_ALLOW', condition }], async ([allow]) => {
      const ok = await signPayload(eth, typed(ALSO_ALLOWED), 'PAYLOAD_ENCODING_EIP712')
      expect(ok.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
      expect(ok.activity.result.signRawPayloadResult?.r).toMatch(/^[0-9a-f]{64}$/)
      expect(await outcome(ok.activity.id, allow as string)).toBe('OUTCOME_ALLOW')
      const waits = await signPayload(eth, typed(ELSEWHERE), 'PAYLOAD_ENCODING_EIP712')
      expect(waits.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
      expect(await outcome(waits.activity.id, allow as string)).toBe('OUTCOME_DENY_IMPLICIT')
      // A batch is decided payload by payload: one message outside the policy holds the whole batch.
      const batch = (payloads: string[]) =>
        bob.signRawPayloads({
          type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS',
          timestampMs: now(),
          organizationId: root,
          parameters: { signWith: eth, payloads, encoding: 'PAYLOAD_ENCODING_EIP712', hashFunction: 'HASH_FUNCTION_NO_OP' },
        })
      const both = await batch([typed(ALSO_ALLOWED), typed(ALSO_ALLOWED.toLowerCase())])
      expect(both.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
      expect(both.activity.result.signRawPayloadsResult?.signatures).toHaveLength(2)
      const mixed = await batch([typed(ALSO_ALLOWED), typed(ELSEWHERE)])
      expect(mixed.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
      expect(await outcome(mixed.activity.id, allow as string)).toBe('OUTCOME_DENY_IMPLICIT')
      // A hex payload has no eth.eip_712: the policy errors and does not apply.
      const hex = await signPayload(eth)
      expect(hex.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
      expect(await outcome(hex.activity.id, allow as string)).toBe('OUTCOME_ERROR')
    })
  })

  it("credentials: a consensus on the approving API key's public key and type", async () => {
    const other = newApiKey('other')
    const consensus = `credentials.any(c, c.public_key == '${bobKey.publicKey}' && c.type == 'CREDENTIAL_TYPE_API_KEY_P256' && c.user_id == '${bobId}')`
    const wrong = `credentials.any(c, c.public_key == '${other.publicKey}')`
    await withPolicies(
      [{ name: "bob's key", effect: 'EFFECT_ALLOW', condition: "activity.action == 'SIGN'", consensus }],
      async ([allow]) => {
        const ok = await signPayload(eth)
        expect(ok.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
        expect(await outcome(ok.activity.id, allow as string)).toBe('OUTCOME_ALLOW')
      },
    )
    await withPolicies(
      [{ name: 'another key', effect: 'EFFECT_ALLOW', condition: "activity.action == 'SIGN'", consensus: wrong }],
      async ([allow]) => {
        const waits = await signPayload(eth)
        expect(waits.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
        expect(await outcome(waits.activity.id, allow as string)).toBe('OUTCOME_REQUIRES_CONSENSUS')
      },
    )
  })

  it("credentials of a later approval: carol's key approving completes what bob's request started", async () => {
    const consensus = `credentials.any(c, c.user_id == '${carolId}' && c.public_key == '${carolKey.publicKey}') && approvers.any(u, u.id == '${bobId}')`
    await withPolicies(
      [{ name: 'bob with carol', effect: 'EFFECT_ALLOW', condition: "activity.action == 'SIGN'", consensus }],
      async ([allow]) => {
        const res = await signPayload(eth)
        expect(res.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
        const carol = new TurnkeyClient(
          { baseUrl: svc.url },
          new ApiKeyStamper({ apiPublicKey: carolKey.publicKey, apiPrivateKey: carolKey.privateKeyHex }),
        )
        const approved = await carol.approveActivity({
          type: 'ACTIVITY_TYPE_APPROVE_ACTIVITY',
          timestampMs: now(),
          organizationId: root,
          parameters: { fingerprint: res.activity.fingerprint },
        })
        expect(approved.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
        const { policyEvaluations } = await admin.getPolicyEvaluations({ organizationId: root, activityId: res.activity.id })
        expect(policyEvaluations.map((e) => e.policyEvaluations.find((x) => x.policyId === allow)?.outcome)).toEqual([
          'OUTCOME_REQUIRES_CONSENSUS',
          'OUTCOME_ALLOW',
        ])
      },
    )
  })
})

describe('private_key', () => {
  it('a policy on private_key.tags lets Bob sign with the tagged key, by id or address, and eth.tx.from is its address', async () => {
    const created = await admin.createPrivateKeys({
      type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2',
      timestampMs: now(),
      organizationId: root,
      parameters: {
        privateKeys: [
          { privateKeyName: 'hot', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] },
          { privateKeyName: 'cold', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] },
        ],
      },
    })
    const [hot, cold] = created.activity.result.createPrivateKeysResultV2?.privateKeys ?? []
    const tag = await admin.createPrivateKeyTag({
      type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG',
      timestampMs: now(),
      organizationId: root,
      parameters: { privateKeyTagName: 'hot wallet', privateKeyIds: [hot?.privateKeyId as string] },
    })
    const tagId = tag.activity.result.createPrivateKeyTagResult?.privateKeyTagId as string
    const hotAddress = (hot?.addresses?.[0]?.address as string).toLowerCase()
    await withPolicies(
      [
        {
          name: 'hot keys',
          effect: 'EFFECT_ALLOW',
          condition: `private_key.tags.contains('${tagId}') && private_key.label == 'hot' && eth.tx.from == '${hotAddress}'`,
        },
      ],
      async ([allow]) => {
        for (const signWith of [hot?.privateKeyId as string, hot?.addresses?.[0]?.address as string]) {
          const ok = await signTx(unsignedEth(ALLOWED).slice(2), 'TRANSACTION_TYPE_ETHEREUM', signWith)
          expect(ok.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
          expect(await outcome(ok.activity.id, allow as string)).toBe('OUTCOME_ALLOW')
        }
        const waits = await signTx(unsignedEth(ALLOWED).slice(2), 'TRANSACTION_TYPE_ETHEREUM', cold?.privateKeyId as string)
        expect(waits.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
        expect(await outcome(waits.activity.id, allow as string)).toBe('OUTCOME_DENY_IMPLICIT')
      },
    )
  })
})
