/**
 * Secrets through the unmodified `@turnkey/http` client and `@turnkey/crypto`'s own secret helpers
 * (features/secrets): init_import_secrets → encryptSecretToBundle on the client → import_secrets →
 * list_secrets (metadata, never the value) → export_secrets to a fresh target key →
 * decryptSecretBundle there (the same bytes) → delete_secrets → gone. Ingress keys are single-use
 * and bound to the user who asked for them; another organization's secrets can be neither
 * exported nor deleted; field errors name the field; a policy DENY on export refuses it while the
 * same user's import goes through; no secret reaches the service's log.
 */
import { decryptSecretBundle, encryptSecretToBundle } from '@turnkey/crypto'
import type { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex } from '../../src/crypto/encoding.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { createLogger } from '../../src/service/logger.js'
import { clientFor, type PolicyOrg, startPolicyOrg, withPolicies } from './helpers/policyOrg.js'
import { newApiKey } from './helpers/keys.js'
import { submitBody } from './helpers/service.js'

const SUITE = 'TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1' as const
const S = '/public/v1/submit/'
const ts = () => String(Date.now())
const fieldsOf = (json: any): string[] =>
  (json?.details ?? []).flatMap((d: any) => (d.fieldViolations ?? []).map((v: any) => v.field as string))

let org: PolicyOrg<'alice'>
let signerPublicKey: string
const logLines: string[] = []

/** The plaintexts these tests import: none may ever show up in a response other than an export, nor in the log. */
const CARD = JSON.stringify({ number: '4242424242424242', exp: '11/29', cvv: '123' })
const API_KEY = 'sk_live_51SECRETsigilTEST0000000000000000000000'

/** init_import_secrets in `orgId` by `client`: the signed ingress target bundles. */
async function initImport(client: TurnkeyClient, orgId: string, numSecrets: number): Promise<string[]> {
  const r = await client.initImportSecrets({
    type: 'ACTIVITY_TYPE_INIT_IMPORT_SECRETS',
    timestampMs: ts(),
    organizationId: orgId,
    parameters: { encryptionSuite: SUITE, numSecrets },
  })
  expect(r.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  return r.activity.result.initImportSecretsResult?.enclaveTargetMessages as string[]
}

/** Encrypts `plaintext` to one ingress bundle on the client side, as the hosted SDK does. */
async function sealTo(bundle: string, orgId: string, plaintext: string) {
  return encryptSecretToBundle({
    plaintext,
    ingressTargetBundle: bundle,
    organizationId: orgId,
    dangerouslyOverrideSignerPublicKey: signerPublicKey,
  })
}

/** init + encrypt + import of one secret; its id. */
async function importOne(client: TurnkeyClient, orgId: string, plaintext: string, name?: string): Promise<string> {
  const [bundle] = await initImport(client, orgId, 1)
  const { secretPayload, targetPublicKey } = await sealTo(bundle as string, orgId, plaintext)
  const r = await client.importSecrets({
    type: 'ACTIVITY_TYPE_IMPORT_SECRETS',
    timestampMs: ts(),
    organizationId: orgId,
    parameters: { secrets: [{ ...(name ? { name } : {}), secretPayload, targetPublicKey, encryptionSuite: SUITE }] },
  })
  return (r.activity.result.importSecretsResult?.secretIds as string[])[0] as string
}

beforeAll(async () => {
  org = await startPolicyOrg(['alice'], 'secrets wallet', undefined, { logger: createLogger('debug', {}, (l) => logLines.push(l)) })
  signerPublicKey = (await (await fetch(`${org.svc.url}/healthz`)).json()).signerPublicKey as string
})
afterAll(async () => {
  await org?.svc.stop()
  // Nothing the tests imported was ever logged, at any level.
  const log = logLines.join('\n')
  expect(log).not.toContain('4242424242424242')
  expect(log).not.toContain(API_KEY)
})

describe('secrets: import, list, export, delete', () => {
  it('round-trips two secrets through ingress bundles and export bundles, and lists them without their values', async () => {
    const { admin, root } = org
    const bundles = await initImport(admin, root, 2)
    expect(bundles).toHaveLength(2)
    const sealed = [await sealTo(bundles[0] as string, root, CARD), await sealTo(bundles[1] as string, root, API_KEY)]
    expect(sealed[0]?.targetPublicKey).not.toBe(sealed[1]?.targetPublicKey)
    const imported = await admin.importSecrets({
      type: 'ACTIVITY_TYPE_IMPORT_SECRETS',
      timestampMs: ts(),
      organizationId: root,
      parameters: {
        secrets: [
          {
            name: 'corporateVisa',
            secretPayload: sealed[0]?.secretPayload as string,
            targetPublicKey: sealed[0]?.targetPublicKey as string,
            encryptionSuite: SUITE,
            staticProperties: [{ key: 'kind', value: 'creditCard' }],
          },
          {
            name: 'stripe',
            secretPayload: sealed[1]?.secretPayload as string,
            targetPublicKey: sealed[1]?.targetPublicKey as string,
            encryptionSuite: SUITE,
          },
        ],
      },
    })
    expect(imported.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const ids = imported.activity.result.importSecretsResult?.secretIds as string[]
    expect(ids).toHaveLength(2)

    // Listed newest first (same creation time: by id, descending), metadata only.
    const listed = await admin.listSecrets({ organizationId: root })
    const mine = listed.secrets.filter((s) => ids.includes(s.secretId))
    expect(mine).toHaveLength(2)
    const card = mine.find((s) => s.secretId === ids[0])
    expect(card).toEqual({
      secretId: ids[0],
      name: 'corporateVisa',
      staticProperties: [{ key: 'kind', value: 'creditCard' }],
      createdAtUnixMs: expect.stringMatching(/^\d+$/),
    })
    expect(mine.find((s) => s.secretId === ids[1])?.staticProperties).toEqual([])
    const listedText = JSON.stringify(listed)
    expect(listedText).not.toContain('4242424242424242')
    expect(listedText).not.toContain(API_KEY)
    // Nor does the activity record hold the plaintext (only ciphertext to a deleted ingress key).
    const record = await admin.getActivity({ organizationId: root, activityId: imported.activity.id })
    expect(JSON.stringify(record)).not.toContain('4242424242424242')

    // Exported to a key the service never saw, decrypted there: the same bytes, in the order asked.
    const target = generateP256KeyPair()
    const exported = await admin.exportSecrets({
      type: 'ACTIVITY_TYPE_EXPORT_SECRETS',
      timestampMs: ts(),
      organizationId: root,
      parameters: {
        secrets: [
          { secretId: ids[1] as string, targetPublicKey: bytesToHex(target.publicKeyUncompressed), encryptionSuite: SUITE },
          { secretId: ids[0] as string, targetPublicKey: bytesToHex(target.publicKey), encryptionSuite: SUITE },
        ],
      },
    })
    expect(exported.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const payloads = exported.activity.result.exportSecretsResult?.secretPayloads as string[]
    const open = (secretPayload: string, organizationId = root) =>
      decryptSecretBundle({
        secretPayload,
        embeddedPrivateKey: bytesToHex(target.privateKey),
        organizationId,
        dangerouslyOverrideSignerPublicKey: signerPublicKey,
      })
    expect(await open(payloads[0] as string)).toBe(API_KEY)
    expect(await open(payloads[1] as string)).toBe(CARD)
    // Bound to the organization: a client expecting another one refuses the payload.
    await expect(open(payloads[0] as string, 'another-org')).rejects.toThrow(/organization id does not match/)
    // Another key cannot open it.
    const stranger = generateP256KeyPair()
    await expect(
      decryptSecretBundle({
        secretPayload: payloads[0] as string,
        embeddedPrivateKey: bytesToHex(stranger.privateKey),
        organizationId: root,
        dangerouslyOverrideSignerPublicKey: signerPublicKey,
      }),
    ).rejects.toThrow()

    // Deleted → gone from the list, and no longer exportable.
    const deleted = await admin.deleteSecrets({
      type: 'ACTIVITY_TYPE_DELETE_SECRETS',
      timestampMs: ts(),
      organizationId: root,
      parameters: { secretIds: [ids[0] as string] },
    })
    expect(deleted.activity.result.deleteSecretsResult?.secretIds).toEqual([ids[0]])
    const after = await admin.listSecrets({ organizationId: root })
    expect(after.secrets.map((s) => s.secretId)).not.toContain(ids[0])
    expect(after.secrets.map((s) => s.secretId)).toContain(ids[1])
    const gone = await org.svc.post(
      `${S}export_secrets`,
      submitBody('ACTIVITY_TYPE_EXPORT_SECRETS', root, {
        secrets: [{ secretId: ids[0], targetPublicKey: bytesToHex(target.publicKeyUncompressed), encryptionSuite: SUITE }],
      }),
    )
    expect(gone.status).toBe(404)
    expect(fieldsOf(gone.json)).toEqual(['parameters.secrets[0].secretId'])
  })

  it('lists newest first and pages by secretId', async () => {
    const { admin, root } = org
    const a = await importOne(admin, root, 'page-a')
    await new Promise((r) => setTimeout(r, 5))
    const b = await importOne(admin, root, 'page-b')
    const first = await admin.listSecrets({ organizationId: root, paginationOptions: { limit: '1' } })
    expect(first.secrets.map((s) => s.secretId)).toEqual([b])
    const next = await admin.listSecrets({ organizationId: root, paginationOptions: { limit: '1', after: b } })
    expect(next.secrets.map((s) => s.secretId)).toEqual([a])
    const bad = await org.svc.post('/public/v1/query/list_secrets', { organizationId: root, paginationOptions: { after: 'nope' } })
    expect(bad.status).toBe(400)
    expect(fieldsOf(bad.json)).toEqual(['paginationOptions.after'])
  })

  it('uses an ingress key once and refuses envelopes it cannot open', async () => {
    const { admin, root, svc } = org
    const [bundle] = await initImport(admin, root, 1)
    const first = await sealTo(bundle as string, root, 'once')
    const body = (s: { secretPayload: string; targetPublicKey: string }) =>
      submitBody('ACTIVITY_TYPE_IMPORT_SECRETS', root, { secrets: [{ ...s, encryptionSuite: SUITE }] })

    // A payload that does not open: BUNDLE_INVALID naming it (the failed activity keeps the key).
    const garbage = await svc.post(
      `${S}import_secrets`,
      body({
        secretPayload: JSON.stringify({ encappedPublic: `04${'11'.repeat(64)}`, ciphertext: 'abcd' }),
        targetPublicKey: first.targetPublicKey,
      }),
    )
    expect(garbage.status).toBe(400)
    expect(garbage.json.code).toBe(3)
    expect(fieldsOf(garbage.json)).toEqual(['parameters.secrets[0].secretPayload'])

    expect((await svc.post(`${S}import_secrets`, body(first))).status).toBe(200)
    // Used: a second payload to the same key is refused.
    const again = await sealTo(bundle as string, root, 'twice')
    const reused = await svc.post(`${S}import_secrets`, body(again))
    expect(reused.status).toBe(412)
    expect(fieldsOf(reused.json)).toEqual(['parameters.secrets[0].targetPublicKey'])
    expect(JSON.stringify(reused.json)).not.toContain('twice')
  })

  it("cannot export, delete or list another organization's secret", async () => {
    const { admin, root, svc } = org
    const subKey = newApiKey('sub root')
    const created = await admin.createSubOrganization({
      type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
      timestampMs: ts(),
      organizationId: root,
      parameters: {
        subOrganizationName: 'secrets sub',
        rootUsers: [{ userName: 'sub root', apiKeys: [subKey.param], authenticators: [], oauthProviders: [] }],
        rootQuorumThreshold: 1,
      },
    })
    const sub = created.activity.result.createSubOrganizationResultV8?.subOrganizationId as string
    const subClient = clientFor(svc, subKey)
    const subSecret = await importOne(subClient, sub, 'sub-only', 'shared-name')
    // Names are per organization: the parent may use the same one.
    await importOne(admin, root, 'root-side', 'shared-name')

    const target = generateP256KeyPair()
    const exported = await svc.post(
      `${S}export_secrets`,
      submitBody('ACTIVITY_TYPE_EXPORT_SECRETS', root, {
        secrets: [{ secretId: subSecret, targetPublicKey: bytesToHex(target.publicKey), encryptionSuite: SUITE }],
      }),
    )
    expect(exported.status).toBe(404)
    expect(JSON.stringify(exported.json)).not.toContain('sub-only')
    const deleted = await svc.post(`${S}delete_secrets`, submitBody('ACTIVITY_TYPE_DELETE_SECRETS', root, { secretIds: [subSecret] }))
    expect(deleted.status).toBe(404)
    expect(fieldsOf(deleted.json)).toEqual(['parameters.secretIds[0]'])
    expect((await admin.listSecrets({ organizationId: root })).secrets.map((s) => s.secretId)).not.toContain(subSecret)
    // Still there for its own organization.
    expect((await subClient.listSecrets({ organizationId: sub })).secrets.map((s) => s.secretId)).toEqual([subSecret])
  })

  it('names the field of bad input', async () => {
    const { root, svc } = org
    const post = (path: string, type: string, parameters: unknown) => svc.post(`${S}${path}`, submitBody(type, root, parameters))
    const cases: Array<[string, string, unknown, string]> = [
      ['init_import_secrets', 'ACTIVITY_TYPE_INIT_IMPORT_SECRETS', { encryptionSuite: SUITE, numSecrets: 0 }, 'parameters.numSecrets'],
      ['init_import_secrets', 'ACTIVITY_TYPE_INIT_IMPORT_SECRETS', { encryptionSuite: SUITE, numSecrets: 33 }, 'parameters.numSecrets'],
      [
        'init_import_secrets',
        'ACTIVITY_TYPE_INIT_IMPORT_SECRETS',
        { encryptionSuite: 'ROT13', numSecrets: 1 },
        'parameters.encryptionSuite',
      ],
      ['import_secrets', 'ACTIVITY_TYPE_IMPORT_SECRETS', { secrets: [] }, 'parameters.secrets'],
      [
        'import_secrets',
        'ACTIVITY_TYPE_IMPORT_SECRETS',
        { secrets: [{ secretPayload: 'x', targetPublicKey: 'zz', encryptionSuite: SUITE }] },
        'parameters.secrets[0].targetPublicKey',
      ],
      [
        'import_secrets',
        'ACTIVITY_TYPE_IMPORT_SECRETS',
        { secrets: [{ targetPublicKey: '04', encryptionSuite: SUITE }] },
        'parameters.secrets[0].secretPayload',
      ],
      [
        'import_secrets',
        'ACTIVITY_TYPE_IMPORT_SECRETS',
        {
          secrets: [
            { secretPayload: 'x', targetPublicKey: `04${'11'.repeat(64)}`, encryptionSuite: SUITE, staticProperties: [{ value: 'v' }] },
          ],
        },
        'parameters.secrets[0].staticProperties[0].key',
      ],
      [
        'export_secrets',
        'ACTIVITY_TYPE_EXPORT_SECRETS',
        { secrets: [{ secretId: 'x', targetPublicKey: 'not hex', encryptionSuite: SUITE }] },
        'parameters.secrets[0].targetPublicKey',
      ],
      [
        'export_secrets',
        'ACTIVITY_TYPE_EXPORT_SECRETS',
        { secrets: [{ secretId: '', targetPublicKey: '02', encryptionSuite: SUITE }] },
        'parameters.secrets[0].secretId',
      ],
      ['delete_secrets', 'ACTIVITY_TYPE_DELETE_SECRETS', { secretIds: ['not-a-uuid'] }, 'parameters.secretIds[0]'],
      ['delete_secrets', 'ACTIVITY_TYPE_DELETE_SECRETS', { secretIds: [] }, 'parameters.secretIds'],
    ]
    for (const [path, type, parameters, field] of cases) {
      const r = await post(path, type, parameters)
      expect(r.status, `${path} ${JSON.stringify(parameters)}`).toBe(400)
      expect(fieldsOf(r.json), `${path} ${JSON.stringify(parameters)}`).toContain(field)
      expect(String(r.json.message)).toContain(field)
    }
    // A name taken in the organization: 409 naming it.
    await importOne(org.admin, root, 'first', 'dup-name')
    const [bundle] = await initImport(org.admin, root, 1)
    const sealed = await sealTo(bundle as string, root, 'second')
    const dup = await post('import_secrets', 'ACTIVITY_TYPE_IMPORT_SECRETS', {
      secrets: [{ name: 'dup-name', ...sealed, encryptionSuite: SUITE }],
    })
    expect(dup.status).toBe(409)
    expect(fieldsOf(dup.json)).toEqual(['parameters.secrets[0].name'])
    // A wrong target key for an export names it; a real one of the wrong length too.
    const id = await importOne(org.admin, root, 'exportable')
    const badKey = await post('export_secrets', 'ACTIVITY_TYPE_EXPORT_SECRETS', {
      secrets: [{ secretId: id, targetPublicKey: `04${'00'.repeat(64)}`, encryptionSuite: SUITE }],
    })
    expect(badKey.status).toBe(400)
    expect(fieldsOf(badKey.json)).toEqual(['parameters.secrets[0].targetPublicKey'])
  })
})

describe('secrets at rest', () => {
  it('leaves no secret value in any database row: values sit sealed under the master key', async () => {
    // Imported in this organization and never deleted: the stripe key of the first test, and these.
    await importOne(org.admin, org.root, API_KEY, 'at-rest')
    const needles = [API_KEY, Buffer.from(API_KEY, 'utf8').toString('hex'), Buffer.from(API_KEY, 'utf8').toString('base64')]
    const tables = await org.svc.rt.db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    )
    expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(['secrets', 'secret_import_keys', 'activities']))
    for (const { table_name } of tables) {
      const text = JSON.stringify(await org.svc.rt.db.query(`SELECT * FROM "${table_name}"`))
      for (const n of needles) expect(text.includes(n), `${table_name} holds a secret value`).toBe(false)
    }
    const sealed = await org.svc.rt.db.query<{ value_enc: string }>("SELECT value_enc FROM secrets WHERE name = 'at-rest'")
    expect(sealed).toHaveLength(1)
    expect(sealed[0]?.value_enc).toMatch(/^v1:/)
    // An ingress key is deleted once used: init (+1) then import (−1) leaves the count as it was.
    const pending = async () =>
      Number(
        (
          await org.svc.rt.db.query<{ n: number | string }>('SELECT count(*) AS n FROM secret_import_keys WHERE organization_id = $1', [
            org.root,
          ])
        )[0]?.n,
      )
    const before = await pending()
    await importOne(org.admin, org.root, 'one more')
    expect(await pending()).toBe(before)
    await initImport(org.admin, org.root, 3)
    expect(await pending()).toBe(before + 3)
  })
})

describe('secrets under policies', () => {
  it('a DENY on export refuses it, while the same user imports and (without it) exports', async () => {
    const { root, svc, keys } = org
    const alice = org.clients.alice
    await withPolicies(
      org,
      [
        {
          name: 'alice handles secrets',
          effect: 'EFFECT_ALLOW',
          condition: "activity.resource == 'SECRET'",
          consensus: `approvers.any(user, user.id == '${org.ids.alice}')`,
        },
      ],
      async () => {
        const id = await importOne(alice, root, 'alice-secret')
        // An ingress key is bound to the user it was issued to: alice cannot use the admin's.
        const [adminBundle] = await initImport(org.admin, root, 1)
        const notHers = await sealTo(adminBundle as string, root, 'not hers')
        const refused = await svc.post(
          `${S}import_secrets`,
          submitBody('ACTIVITY_TYPE_IMPORT_SECRETS', root, { secrets: [{ ...notHers, encryptionSuite: SUITE }] }),
          keys.alice.stamper,
        )
        expect(refused.status).toBe(412)
        expect(fieldsOf(refused.json)).toEqual(['parameters.secrets[0].targetPublicKey'])
        const target = generateP256KeyPair()
        const exportBody = () =>
          submitBody('ACTIVITY_TYPE_EXPORT_SECRETS', root, {
            secrets: [{ secretId: id, targetPublicKey: bytesToHex(target.publicKey), encryptionSuite: SUITE }],
          })
        const allowed = await svc.post(`${S}export_secrets`, exportBody(), keys.alice.stamper)
        expect(allowed.status).toBe(200)
        expect(allowed.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')

        await withPolicies(
          org,
          [{ name: 'no secret leaves', effect: 'EFFECT_DENY', condition: "activity.resource == 'SECRET' && activity.action == 'EXPORT'" }],
          async () => {
            const denied = await svc.post(`${S}export_secrets`, exportBody(), keys.alice.stamper)
            expect(denied.status).toBe(403)
            expect(JSON.stringify(denied.json)).toContain('POLICY_DENIED')
            expect(JSON.stringify(denied.json)).not.toContain('secretPayloads')
            // Import is another action: still allowed.
            expect(await importOne(alice, root, 'alice-second')).toMatch(/^[0-9a-f-]{36}$/)
          },
        )
      },
    )
  })
})
