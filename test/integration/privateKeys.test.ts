/**
 * Private keys through the unmodified `@turnkey/http` client: create (V2 and V1) →
 * read → sign by id and by address → disable → tags → delete, and the refusals (duplicate names,
 * formats that do not fit the curve, unknown and foreign ids, unexported deletes), all or nothing.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { decryptExportBundle, encryptPrivateKeyToBundle } from '@turnkey/crypto'
import { TurnkeyClient } from '@turnkey/http'
import { base58 } from '@scure/base'
import { parseTransaction, recoverAddress, recoverTransactionAddress, serializeTransaction, keccak256 } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex, hexToBytes } from '../../src/crypto/encoding.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let client: TurnkeyClient
let org: string

const ts = () => String(Date.now())
const S = '/public/v1/submit/'

async function create(
  privateKeys: Array<{
    privateKeyName: string
    curve: 'CURVE_SECP256K1' | 'CURVE_ED25519' | 'CURVE_P256'
    addressFormats: any[]
    privateKeyTags?: string[]
  }>,
) {
  return client.createPrivateKeys({
    type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2',
    timestampMs: ts(),
    organizationId: org,
    parameters: { privateKeys: privateKeys.map((k) => ({ privateKeyTags: [], ...k })) },
  })
}

async function signDigest(signWith: string, digest: string) {
  return svc.post(
    `${S}sign_raw_payload`,
    submitBody('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', org, {
      signWith,
      payload: digest,
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    }),
  )
}

beforeAll(async () => {
  svc = await startTestService()
  org = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
})
afterAll(async () => {
  await svc?.stop()
})

describe('private keys', () => {
  let ethKey: { id: string; address: string }
  let solKey: { id: string; address: string }

  it('create_private_keys V2 returns each key with its addresses; get and list read them back', async () => {
    const r = await create([
      { privateKeyName: 'hot eth', curve: 'CURVE_SECP256K1', addressFormats: ['ADDRESS_FORMAT_ETHEREUM', 'ADDRESS_FORMAT_COMPRESSED'] },
      { privateKeyName: 'hot sol', curve: 'CURVE_ED25519', addressFormats: ['ADDRESS_FORMAT_SOLANA'] },
    ])
    const keys = r.activity.result.createPrivateKeysResultV2?.privateKeys ?? []
    expect(keys).toHaveLength(2)
    expect(keys[0]?.addresses?.map((a) => a.format)).toEqual(['ADDRESS_FORMAT_ETHEREUM', 'ADDRESS_FORMAT_COMPRESSED'])
    expect(keys[0]?.addresses?.[0]?.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    ethKey = { id: keys[0]?.privateKeyId as string, address: keys[0]?.addresses?.[0]?.address as string }
    solKey = { id: keys[1]?.privateKeyId as string, address: keys[1]?.addresses?.[0]?.address as string }

    const { privateKey } = await client.getPrivateKey({ organizationId: org, privateKeyId: ethKey.id })
    expect([privateKey.privateKeyName, privateKey.curve, privateKey.exported, privateKey.imported]).toEqual([
      'hot eth',
      'CURVE_SECP256K1',
      false,
      false,
    ])
    expect(privateKey.publicKey).toBe(keys[0]?.addresses?.[1]?.address)
    expect(JSON.stringify(privateKey)).not.toMatch(/private_key_enc|privateKeyMaterial/)
    const { privateKeys } = await client.getPrivateKeys({ organizationId: org })
    expect(privateKeys.map((k) => k.privateKeyName)).toEqual(['hot eth', 'hot sol'])
  })

  it('signs by private key id and by address (raw payload and an Ethereum transaction); ed25519 signatures verify', async () => {
    const digest = keccak256(new TextEncoder().encode('sigil private key')).slice(2)
    for (const signWith of [ethKey.id, ethKey.address, ethKey.address.toLowerCase()]) {
      const r = await signDigest(signWith, digest)
      expect(r.status).toBe(200)
      const { r: sr, s, v } = r.json.activity.result.signRawPayloadResult
      const signer = await recoverAddress({
        hash: `0x${digest}`,
        signature: { r: `0x${sr}`, s: `0x${s}`, yParity: Number.parseInt(v, 16) },
      })
      expect(signer).toBe(ethKey.address)
    }
    const unsigned = serializeTransaction({
      chainId: 31337,
      nonce: 0,
      to: '0x000000000000000000000000000000000000dEaD',
      value: 1n,
      gas: 21000n,
      maxFeePerGas: 2n,
      maxPriorityFeePerGas: 1n,
    })
    const tx = await client.signTransaction({
      type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
      timestampMs: ts(),
      organizationId: org,
      parameters: { signWith: ethKey.id, unsignedTransaction: unsigned.slice(2), type: 'TRANSACTION_TYPE_ETHEREUM' },
    })
    const signed = `0x${tx.activity.result.signTransactionResult?.signedTransaction}` as `0x${string}`
    expect(parseTransaction(signed).to?.toLowerCase()).toBe('0x000000000000000000000000000000000000dead')
    expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(ethKey.address)

    const sol = await svc.post(
      `${S}sign_raw_payload`,
      submitBody('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', org, {
        signWith: solKey.id,
        payload: 'abcd',
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE',
      }),
    )
    expect(sol.status).toBe(200)
    const { r: sr, s } = sol.json.activity.result.signRawPayloadResult
    expect(ed25519.verify(hexToBytes(sr + s), hexToBytes('abcd'), base58.decode(solKey.address))).toBe(true)
  })

  it('the V1 signing types take privateKeyId (SIGN_RAW_PAYLOAD, SIGN_TRANSACTION); an unknown id is 404 naming it', async () => {
    const digest = '22'.repeat(32)
    const r = await svc.post(
      `${S}sign_raw_payload`,
      submitBody('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD', org, {
        privateKeyId: ethKey.id,
        payload: digest,
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      }),
    )
    expect(r.status).toBe(200)
    expect(r.json.activity.intent.signRawPayloadIntent.privateKeyId).toBe(ethKey.id)
    const { r: sr, s, v } = r.json.activity.result.signRawPayloadResult
    expect(await recoverAddress({ hash: `0x${digest}`, signature: { r: `0x${sr}`, s: `0x${s}`, yParity: Number.parseInt(v, 16) } })).toBe(
      ethKey.address,
    )
    const unsigned = serializeTransaction({
      chainId: 1,
      nonce: 3,
      to: '0x000000000000000000000000000000000000dEaD',
      value: 1n,
      gas: 21000n,
      gasPrice: 5n,
    })
    const t = await svc.post(
      `${S}sign_transaction`,
      submitBody('ACTIVITY_TYPE_SIGN_TRANSACTION', org, {
        privateKeyId: ethKey.id,
        unsignedTransaction: unsigned.slice(2),
        type: 'TRANSACTION_TYPE_ETHEREUM',
      }),
    )
    expect(t.status).toBe(200)
    const signed = `0x${t.json.activity.result.signTransactionResult.signedTransaction}` as `0x${string}`
    expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(ethKey.address)
    const unknown = await svc.post(
      `${S}sign_raw_payload`,
      submitBody('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD', org, {
        privateKeyId: 'nope',
        payload: digest,
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      }),
    )
    expect(unknown.status).toBe(404)
    expect(JSON.stringify(unknown.json)).toContain('parameters.privateKeyId')
  })

  it('refuses a duplicate name (409, the whole request), a format that does not fit the curve (400), unknown tags (404)', async () => {
    const dup = await svc.post(
      `${S}create_private_keys`,
      submitBody('ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2', org, {
        privateKeys: [
          { privateKeyName: 'fresh', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: [] },
          { privateKeyName: 'hot eth', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: [] },
        ],
      }),
    )
    expect(dup.status).toBe(409)
    expect(JSON.stringify(dup.json)).toContain('parameters.privateKeys[1].privateKeyName')
    const misfit = await svc.post(
      `${S}create_private_keys`,
      submitBody('ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2', org, {
        privateKeys: [
          { privateKeyName: 'misfit', curve: 'CURVE_ED25519', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] },
        ],
      }),
    )
    expect(misfit.status).toBe(400)
    expect(JSON.stringify(misfit.json)).toContain('parameters.privateKeys[0].addressFormats[0]')
    const badTag = await svc.post(
      `${S}create_private_keys`,
      submitBody('ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2', org, {
        privateKeys: [{ privateKeyName: 'tagged', curve: 'CURVE_P256', privateKeyTags: ['nope'], addressFormats: [] }],
      }),
    )
    expect(badTag.status).toBe(404)
    expect(JSON.stringify(badTag.json)).toContain('parameters.privateKeys[0].privateKeyTags[0]')
    expect((await client.getPrivateKeys({ organizationId: org })).privateKeys.map((k) => k.privateKeyName)).toEqual(['hot eth', 'hot sol'])
  })

  it('V1 creates keys and answers their ids', async () => {
    const r = await svc.post(
      `${S}create_private_keys`,
      submitBody('ACTIVITY_TYPE_CREATE_PRIVATE_KEYS', org, {
        privateKeys: [{ privateKeyName: 'v1 key', curve: 'CURVE_P256', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_COMPRESSED'] }],
      }),
    )
    expect(r.status).toBe(200)
    const [id] = r.json.activity.result.createPrivateKeysResult.privateKeyIds
    expect((await client.getPrivateKey({ organizationId: org, privateKeyId: id })).privateKey.curve).toBe('CURVE_P256')
  })

  it('tags: create → the key carries it → list → update → delete', async () => {
    const t = await client.createPrivateKeyTag({
      type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG',
      timestampMs: ts(),
      organizationId: org,
      parameters: { privateKeyTagName: 'treasury', privateKeyIds: [ethKey.id] },
    })
    const tagId = t.activity.result.createPrivateKeyTagResult?.privateKeyTagId as string
    expect((await client.getPrivateKey({ organizationId: org, privateKeyId: ethKey.id })).privateKey.privateKeyTags).toEqual([tagId])
    const { privateKeyTags } = await client.listPrivateKeyTags({ organizationId: org })
    expect(privateKeyTags.map((x) => [x.tagName, x.tagType])).toEqual([['treasury', 'TAG_TYPE_PRIVATE_KEY']])
    await client.updatePrivateKeyTag({
      type: 'ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG',
      timestampMs: ts(),
      organizationId: org,
      parameters: { privateKeyTagId: tagId, newPrivateKeyTagName: 'cold', addPrivateKeyIds: [solKey.id], removePrivateKeyIds: [ethKey.id] },
    })
    expect((await client.getPrivateKey({ organizationId: org, privateKeyId: ethKey.id })).privateKey.privateKeyTags).toEqual([])
    expect((await client.getPrivateKey({ organizationId: org, privateKeyId: solKey.id })).privateKey.privateKeyTags).toEqual([tagId])
    const d = await client.deletePrivateKeyTags({
      type: 'ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS',
      timestampMs: ts(),
      organizationId: org,
      parameters: { privateKeyTagIds: [tagId] },
    })
    expect(d.activity.result.deletePrivateKeyTagsResult).toEqual({ privateKeyTagIds: [tagId], privateKeyIds: [solKey.id] })
    expect((await client.getPrivateKey({ organizationId: org, privateKeyId: solKey.id })).privateKey.privateKeyTags).toEqual([])
    // A user tag is not a private-key tag.
    const userTag = await svc.post(
      `${S}create_user_tag`,
      submitBody('ACTIVITY_TYPE_CREATE_USER_TAG', org, { userTagName: 'people', userIds: [] }),
    )
    const userTagId = userTag.json.activity.result.createUserTagResult.userTagId
    const wrongType = await svc.post(
      `${S}update_private_key_tag`,
      submitBody('ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG', org, {
        privateKeyTagId: userTagId,
        addPrivateKeyIds: [],
        removePrivateKeyIds: [],
      }),
    )
    expect(wrongType.status).toBe(404)
  })

  it('a disabled key signs nothing (412 naming parameters.signWith) but is still readable', async () => {
    const r = await create([{ privateKeyName: 'to disable', curve: 'CURVE_SECP256K1', addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] }])
    const k = r.activity.result.createPrivateKeysResultV2?.privateKeys?.[0]
    const id = k?.privateKeyId as string
    const disabled = await svc.post(`${S}disable_private_key`, submitBody('ACTIVITY_TYPE_DISABLE_PRIVATE_KEY', org, { privateKeyId: id }))
    expect(disabled.status).toBe(200)
    expect(disabled.json.activity.result.disablePrivateKeyResult.privateKeyId).toBe(id)
    for (const signWith of [id, k?.addresses?.[0]?.address as string]) {
      const refused = await signDigest(signWith, '00'.repeat(32))
      expect(refused.status).toBe(412)
      expect(JSON.stringify(refused.json)).toContain('parameters.signWith')
    }
    expect((await client.getPrivateKey({ organizationId: org, privateKeyId: id })).privateKey.privateKeyName).toBe('to disable')
  })

  it('delete refuses an unexported key without deleteWithoutExport (412, none deleted), then deletes', async () => {
    const refused = await svc.post(
      `${S}delete_private_keys`,
      submitBody('ACTIVITY_TYPE_DELETE_PRIVATE_KEYS', org, { privateKeyIds: [solKey.id, ethKey.id] }),
    )
    expect(refused.status).toBe(412)
    expect(JSON.stringify(refused.json)).toContain('deleteWithoutExport')
    expect((await client.getPrivateKeys({ organizationId: org })).privateKeys.some((k) => k.privateKeyId === solKey.id)).toBe(true)
    const done = await client.deletePrivateKeys({
      type: 'ACTIVITY_TYPE_DELETE_PRIVATE_KEYS',
      timestampMs: ts(),
      organizationId: org,
      parameters: { privateKeyIds: [solKey.id], deleteWithoutExport: true },
    })
    expect(done.activity.result.deletePrivateKeysResult?.privateKeyIds).toEqual([solKey.id])
    const gone = await svc.post('/public/v1/query/get_private_key', { organizationId: org, privateKeyId: solKey.id })
    expect(gone.status).toBe(404)
    expect(JSON.stringify(gone.json)).toContain('privateKeyId')
    expect((await signDigest(solKey.address, 'abcd')).status).toBe(404)
  })

  it("another organization's private key is the same 404 to read, sign with, tag or delete", async () => {
    const key = newApiKey('sub')
    const sub = await client.createSubOrganization({
      type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
      timestampMs: ts(),
      organizationId: org,
      parameters: {
        subOrganizationName: 'pk sub',
        rootUsers: [{ userName: 'sub root', apiKeys: [key.param], authenticators: [], oauthProviders: [] }],
        rootQuorumThreshold: 1,
      },
    })
    const subOrg = sub.activity.result.createSubOrganizationResultV8?.subOrganizationId as string
    const made = await svc.post(
      `${S}create_private_keys`,
      submitBody('ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2', subOrg, {
        privateKeys: [
          { privateKeyName: 'sub key', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] },
        ],
      }),
      key.stamper, // made by the sub-organization's own root user (custody)
    )
    expect(made.status, JSON.stringify(made.json)).toBe(200)
    const subKey = made.json.activity.result.createPrivateKeysResultV2.privateKeys[0]
    expect((await svc.post('/public/v1/query/get_private_key', { organizationId: org, privateKeyId: subKey.privateKeyId })).status).toBe(
      404,
    )
    expect((await signDigest(subKey.privateKeyId, '00'.repeat(32))).status).toBe(404)
    expect((await signDigest(subKey.addresses[0].address, '00'.repeat(32))).status).toBe(404)
    const tag = await svc.post(
      `${S}create_private_key_tag`,
      submitBody('ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG', org, { privateKeyTagName: 'x', privateKeyIds: [subKey.privateKeyId] }),
    )
    expect(tag.status).toBe(404)
    const del = await svc.post(
      `${S}delete_private_keys`,
      submitBody('ACTIVITY_TYPE_DELETE_PRIVATE_KEYS', org, { privateKeyIds: [subKey.privateKeyId], deleteWithoutExport: true }),
    )
    expect(del.status).toBe(404)
    expect(JSON.stringify(del.json)).toContain('parameters.privateKeyIds[0]')
  })
})

describe('import and export', () => {
  const HARDHAT0 = 'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

  async function importKey(
    name: string,
    privateKey: string,
    keyFormat: 'HEXADECIMAL' | 'SOLANA',
    curve: 'CURVE_SECP256K1' | 'CURVE_ED25519',
    addressFormats: any[],
  ) {
    const signerPublicKey = (await (await fetch(`${svc.url}/healthz`)).json()).signerPublicKey as string
    const init = await client.initImportPrivateKey({
      type: 'ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY',
      timestampMs: ts(),
      organizationId: org,
      parameters: { userId: svc.admin.userId },
    })
    const importBundle = init.activity.result.initImportPrivateKeyResult?.importBundle as string
    const encryptedBundle = await encryptPrivateKeyToBundle({
      privateKey,
      keyFormat,
      importBundle,
      userId: svc.admin.userId,
      organizationId: org,
      dangerouslyOverrideSignerPublicKey: signerPublicKey,
    })
    return svc.post(
      `${S}import_private_key`,
      submitBody('ACTIVITY_TYPE_IMPORT_PRIVATE_KEY', org, {
        userId: svc.admin.userId,
        privateKeyName: name,
        encryptedBundle,
        curve,
        addressFormats,
      }),
    )
  }

  it('imports a key sealed by @turnkey/crypto (hex and Solana formats), signs with it, exports it back', async () => {
    const r = await importKey('imported eth', HARDHAT0, 'HEXADECIMAL', 'CURVE_SECP256K1', ['ADDRESS_FORMAT_ETHEREUM'])
    expect(r.status).toBe(200)
    const result = r.json.activity.result.importPrivateKeyResult
    expect(result.addresses).toEqual([{ format: 'ADDRESS_FORMAT_ETHEREUM', address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }])
    const { privateKey } = await client.getPrivateKey({ organizationId: org, privateKeyId: result.privateKeyId })
    expect([privateKey.imported, privateKey.exported]).toEqual([true, false])
    expect((await signDigest('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', '11'.repeat(32))).status).toBe(200)

    const signerPublicKey = (await (await fetch(`${svc.url}/healthz`)).json()).signerPublicKey as string
    const target = generateP256KeyPair()
    const exported = await client.exportPrivateKey({
      type: 'ACTIVITY_TYPE_EXPORT_PRIVATE_KEY',
      timestampMs: ts(),
      organizationId: org,
      parameters: { privateKeyId: result.privateKeyId, targetPublicKey: bytesToHex(target.publicKeyUncompressed) },
    })
    const exportBundle = exported.activity.result.exportPrivateKeyResult?.exportBundle as string
    const hex = await decryptExportBundle({
      exportBundle,
      embeddedKey: bytesToHex(target.privateKey),
      organizationId: org,
      dangerouslyOverrideSignerPublicKey: signerPublicKey,
      returnMnemonic: false,
    })
    expect(hex).toBe(HARDHAT0)
    expect((await client.getPrivateKey({ organizationId: org, privateKeyId: result.privateKeyId })).privateKey.exported).toBe(true)
    // Exported: deleting needs no flag.
    const del = await svc.post(
      `${S}delete_private_keys`,
      submitBody('ACTIVITY_TYPE_DELETE_PRIVATE_KEYS', org, { privateKeyIds: [result.privateKeyId] }),
    )
    expect(del.status).toBe(200)

    const seed = crypto.getRandomValues(new Uint8Array(32))
    const solSecret = base58.encode(new Uint8Array([...seed, ...ed25519.getPublicKey(seed)]))
    const sol = await importKey('imported sol', solSecret, 'SOLANA', 'CURVE_ED25519', ['ADDRESS_FORMAT_SOLANA'])
    expect(sol.status).toBe(200)
    expect(sol.json.activity.result.importPrivateKeyResult.addresses[0].address).toBe(base58.encode(ed25519.getPublicKey(seed)))
  })

  it('refuses a bundle that does not open (400 BUNDLE_INVALID), a second use of the import key (412), a key not on the curve (400)', async () => {
    const init = await svc.post(
      `${S}init_import_private_key`,
      submitBody('ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY', org, { userId: svc.admin.userId }),
    )
    expect(init.status).toBe(200)
    const garbage = await svc.post(
      `${S}import_private_key`,
      submitBody('ACTIVITY_TYPE_IMPORT_PRIVATE_KEY', org, {
        userId: svc.admin.userId,
        privateKeyName: 'garbage',
        encryptedBundle: JSON.stringify({ encappedPublic: '04'.padEnd(130, '1'), ciphertext: 'abcd' }),
        curve: 'CURVE_SECP256K1',
        addressFormats: [],
      }),
    )
    expect(garbage.status).toBe(400)
    expect(JSON.stringify(garbage.json)).toContain('parameters.encryptedBundle')
    const zero = await importKey('zero', '00'.repeat(32), 'HEXADECIMAL', 'CURVE_SECP256K1', [])
    expect(zero.status).toBe(400)
    expect(JSON.stringify(zero.json)).toContain('parameters.encryptedBundle')
    const ok = await importKey('once', HARDHAT0, 'HEXADECIMAL', 'CURVE_SECP256K1', [])
    expect(ok.status).toBe(200)
    const twice = await svc.post(
      `${S}import_private_key`,
      submitBody('ACTIVITY_TYPE_IMPORT_PRIVATE_KEY', org, {
        userId: svc.admin.userId,
        privateKeyName: 'twice',
        encryptedBundle: 'x',
        curve: 'CURVE_SECP256K1',
        addressFormats: [],
      }),
    )
    expect(twice.status).toBe(412)
    expect(JSON.stringify(twice.json)).toContain('parameters.userId')
  })
})
