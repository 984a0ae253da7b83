import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex, utf8Encode } from '../../src/crypto/encoding.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { encryptToTargetBundle } from '../../src/crypto/signedBundle.js'
import { newApiKey, rootUser } from './helpers/keys.js'
import { startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let org: string
let signer: string
let eth: string
let sol: string
let walletId: string
let foreignAddress: string
let subOrg: string
const bob = newApiKey('bob')

const ETH = {
  curve: 'CURVE_SECP256K1',
  pathFormat: 'PATH_FORMAT_BIP32',
  path: "m/44'/60'/0'/0/0",
  addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
}
const SOL = { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' }

async function submit(op: string, type: string, parameters: unknown, organizationId = org) {
  return svc.post(`/public/v1/submit/${op}`, submitBody(type, organizationId, parameters))
}
async function state(organizationId = org) {
  const wallets = (await svc.post('/public/v1/query/list_wallets', { organizationId })).json.wallets
  const accounts = (await svc.post('/public/v1/query/list_wallet_accounts', { organizationId, paginationOptions: { limit: '100' } })).json
    .accounts
  const subs = await svc.rt.db.query('SELECT id FROM organizations ORDER BY id')
  return { wallets, accounts, subs }
}
/** The response is `status`, names `field` in the message and in a BadRequest field violation. */
function expectFieldError(r: { status: number; json: any }, status: number, field: string) {
  expect(r.status, JSON.stringify(r.json)).toBe(status)
  expect(r.json.message).toContain(field)
  const bad = r.json.details.find((d: any) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest')
  expect(bad?.fieldViolations.map((v: any) => v.field)).toContain(field)
}
const sign = (parameters: Record<string, unknown>) =>
  submit('sign_raw_payload', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', {
    signWith: eth,
    payload: `0x${'ab'.repeat(32)}`,
    encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
    hashFunction: 'HASH_FUNCTION_NO_OP',
    ...parameters,
  })
const createWallet = (accounts: unknown[]) => submit('create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', { walletName: 'bad', accounts })

let baseline: Awaited<ReturnType<typeof state>>

beforeAll(async () => {
  svc = await startTestService()
  org = svc.admin.organizationId
  signer = (await (await fetch(`${svc.url}/healthz`)).json()).signerPublicKey
  const r = await submit('create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', { walletName: 'good', accounts: [ETH, SOL] })
  expect(r.status).toBe(200)
  ;({ walletId } = r.json.activity.result.createWalletResult)
  ;[eth, sol] = r.json.activity.result.createWalletResult.addresses
  const sub = await submit('create_sub_organization', 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', {
    subOrganizationName: 'other',
    rootUsers: [rootUser('bob', [bob.param])],
    rootQuorumThreshold: 1,
    wallet: { walletName: 'bob wallet', accounts: [{ ...ETH, path: "m/44'/60'/0'/0/1" }] },
  })
  expect(sub.status).toBe(200)
  subOrg = sub.json.activity.result.createSubOrganizationResultV8.subOrganizationId
  foreignAddress = sub.json.activity.result.createSubOrganizationResultV8.wallet.addresses[0]
  baseline = await state()
})
afterAll(async () => {
  await svc?.stop()
})

describe('bad inputs are 4xx naming the field, and store nothing', () => {
  it('unknown wallet', async () => {
    expectFieldError(
      await submit('create_wallet_accounts', 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', { walletId: 'no-such-wallet', accounts: [ETH] }),
      404,
      'parameters.walletId',
    )
    expectFieldError(await svc.post('/public/v1/query/get_wallet', { organizationId: org, walletId: 'nope' }), 404, 'walletId')
    expectFieldError(
      await submit('export_wallet', 'ACTIVITY_TYPE_EXPORT_WALLET', {
        walletId: 'nope',
        targetPublicKey: bytesToHex(generateP256KeyPair().publicKeyUncompressed),
      }),
      404,
      'parameters.walletId',
    )
    expectFieldError(
      await submit('delete_wallets', 'ACTIVITY_TYPE_DELETE_WALLETS', { walletIds: [walletId, 'nope'], deleteWithoutExport: true }),
      404,
      'parameters.walletIds[1]',
    )
  })

  it('an address not owned by the organization', async () => {
    expectFieldError(await sign({ signWith: '0x000000000000000000000000000000000000dEaD' }), 404, 'parameters.signWith')
    // the sub-organization's account cannot be used from the parent organization itself
    expectFieldError(await sign({ signWith: foreignAddress }), 404, 'parameters.signWith')
    expectFieldError(
      await submit('export_wallet_account', 'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT', {
        address: foreignAddress,
        targetPublicKey: bytesToHex(generateP256KeyPair().publicKeyUncompressed),
      }),
      404,
      'parameters.address',
    )
    // ...nor by the parent acting in the sub-organization (custody): 403 naming
    // organizationId, and no activity recorded there
    const inSubBody = () =>
      submitBody('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', subOrg, {
        signWith: foreignAddress,
        payload: `0x${'ab'.repeat(32)}`,
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      })
    const activities = async () => (await svc.post('/public/v1/query/list_activities', { organizationId: subOrg })).json.activities
    const before = await activities()
    const byParent = await svc.post('/public/v1/submit/sign_raw_payload', inSubBody())
    expectFieldError(byParent, 403, 'organizationId')
    expect(byParent.json.details).toContainEqual(expect.objectContaining({ reason: 'PERMISSION_DENIED' }))
    expect(await activities()).toEqual(before)
    // ...only by the sub-organization's own user
    const inSub = await svc.post('/public/v1/submit/sign_raw_payload', inSubBody(), bob.stamper)
    expect(inSub.status, JSON.stringify(inSub.json)).toBe(200)
    expect(inSub.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(await activities()).toHaveLength(before.length + 1)
  })

  it('a payload that is not hex for HEXADECIMAL', async () => {
    expectFieldError(await sign({ payload: 'not hex!', hashFunction: 'HASH_FUNCTION_KECCAK256' }), 400, 'parameters.payload')
    expectFieldError(await sign({ payload: '0xabc', hashFunction: 'HASH_FUNCTION_KECCAK256' }), 400, 'parameters.payload')
    const many = await submit('sign_raw_payloads', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS', {
      signWith: eth,
      payloads: ['0x1234', 'zz'],
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_KECCAK256',
    })
    expectFieldError(many, 400, 'parameters.payloads[1]')
    // NO_OP needs a 32-byte digest
    expectFieldError(await sign({ payload: '0x1234' }), 400, 'parameters.payload')
  })

  it('ed25519 with a hash function other than NOT_APPLICABLE', async () => {
    for (const hashFunction of ['HASH_FUNCTION_KECCAK256', 'HASH_FUNCTION_SHA256', 'HASH_FUNCTION_NO_OP']) {
      expectFieldError(await sign({ signWith: sol, payload: '0x1234', hashFunction }), 400, 'parameters.hashFunction')
    }
    expectFieldError(await sign({ hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE' }), 400, 'parameters.hashFunction')
  })

  it('curve / address format mismatch', async () => {
    const r = await createWallet([ETH, { ...ETH, curve: 'CURVE_ED25519', path: "m/44'/60'/0'/0'/0'" }])
    expectFieldError(r, 400, 'parameters.accounts[1].curve')
    expectFieldError(r, 400, 'parameters.accounts[1].addressFormat')
    expectFieldError(await createWallet([{ ...SOL, curve: 'CURVE_SECP256K1' }]), 400, 'parameters.accounts[0].curve')
  })

  it('malformed paths and non-hardened ed25519 paths', async () => {
    for (const path of ["m/44'/x/0", "44'/60'/0'/0/0", "m/44''/60'", 'm/4294967296', '']) {
      expectFieldError(await createWallet([{ ...ETH, path }]), 400, 'parameters.accounts[0].path')
    }
    const nonHardened = await createWallet([ETH, { ...SOL, path: "m/44'/501'/0'/0" }])
    expectFieldError(nonHardened, 400, 'parameters.accounts[1].path')
    expect(nonHardened.json.message).toMatch(/hardened/)
    expectFieldError(
      await submit('create_wallet_accounts', 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', {
        walletId,
        accounts: [{ ...SOL, path: "m/44'/501'/1'/0" }],
        persist: false,
      }),
      400,
      'parameters.accounts[0].path',
    )
  })

  it('a bad wallet in create_sub_organization creates no sub-organization', async () => {
    const r = await submit('create_sub_organization', 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', {
      subOrganizationName: 'bad wallet',
      rootUsers: [rootUser('carol')],
      rootQuorumThreshold: 1,
      wallet: { walletName: 'w', accounts: [{ ...SOL, path: "m/44'/501'/0'/0" }] },
    })
    expectFieldError(r, 400, 'parameters.wallet.accounts[0].path')
  })

  it('duplicate (walletId, path, addressFormat) accounts are 409', async () => {
    expectFieldError(
      await submit('create_wallet_accounts', 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', {
        walletId,
        accounts: [{ ...ETH, path: 'm/44h/60h/0h/0/0' }],
      }),
      409,
      'parameters.accounts[0]',
    )
    expectFieldError(
      await submit('create_wallet_accounts', 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', {
        walletId,
        accounts: [
          { ...ETH, path: "m/44'/60'/0'/0/5" },
          { ...ETH, path: "m/44'/60'/0'/0/5" },
        ],
      }),
      409,
      'parameters.accounts[1]',
    )
    expectFieldError(await createWallet([SOL, SOL]), 409, 'parameters.accounts[1]')
  })

  it('sign_transaction: wrong account curve, unsupported type, garbage transaction', async () => {
    const tx = (p: Record<string, unknown>) =>
      submit('sign_transaction', 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', {
        signWith: eth,
        unsignedTransaction: '0x02c0',
        type: 'TRANSACTION_TYPE_ETHEREUM',
        ...p,
      })
    expectFieldError(await tx({ signWith: sol }), 400, 'parameters.signWith')
    expectFieldError(await tx({ type: 'TRANSACTION_TYPE_SOLANA' }), 400, 'parameters.signWith')
    expectFieldError(await tx({ type: 'TRANSACTION_TYPE_TEMPO' }), 400, 'parameters.type')
    expectFieldError(await tx({ unsignedTransaction: '0xzz' }), 400, 'parameters.unsignedTransaction')
    expectFieldError(await tx({ unsignedTransaction: '0x02c0' }), 400, 'parameters.unsignedTransaction')
    expectFieldError(
      await tx({ signWith: sol, type: 'TRANSACTION_TYPE_SOLANA', unsignedTransaction: '0x0102' }),
      400,
      'parameters.unsignedTransaction',
    )
  })

  it('import_wallet: no init, an invalid mnemonic, an undecryptable bundle', async () => {
    const userId = svc.admin.userId
    const params = { userId, walletName: 'imported', accounts: [ETH] }
    expectFieldError(
      await submit('import_wallet', 'ACTIVITY_TYPE_IMPORT_WALLET', { ...params, encryptedBundle: '{}' }),
      412,
      'parameters.userId',
    )

    const init = await submit('init_import_wallet', 'ACTIVITY_TYPE_INIT_IMPORT_WALLET', { userId })
    const importBundle = init.json.activity.result.initImportWalletResult.importBundle
    const bad = await encryptToTargetBundle({
      targetBundle: importBundle,
      plaintext: utf8Encode('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon'),
      signerPublicKeyHex: signer,
    })
    if (!bad.ok) throw new Error(bad.reason)
    const r = await submit('import_wallet', 'ACTIVITY_TYPE_IMPORT_WALLET', { ...params, encryptedBundle: bad.envelope })
    expectFieldError(r, 400, 'parameters.encryptedBundle')
    expect(r.json.message).toContain('invalid mnemonic')
    expect(r.json.message).not.toContain('abandon')

    const garbage = await submit('import_wallet', 'ACTIVITY_TYPE_IMPORT_WALLET', { ...params, encryptedBundle: 'not json' })
    expectFieldError(garbage, 400, 'parameters.encryptedBundle')
    expectFieldError(await submit('init_import_wallet', 'ACTIVITY_TYPE_INIT_IMPORT_WALLET', { userId: 'nobody' }), 404, 'parameters.userId')
  })

  it('export with a bad target key', async () => {
    for (const targetPublicKey of ['zz', '04abcd', `02${'ff'.repeat(32)}`]) {
      expectFieldError(
        await submit('export_wallet', 'ACTIVITY_TYPE_EXPORT_WALLET', { walletId, targetPublicKey }),
        400,
        'parameters.targetPublicKey',
      )
    }
    expectFieldError(
      await submit('export_wallet_account', 'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT', { address: eth, targetPublicKey: '04' }),
      400,
      'parameters.targetPublicKey',
    )
  })

  it('bad pagination cursors', async () => {
    expectFieldError(
      await svc.post('/public/v1/query/list_wallet_accounts', { organizationId: org, paginationOptions: { after: 'nope' } }),
      400,
      'paginationOptions.after',
    )
    expectFieldError(
      await svc.post('/public/v1/query/list_wallet_accounts', { organizationId: org, paginationOptions: { limit: '101' } }),
      400,
      'paginationOptions.limit',
    )
  })

  it('left wallets, accounts and organizations unchanged', async () => {
    expect(baseline.accounts).toHaveLength(2)
    const now = await state()
    expect(now).toEqual(baseline)
    const wallet = (await svc.post('/public/v1/query/get_wallet', { organizationId: org, walletId })).json.wallet
    expect(wallet.exported).toBe(false)
  })
})
