/**
 * sign_transaction TRANSACTION_TYPE_TRON through the official `@turnkey/http` client: a Tron account
 * signs the raw data of real transactions (test/unit/chains/signTronTransaction.test.ts has their
 * sources); the result is `Transaction{raw_data, signature}` whose signature recovers the account's
 * address. A `tron.tx` policy allows a user outside the root quorum a small TRX transfer and leaves a
 * smart-contract call waiting. Bytes that are not a Tron transaction are a 400 naming the field.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tronAddress } from '../../src/chains/formats/tron.js'
import { readProto } from '../../src/chains/sign/tronTransaction.js'
import { bytesToHex, hexToBytes } from '../../src/crypto/encoding.js'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

const TRANSFER =
  '0a02163d220877ef4ace148b05ba40d8c5e5a6a32d5a69080112630a2d747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e5472616e73666572436f6e747261637412320a1541a7d8a35b260395c14aa456297662092ba3b76fc01215415a523b449890854c8fc460ab602df9f31fe4293f18c0843d2802709af4e1a6a32d'
const TRIGGER =
  '0a028ad92208eaef69105495eb1540f09fc0cfcd335aae01081f12a9010a31747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e54726967676572536d617274436f6e747261637412740a1541495511a493d8c362be4267224e6d81013a6862ee121541eca9bc828a3005b9a3b909f2cc5c2a54794de05f2244a9059cbb00000000000000000000004150125bea243a640bf85348873b6c4f3c517aee7a00000000000000000000000000000000000000000000000000000000000000017090cbbccfcd33900180c2d72f'
const now = () => String(Date.now())

let svc: TestService
let admin: TurnkeyClient
let bob: TurnkeyClient
let bobId: string
let root: string
let tron: string
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
      walletName: 'tron',
      accounts: [
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/195'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_TRON' },
      ],
    },
  })
  tron = created.activity.result.createWalletResult?.addresses[0] as string
})
afterAll(async () => {
  await svc?.stop()
})

const sign = (client: TurnkeyClient, unsignedTransaction: string) =>
  client.signTransaction({
    type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
    timestampMs: now(),
    organizationId: root,
    parameters: { signWith: tron, unsignedTransaction, type: 'TRANSACTION_TYPE_TRON' },
  })

/** The Tron address whose key made the signature of a signed `Transaction` (hex). */
function signerOf(signedHex: string, rawHex: string): string {
  const [raw, sig] = readProto(hexToBytes(signedHex))
  expect(raw && raw.wire === 2 && bytesToHex(raw.value)).toBe(rawHex)
  if (!sig || sig.wire !== 2 || sig.value.length !== 65) throw new Error('no 65-byte signature')
  const pk = secp256k1.Signature.fromBytes(sig.value.subarray(0, 64), 'compact')
    .addRecoveryBit((sig.value[64] as number) - 27)
    .recoverPublicKey(sha256(hexToBytes(rawHex)))
    .toBytes(false)
  return tronAddress(pk)
}

describe('sign_transaction TRANSACTION_TYPE_TRON', () => {
  it('signs the raw data of a transfer and of a contract call; each signature recovers the account', async () => {
    for (const raw of [TRANSFER, TRIGGER]) {
      const r = await sign(admin, raw)
      expect(r.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
      expect(signerOf(r.activity.result.signTransactionResult?.signedTransaction as string, raw)).toBe(tron)
    }
  })

  it('bytes that are not a Tron transaction are a 400 naming parameters.unsignedTransaction', async () => {
    for (const unsignedTransaction of ['zz', 'ff', '0a02163d']) {
      const r = await svc.post(
        '/public/v1/submit/sign_transaction',
        submitBody('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', root, { signWith: tron, unsignedTransaction, type: 'TRANSACTION_TYPE_TRON' }),
      )
      expect(r.status, unsignedTransaction).toBe(400)
      expect(r.json.message).toContain('parameters.unsignedTransaction')
    }
  })

  it('a tron.tx policy lets bob sign a TRX transfer under 2 TRX and leaves a contract call waiting', async () => {
    const created = await admin.createPolicy({
      type: 'ACTIVITY_TYPE_CREATE_POLICY_V3',
      timestampMs: now(),
      organizationId: root,
      parameters: {
        policyName: 'small TRX transfers',
        effect: 'EFFECT_ALLOW',
        condition: "tron.tx.contract.all(c, c.type == 'TransferContract' && c.amount < 2000000)",
        consensus: `approvers.any(u, u.id == '${bobId}')`,
        notes: '',
      },
    })
    const policyId = created.activity.result.createPolicyResult?.policyId as string
    try {
      const ok = await sign(bob, TRANSFER)
      expect(ok.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
      expect(signerOf(ok.activity.result.signTransactionResult?.signedTransaction as string, TRANSFER)).toBe(tron)
      const waits = await sign(bob, TRIGGER)
      expect(waits.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
      expect(waits.activity.result.signTransactionResult).toBeUndefined()
    } finally {
      await admin.deletePolicy({ type: 'ACTIVITY_TYPE_DELETE_POLICY', timestampMs: now(), organizationId: root, parameters: { policyId } })
    }
  })
})
