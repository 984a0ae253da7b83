/**
 * sign_transaction TRANSACTION_TYPE_BITCOIN through the official `@turnkey/http` client: a wallet
 * with Bitcoin accounts (P2WPKH and P2TR on regtest, P2PKH, P2SH-P2WPKH and P2WPKH on mainnet)
 * signs PSBTs built with @scure/btc-signer spending fake UTXOs of its addresses; btc-signer
 * finalizes and extracts what comes back, and each signature is checked against a sighash computed
 * independently (test/helpers/bitcoinPsbt.ts) with @noble/curves. Policies over `bitcoin.tx` (a DENY
 * on output values, an allow-list of output addresses) decide for a user outside the root quorum.
 * Hostile inputs are 400s naming parameters.unsignedTransaction.
 */
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { Transaction } from '@scure/btc-signer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BitcoinNetwork } from '../../src/chains/types.js'
import { bytesToHex, hexToBytes } from '../../src/crypto/encoding.js'
import { type BtcKind, psbtSpending, scriptOf, scriptOfAddress, verifyInputSignature } from '../helpers/bitcoinPsbt.js'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

type Account = { format: string; kind: BtcKind; network: BitcoinNetwork; path: string; address: string; publicKey: Uint8Array }

const ACCOUNTS: Array<Omit<Account, 'address' | 'publicKey'>> = [
  { format: 'ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH', kind: 'P2WPKH', network: 'REGTEST', path: "m/84'/1'/0'/0/0" },
  { format: 'ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR', kind: 'P2TR', network: 'REGTEST', path: "m/86'/1'/0'/0/0" },
  { format: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH', kind: 'P2PKH', network: 'MAINNET', path: "m/44'/0'/0'/0/0" },
  { format: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH', kind: 'P2SH', network: 'MAINNET', path: "m/49'/0'/0'/0/0" },
  { format: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH', kind: 'P2WPKH', network: 'MAINNET', path: "m/84'/0'/0'/0/0" },
]
/** A regtest address of nobody in the organization (the BIP-173 test vector's key hash, on `bcrt`). */
const STRANGER_SCRIPT = hexToBytes('0014751e76e8199196d454941c45d1b3a323f1433bd6')
const now = () => String(Date.now())

let svc: TestService
let admin: TurnkeyClient
let bob: TurnkeyClient
let bobId: string
let root: string
let accounts: Account[]
const bobKey = newApiKey('bob')

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
  bobId = users.json.activity.result.createUsersResult.userIds[0]
  const created = await admin.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: now(),
    organizationId: root,
    parameters: {
      walletName: 'bitcoin',
      accounts: ACCOUNTS.map((a) => ({
        curve: 'CURVE_SECP256K1' as const,
        pathFormat: 'PATH_FORMAT_BIP32' as const,
        path: a.path,
        addressFormat: a.format as 'ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH',
      })),
    },
  })
  const walletId = created.activity.result.createWalletResult?.walletId as string
  const listed = await admin.getWalletAccounts({ organizationId: root, walletId })
  accounts = ACCOUNTS.map((a) => {
    const row = listed.accounts.find((r) => r.addressFormat === a.format)
    if (!row?.publicKey) throw new Error(`no account ${a.format}`)
    return { ...a, address: row.address, publicKey: hexToBytes(row.publicKey) }
  })
})
afterAll(async () => {
  await svc?.stop()
})

const account = (format: string) => accounts.find((a) => a.format.endsWith(format)) as Account

const sign = (client: TurnkeyClient, signWith: string, unsignedTransaction: string) =>
  client.signTransaction({
    type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
    timestampMs: now(),
    organizationId: root,
    parameters: { signWith, unsignedTransaction, type: 'TRANSACTION_TYPE_BITCOIN' },
  })

const signedPsbt = (hex: string | undefined) => {
  expect(hex).toMatch(/^70736274ff[0-9a-f]+$/)
  return Transaction.fromPSBT(hexToBytes(hex as string), { allowUnknownOutputs: true, allowUnknownInputs: true })
}

describe('sign_transaction TRANSACTION_TYPE_BITCOIN', () => {
  it('each account signs its own input of a PSBT (regtest and mainnet, P2WPKH, P2TR, P2PKH, P2SH-P2WPKH) and leaves the other', async () => {
    for (const [i, a] of accounts.entries()) {
      // The account's UTXO is found by the address the service gave it, not by a script we made from its key.
      const mine = scriptOfAddress(a.address, a.network)
      expect(bytesToHex(mine)).toBe(bytesToHex(scriptOf(a.kind, a.publicKey)))
      const psbt = psbtSpending(
        [
          { script: mine, amount: 40_000n, seed: 10 + i },
          { script: STRANGER_SCRIPT, amount: 7_000n, seed: 40 + i },
        ],
        [{ script: STRANGER_SCRIPT, amount: 45_000n }],
      )
      const r = await sign(admin, a.address, bytesToHex(psbt.toPSBT()))
      expect(r.activity.status, a.format).toBe('ACTIVITY_STATUS_COMPLETED')
      const signed = signedPsbt(r.activity.result.signTransactionResult?.signedTransaction)
      expect(verifyInputSignature(signed, 0, a.kind, a.publicKey, 40_000n), a.format).toBe(true)
      signed.finalizeIdx(0)
      expect(signed.getInput(0).finalScriptWitness ?? signed.getInput(0).finalScriptSig, a.format).toBeDefined()
      expect(signed.getInput(1).partialSig, a.format).toBeUndefined()
      expect(signed.getInput(1).tapKeySig, a.format).toBeUndefined()
    }
  })

  it('a regtest PSBT spending two accounts is signed by each in turn, then finalized and extracted whole', async () => {
    const wpkh = account('REGTEST_P2WPKH')
    const tr = account('REGTEST_P2TR')
    const psbt = psbtSpending(
      [
        { script: scriptOf('P2WPKH', wpkh.publicKey), amount: 60_000n, seed: 1 },
        { script: scriptOf('P2TR', tr.publicKey), amount: 50_000n, seed: 2 },
      ],
      [
        { script: STRANGER_SCRIPT, amount: 100_000n },
        { script: scriptOfAddress(tr.address, 'REGTEST'), amount: 9_000n },
      ],
    )
    const first = await sign(admin, wpkh.address, bytesToHex(psbt.toPSBT()))
    const second = await sign(admin, tr.address, first.activity.result.signTransactionResult?.signedTransaction as string)
    const signed = signedPsbt(second.activity.result.signTransactionResult?.signedTransaction)
    expect(verifyInputSignature(signed, 0, 'P2WPKH', wpkh.publicKey, 60_000n)).toBe(true)
    expect(verifyInputSignature(signed, 1, 'P2TR', tr.publicKey, 50_000n)).toBe(true)
    signed.finalize()
    const raw = Transaction.fromRaw(signed.extract(), { allowUnknownOutputs: true })
    expect(raw.inputsLength).toBe(2)
    expect(raw.id).toBe(signed.id)
    expect(signed.fee).toBe(1_000n)
  })

  it('hostile PSBTs are 400s naming parameters.unsignedTransaction, never 5xx', async () => {
    const a = account('REGTEST_P2WPKH')
    const foreignOnly = psbtSpending([{ script: STRANGER_SCRIPT, amount: 1_000n, seed: 3 }], [{ script: STRANGER_SCRIPT, amount: 900n }])
    const cases: Array<[string, RegExp]> = [
      ['zz-not-hex', /hex/],
      ['deadbeef', /not a PSBT/],
      ['70736274ff01000a', /not a valid PSBT/],
      [bytesToHex(foreignOnly.toPSBT()), /no input of this PSBT/],
    ]
    for (const [unsignedTransaction, message] of cases) {
      const r = await svc.post(
        '/public/v1/submit/sign_transaction',
        submitBody('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', root, {
          signWith: a.address,
          unsignedTransaction,
          type: 'TRANSACTION_TYPE_BITCOIN',
        }),
      )
      expect(r.status, unsignedTransaction.slice(0, 20)).toBe(400)
      expect(r.json.message).toContain('parameters.unsignedTransaction')
      expect(r.json.message).toMatch(message)
    }
    // The official client sees the same refusal (gRPC INVALID_ARGUMENT).
    const viaClient = await sign(admin, a.address, bytesToHex(foreignOnly.toPSBT())).catch((e) => e)
    expect(viaClient).toMatchObject({ code: 3 })
    expect(String(viaClient.message)).toContain('parameters.unsignedTransaction')
  })
})

describe('bitcoin.tx policies', () => {
  async function withPolicies(
    policies: Array<{ name: string; effect: 'EFFECT_ALLOW' | 'EFFECT_DENY'; condition: string; consensus: string }>,
    body: () => Promise<void>,
  ) {
    const ids: string[] = []
    try {
      for (const p of policies) {
        const r = await admin.createPolicy({
          type: 'ACTIVITY_TYPE_CREATE_POLICY_V3',
          timestampMs: now(),
          organizationId: root,
          parameters: { policyName: p.name, effect: p.effect, condition: p.condition, consensus: p.consensus, notes: '' },
        })
        ids.push(r.activity.result.createPolicyResult?.policyId as string)
      }
      await body()
    } finally {
      for (const policyId of ids) {
        await admin.deletePolicy({
          type: 'ACTIVITY_TYPE_DELETE_POLICY',
          timestampMs: now(),
          organizationId: root,
          parameters: { policyId },
        })
      }
    }
  }
  const BTC_SIGN = "activity.type == 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2' && activity.params.type == 'TRANSACTION_TYPE_BITCOIN'"
  const paying = (a: Account, value: bigint, to = STRANGER_SCRIPT, seed = 7) =>
    bytesToHex(
      psbtSpending([{ script: scriptOf(a.kind, a.publicKey), amount: value + 500n, seed }], [{ script: to, amount: value }]).toPSBT(),
    )

  it('a DENY on outputs above 100000 sats refuses 150000 (403, nothing signed) and lets 50000 through', async () => {
    const a = account('REGTEST_P2WPKH')
    await withPolicies(
      [
        { name: 'bob signs bitcoin', effect: 'EFFECT_ALLOW', condition: BTC_SIGN, consensus: `approvers.any(u, u.id == '${bobId}')` },
        {
          name: 'no output above 100000 sats',
          effect: 'EFFECT_DENY',
          condition: 'bitcoin.tx.outputs.any(o, o.value > 100000)',
          consensus: '',
        },
      ],
      async () => {
        const ok = await sign(bob, a.address, paying(a, 50_000n))
        expect(ok.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
        expect(
          verifyInputSignature(signedPsbt(ok.activity.result.signTransactionResult?.signedTransaction), 0, 'P2WPKH', a.publicKey, 50_500n),
        ).toBe(true)
        const denied = await sign(bob, a.address, paying(a, 150_000n)).catch((e) => e)
        expect(denied).toMatchObject({ code: 7 })
        expect(String(denied.message)).toContain('OUTCOME_DENY_EXPLICIT')
        expect(String(denied.message)).toContain('no output above 100000 sats')
        // A PSBT that does not parse is unreadable to the DENY: refused, never signed.
        const garbage = await sign(bob, a.address, '70736274ff00').catch((e) => e)
        expect(garbage).toMatchObject({ code: 7 })
        expect(String(garbage.message)).toContain('no output above 100000 sats')
      },
    )
  })

  it('an allow-list of output addresses (regtest encoding, fee cap) signs what it lists and leaves the rest waiting', async () => {
    const a = account('REGTEST_P2TR')
    const listed = account('REGTEST_P2WPKH').address
    expect(listed).toMatch(/^bcrt1q/)
    await withPolicies(
      [
        {
          name: 'pay only the listed address',
          effect: 'EFFECT_ALLOW',
          condition: `${BTC_SIGN} && bitcoin.tx.outputs.all(o, o.address == '${listed}' && o.address_type == 'p2wpkh') && bitcoin.tx.fee <= 1000 && bitcoin.tx.locktime.type == 'Blocks'`,
          consensus: `approvers.any(u, u.id == '${bobId}')`,
        },
      ],
      async () => {
        const ok = await sign(bob, a.address, paying(a, 20_000n, scriptOfAddress(listed, 'REGTEST')))
        expect(ok.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
        const signed = signedPsbt(ok.activity.result.signTransactionResult?.signedTransaction)
        expect(verifyInputSignature(signed, 0, 'P2TR', a.publicKey, 20_500n)).toBe(true)
        const elsewhere = await sign(bob, a.address, paying(a, 20_000n))
        expect(elsewhere.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
        expect(elsewhere.activity.result.signTransactionResult).toBeUndefined()
      },
    )
  })
})
