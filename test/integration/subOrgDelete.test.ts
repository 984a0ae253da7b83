/**
 * delete_sub_organization through the unmodified `@turnkey/http` client. The parent
 * deletes a sub-organization (its own users cannot, the root organization never goes); unexported
 * wallets and private keys refuse it unless deleteWithoutExport; afterwards its keys, wallets and id
 * are gone everywhere, and the deleting activity stays readable through the parent.
 */
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient, type TurnkeyRequestError } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex } from '../../src/crypto/encoding.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { ORGANIZATION_TABLES } from '../../src/service/store/organizations.js'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

const S = '/public/v1/submit/'
const GRPC = { PERMISSION_DENIED: 7, NOT_FOUND: 5, FAILED_PRECONDITION: 9, UNAUTHENTICATED: 16 }

let svc: TestService
let client: TurnkeyClient
let root: string

const ts = () => String(Date.now())
const target = () => bytesToHex(generateP256KeyPair().publicKeyUncompressed)

/** The error a client call fails with (the test fails if it succeeds). */
async function refusal(call: Promise<unknown>): Promise<TurnkeyRequestError> {
  try {
    await call
  } catch (e) {
    return e as TurnkeyRequestError
  }
  throw new Error('expected the call to be refused')
}

function clientOf(key: ReturnType<typeof newApiKey>): TurnkeyClient {
  return new TurnkeyClient({ baseUrl: svc.url }, new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKeyHex }))
}

/** A sub-organization of `parent` (created by `by`) with one root user holding an API key. */
async function newSubOrg(name: string, by = client, parent = root) {
  const key = newApiKey(`${name} key`)
  const r = await by.createSubOrganization({
    type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
    timestampMs: ts(),
    organizationId: parent,
    parameters: {
      subOrganizationName: name,
      rootUsers: [{ userName: `${name} root`, apiKeys: [key.param], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
    },
  })
  const id = r.activity.result.createSubOrganizationResultV8?.subOrganizationId as string
  return { id, key, client: clientOf(key) }
}

/**
 * A wallet with one Ethereum account in `orgId`, created by `by`: the organization's own user (only
 * its users act in it, custody).
 */
async function newWallet(orgId: string, by: TurnkeyClient) {
  const r = await by.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: ts(),
    organizationId: orgId,
    parameters: {
      walletName: 'to delete',
      accounts: [
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
      ],
    },
  })
  const result = r.activity.result.createWalletResult
  return { walletId: result?.walletId as string, address: result?.addresses[0] as string }
}

/** A private key in `orgId`, created by `by` (the organization's own user). */
async function newPrivateKey(orgId: string, by: TurnkeyClient) {
  const r = await by.createPrivateKeys({
    type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2',
    timestampMs: ts(),
    organizationId: orgId,
    parameters: {
      privateKeys: [
        { privateKeyName: 'to delete', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] },
      ],
    },
  })
  return r.activity.result.createPrivateKeysResultV2?.privateKeys?.[0]?.privateKeyId as string
}

function deleteSubOrg(orgId: string, by = client, deleteWithoutExport?: boolean) {
  return by.deleteSubOrganization({
    type: 'ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION',
    timestampMs: ts(),
    organizationId: orgId,
    parameters: deleteWithoutExport === undefined ? {} : { deleteWithoutExport },
  })
}

function signWith(orgId: string, address: string, by = client) {
  return by.signRawPayload({
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
    timestampMs: ts(),
    organizationId: orgId,
    parameters: {
      signWith: address,
      payload: '00'.repeat(32),
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    },
  })
}

/** Rows the organization still has in `table`. */
async function rowsIn(table: string, orgId: string): Promise<number> {
  const [row] = await svc.rt.db.query<{ n: string | number }>(`SELECT count(*) AS n FROM ${table} WHERE organization_id = $1`, [orgId])
  return Number(row?.n)
}

beforeAll(async () => {
  svc = await startTestService()
  root = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
})
afterAll(async () => {
  await svc?.stop()
})

describe('delete_sub_organization', () => {
  it('refuses (412) while a wallet or private key was never exported, naming them; then deletes once both are exported', async () => {
    const sub = await newSubOrg('export first')
    const wallet = await newWallet(sub.id, sub.client)
    const privateKeyId = await newPrivateKey(sub.id, sub.client)

    const refused = await refusal(deleteSubOrg(sub.id))
    expect(refused.code).toBe(GRPC.FAILED_PRECONDITION)
    expect(refused.message).toContain(wallet.walletId)
    expect(refused.message).toContain(privateKeyId)
    expect(refused.message).toContain('deleteWithoutExport')
    const raw = await svc.post(
      `${S}delete_sub_organization`,
      submitBody('ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION', sub.id, { deleteWithoutExport: false }),
    )
    expect(raw.status).toBe(412)
    // Nothing went: the sub-organization's own user still reads its wallet.
    expect((await sub.client.getWallets({ organizationId: sub.id })).wallets.map((w) => w.walletId)).toEqual([wallet.walletId])

    // Exports are the sub-organization's own user's (a parent cannot export its keys: custody).
    await sub.client.exportWallet({
      type: 'ACTIVITY_TYPE_EXPORT_WALLET',
      timestampMs: ts(),
      organizationId: sub.id,
      parameters: { walletId: wallet.walletId, targetPublicKey: target() },
    })
    const onlyKey = await refusal(deleteSubOrg(sub.id))
    expect(onlyKey.code).toBe(GRPC.FAILED_PRECONDITION)
    expect(onlyKey.message).toContain(privateKeyId)
    expect(onlyKey.message).not.toContain(wallet.walletId)
    await sub.client.exportPrivateKey({
      type: 'ACTIVITY_TYPE_EXPORT_PRIVATE_KEY',
      timestampMs: ts(),
      organizationId: sub.id,
      parameters: { privateKeyId, targetPublicKey: target() },
    })

    const done = await deleteSubOrg(sub.id)
    expect(done.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(done.activity.result.deleteSubOrganizationResult).toEqual({ subOrganizationUuid: sub.id })
  })

  it('with deleteWithoutExport deletes it anyway; afterwards its key, wallets, id and listing are gone, its history stays with the parent', async () => {
    const sub = await newSubOrg('gone')
    const wallet = await newWallet(sub.id, sub.client)
    await newPrivateKey(sub.id, sub.client)
    expect((await signWith(sub.id, wallet.address, sub.client)).activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect((await client.getSubOrgIds({ organizationId: root })).organizationIds).toContain(sub.id)

    const done = await deleteSubOrg(sub.id, client, true)
    expect(done.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(done.activity.result.deleteSubOrganizationResult?.subOrganizationUuid).toBe(sub.id)

    // Its users can no longer authenticate: with its id the organization is unknown, with the parent's the key is.
    const own = await refusal(sub.client.getWallets({ organizationId: sub.id }))
    expect(own.code).toBe(GRPC.NOT_FOUND)
    const viaParent = await refusal(sub.client.getWhoami({ organizationId: root }))
    expect(viaParent.code).toBe(GRPC.UNAUTHENTICATED)
    // The parent no longer finds it, by listing or by id.
    expect((await client.getSubOrgIds({ organizationId: root })).organizationIds).not.toContain(sub.id)
    expect((await refusal(client.getWallets({ organizationId: sub.id }))).code).toBe(GRPC.NOT_FOUND)
    expect((await refusal(client.getOrganization({ organizationId: sub.id }))).code).toBe(GRPC.NOT_FOUND)
    const raw = await svc.post('/public/v1/query/list_wallets', { organizationId: sub.id })
    expect(raw.status).toBe(404)
    expect(JSON.stringify(raw.json)).toContain('organizationId')
    // Its wallet no longer signs, under its id or the parent's.
    expect((await refusal(signWith(sub.id, wallet.address))).code).toBe(GRPC.NOT_FOUND)
    expect((await refusal(signWith(root, wallet.address))).code).toBe(GRPC.NOT_FOUND)
    // Deleting it again: the same 404 as an unknown organization.
    expect((await refusal(deleteSubOrg(sub.id, client, true))).code).toBe(GRPC.NOT_FOUND)

    // The deleting activity is readable through the parent (not through the deleted id).
    const { activity } = await client.getActivity({ organizationId: root, activityId: done.activity.id })
    expect(activity.type).toBe('ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION')
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(activity.result.deleteSubOrganizationResult?.subOrganizationUuid).toBe(sub.id)
    expect((await refusal(client.getActivity({ organizationId: sub.id, activityId: done.activity.id }))).code).toBe(GRPC.NOT_FOUND)

    // Its secrets and credentials are purged; the tombstone and its activities stay.
    for (const table of [...ORGANIZATION_TABLES.purged, ...ORGANIZATION_TABLES.cascaded])
      expect([table, await rowsIn(table, sub.id)]).toEqual([table, 0])
    expect(await rowsIn('activities', sub.id)).toBeGreaterThanOrEqual(4)
    const [row] = await svc.rt.db.query<{ deleted_at: string | number | null }>('SELECT deleted_at FROM organizations WHERE id = $1', [
      sub.id,
    ])
    expect(row?.deleted_at).not.toBeNull()
  })

  it('a user of the sub-organization itself cannot delete it (403); it stays', async () => {
    const sub = await newSubOrg('self')
    const denied = await refusal(deleteSubOrg(sub.id, sub.client, true))
    expect(denied.code).toBe(GRPC.PERMISSION_DENIED)
    expect(denied.message).toContain('parent organization')
    const raw = await svc.post(
      `${S}delete_sub_organization`,
      submitBody('ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION', sub.id, { deleteWithoutExport: true }),
      sub.key.stamper,
    )
    expect(raw.status).toBe(403)
    expect((await sub.client.getWhoami({ organizationId: sub.id })).organizationId).toBe(sub.id)
    expect((await client.getSubOrgIds({ organizationId: root })).organizationIds).toContain(sub.id)
  })

  it('the root organization can never be deleted (412); an unknown organization is 404', async () => {
    const rootRefused = await refusal(deleteSubOrg(root, client, true))
    expect(rootRefused.code).toBe(GRPC.FAILED_PRECONDITION)
    expect(rootRefused.message).toContain('root organization')
    expect((await svc.post(`${S}delete_sub_organization`, submitBody('ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION', root, {}))).status).toBe(412)
    expect((await client.getWhoami({ organizationId: root })).organizationId).toBe(root)

    const unknown = await svc.post(
      `${S}delete_sub_organization`,
      submitBody('ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION', crypto.randomUUID(), { deleteWithoutExport: true }),
    )
    expect(unknown.status).toBe(404)
    expect(JSON.stringify(unknown.json)).toContain('organizationId')
  })

  it('refuses (412) a sub-organization with sub-organizations of its own; only its direct parent deletes the nested one', async () => {
    const mid = await newSubOrg('mid')
    const nested = await newSubOrg('nested', mid.client, mid.id)
    const refused = await refusal(deleteSubOrg(mid.id, client, true))
    expect(refused.code).toBe(GRPC.FAILED_PRECONDITION)
    expect(refused.message).toContain(nested.id)
    // The root is an ancestor of the nested one, not its parent.
    expect((await refusal(deleteSubOrg(nested.id, client, true))).code).toBe(GRPC.PERMISSION_DENIED)

    await deleteSubOrg(nested.id, mid.client, true)
    expect((await client.getSubOrgIds({ organizationId: root })).organizationIds).not.toContain(nested.id)
    const done = await deleteSubOrg(mid.id, client, true)
    expect(done.activity.result.deleteSubOrganizationResult?.subOrganizationUuid).toBe(mid.id)
  })

  it('a deletion committed by another instance is a 404 here at once, though this one cached the ancestry', async () => {
    const sub = await newSubOrg('elsewhere')
    await client.getWallets({ organizationId: sub.id }) // caches its ancestry in this process
    // What another instance sharing the database leaves behind: the tombstone, no local cache eviction.
    await svc.rt.db.query('UPDATE organizations SET deleted_at = $2 WHERE id = $1', [sub.id, Date.now()])
    expect((await refusal(client.getWallets({ organizationId: sub.id }))).code).toBe(GRPC.NOT_FOUND)
    // The parent's submit is a 404 (the organization is gone) before any custody refusal.
    expect((await refusal(newWallet(sub.id, client))).code).toBe(GRPC.NOT_FOUND)
  })

  it('every table with an organization_id column is purged, cascaded or kept by the deletion (store/organizations.ts)', async () => {
    const rows = await svc.rt.db.query<{ table_name: string }>(
      `SELECT DISTINCT table_name FROM information_schema.columns
        WHERE column_name = 'organization_id' AND table_schema = current_schema() ORDER BY table_name`,
    )
    const classified = [...ORGANIZATION_TABLES.purged, ...ORGANIZATION_TABLES.cascaded, ...ORGANIZATION_TABLES.kept].sort()
    expect(rows.map((r) => r.table_name)).toEqual(classified)
  })
})
