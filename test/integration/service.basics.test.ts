import { DEV_OIDC_CLIENT_ID, devSubject } from '../../src/devchain/oidcProvider.js'
import { statSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyAppProofSignature } from '@turnkey/crypto'
import { verifyAppProof } from '../../src/crypto/appProof.js'
import { startTestService, submitBody, type TestService } from './helpers/service.js'
import { newApiKey, rootUser } from './helpers/keys.js'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(async () => {
  await svc?.stop()
})

const SUB = 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8'

describe('bootstrap and health', () => {
  it('answers /healthz with the service public keys', async () => {
    const res = await fetch(`${svc.url}/healthz`)
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.status).toBe('ok')
    expect(body.signerPublicKey).toMatch(/^04[0-9a-f]{128}$/)
    expect(body.rootOrganizationId).toBe(svc.admin.organizationId)
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('writes the admin key file with mode 0600 and the A6 fields', () => {
    const file = join(svc.dataDir, 'admin-api-key.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const parsed = JSON.parse(readFileSync(file, 'utf8'))
    expect(Object.keys(parsed).sort()).toEqual(['apiKeyId', 'organizationId', 'privateKey', 'publicKey', 'userId'])
    expect(parsed.publicKey).toMatch(/^0[23][0-9a-f]{64}$/)
  })

  it('whoami returns the root user for the admin key', async () => {
    const r = await svc.post('/public/v1/query/whoami', { organizationId: svc.admin.organizationId })
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({ organizationId: svc.admin.organizationId, userId: svc.admin.userId, username: 'root-admin' })
  })

  it('answers CORS preflight for the extension origin with the stamp headers', async () => {
    const { EXTENSION_ORIGIN } = await import('../../src/api/identity.js')
    const res = await fetch(`${svc.url}/public/v1/query/whoami`, {
      method: 'OPTIONS',
      headers: { Origin: EXTENSION_ORIGIN, 'Access-Control-Request-Method': 'POST' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe(EXTENSION_ORIGIN)
    expect(res.headers.get('access-control-allow-headers')).toContain('X-Stamp-Webauthn')
    const evil = await fetch(`${svc.url}/public/v1/query/whoami`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example' } })
    expect(evil.status).toBe(403)
  })
})

describe('activities', () => {
  it('creates a sub-organization: A1 response shape, intent echoed, queries see it', async () => {
    const body = submitBody(SUB, svc.admin.organizationId, {
      subOrganizationName: 'acme',
      rootUsers: [rootUser('alice')],
      rootQuorumThreshold: 1,
    })
    const r = await svc.post('/public/v1/submit/create_sub_organization', body)
    expect(r.status).toBe(200)
    const a = r.json.activity
    expect(a.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(a.type).toBe(SUB)
    expect(a.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(a.intent.createSubOrganizationIntentV8.subOrganizationName).toBe('acme')
    const result = a.result.createSubOrganizationResultV8
    expect(result.subOrganizationId).toMatch(/^[0-9a-f-]{36}$/)
    expect(result.rootUserIds).toHaveLength(1)
    expect(a.result.activity.id).toBe(a.id)
    expect(a.result.activity.result).toEqual({ createSubOrganizationResultV8: result })
    expect(typeof a.createdAt).toBe('string')
    expect(a.votes[0].userId).toBe(svc.admin.userId)

    const got = await svc.post('/public/v1/query/get_activity', { organizationId: svc.admin.organizationId, activityId: a.id })
    expect(got.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(got.json.activity.createdAt).toMatchObject({ seconds: expect.any(String), nanos: expect.any(String) })

    const users = await svc.post('/public/v1/query/list_users', { organizationId: result.subOrganizationId })
    expect(users.json.users.map((u: any) => u.userName)).toEqual(['alice'])
    const configs = await svc.post('/public/v1/query/get_organization_configs', { organizationId: result.subOrganizationId })
    expect(configs.json.configs.quorum).toEqual({ threshold: 1, userIds: result.rootUserIds })
  })

  it('returns the same activity for a byte-identical resubmission, never executing twice', async () => {
    const body = JSON.stringify(
      submitBody(SUB, svc.admin.organizationId, { subOrganizationName: 'twice', rootUsers: [rootUser('bob')], rootQuorumThreshold: 1 }),
    )
    const [a, b] = await Promise.all([
      svc.post('/public/v1/submit/create_sub_organization', body),
      svc.post('/public/v1/submit/create_sub_organization', body),
    ])
    const c = await svc.post('/public/v1/submit/create_sub_organization', body)
    expect(a.json.activity.id).toBe(b.json.activity.id)
    expect(c.json.activity.id).toBe(a.json.activity.id)
    const list = await svc.post('/public/v1/query/list_activities', {
      organizationId: svc.admin.organizationId,
      filterByType: [SUB],
      paginationOptions: { limit: '100' },
    })
    const named = list.json.activities.filter((x: any) => x.intent.createSubOrganizationIntentV8.subOrganizationName === 'twice')
    expect(named).toHaveLength(1)
  })

  it('refuses bad input with the field named and leaves nothing behind', async () => {
    const before = await svc.post('/public/v1/query/list_activities', {
      organizationId: svc.admin.organizationId,
      paginationOptions: { limit: '100' },
    })
    const cases: Array<[unknown, string]> = [
      [{ subOrganizationName: 'x', rootUsers: [rootUser('a')], rootQuorumThreshold: 0 }, 'parameters.rootQuorumThreshold'],
      [{ subOrganizationName: 'x', rootUsers: [rootUser('a')], rootQuorumThreshold: 2 }, 'parameters.rootQuorumThreshold'],
      [{ subOrganizationName: '', rootUsers: [rootUser('a')], rootQuorumThreshold: 1 }, 'parameters.subOrganizationName'],
      [{ subOrganizationName: 'x', rootUsers: 'nope', rootQuorumThreshold: 1 }, 'parameters.rootUsers'],
      [
        { subOrganizationName: 'x', rootUsers: [rootUser('a', [{ ...newApiKey().param, publicKey: 'zz' }])], rootQuorumThreshold: 1 },
        'parameters.rootUsers[0].apiKeys[0].publicKey',
      ],
      [
        { subOrganizationName: 'x', rootUsers: [{ ...rootUser('a'), userEmail: 'not-an-email' }], rootQuorumThreshold: 1 },
        'parameters.rootUsers[0].userEmail',
      ],
    ]
    for (const [parameters, field] of cases) {
      const r = await svc.post('/public/v1/submit/create_sub_organization', submitBody(SUB, svc.admin.organizationId, parameters))
      expect(r.status, field).toBe(400)
      expect(r.json.code).toBe(3)
      expect(r.json.message).toContain(field)
      const violations = r.json.details.find((d: any) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest')
      expect(violations.fieldViolations[0].field).toBe(field)
    }
    const after = await svc.post('/public/v1/query/list_activities', {
      organizationId: svc.admin.organizationId,
      paginationOptions: { limit: '100' },
    })
    const completed = (l: any) => l.json.activities.filter((x: any) => x.status === 'ACTIVITY_STATUS_COMPLETED').length
    expect(completed(after)).toBe(completed(before))
  })

  it('refuses malformed JSON, unknown types, a type of another path and oversize bodies without a 500', async () => {
    const org = svc.admin.organizationId
    const bad = await svc.post('/public/v1/submit/create_users', '{"nope":')
    expect(bad.status).toBe(400)
    const unknown = await svc.post('/public/v1/submit/create_users', submitBody('ACTIVITY_TYPE_NOT_A_THING', org, { users: [] }))
    expect(unknown.status).toBe(400)
    expect(unknown.json.message).toContain('type')
    const wrongPath = await svc.post('/public/v1/submit/create_users', submitBody(SUB, org, { users: [] }))
    expect(wrongPath.status).toBe(400)
    expect(wrongPath.json.message).toContain('type')
    const noSuchOp = await svc.post('/public/v1/submit/frobnicate', submitBody(SUB, org, {}))
    expect(noSuchOp.status).toBe(404)
    const big = await svc.post(
      '/public/v1/submit/create_users',
      submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', org, { pad: 'x'.repeat(1_100_000) }),
    )
    expect(big.status).toBe(413)
    const notObject = await svc.post('/public/v1/submit/create_users', '[1,2]')
    expect(notObject.status).toBe(400)
  })

  it('creates users and API keys, deletes them, and a deleted key no longer stamps', async () => {
    const org = svc.admin.organizationId
    const created = await svc.post(
      '/public/v1/submit/create_users',
      submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', org, {
        users: [{ userName: 'carol', apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }],
      }),
    )
    expect(created.status).toBe(200)
    const [userId] = created.json.activity.result.createUsersResult.userIds
    const key = newApiKey('carol key')
    const added = await svc.post(
      '/public/v1/submit/create_api_keys',
      submitBody('ACTIVITY_TYPE_CREATE_API_KEYS_V2', org, { apiKeys: [key.param], userId }),
    )
    const [apiKeyId] = added.json.activity.result.createApiKeysResult.apiKeyIds
    const who = await svc.post('/public/v1/query/whoami', { organizationId: org }, key.stamper)
    expect(who.json.userId).toBe(userId)
    const user = await svc.post('/public/v1/query/get_user', { organizationId: org, userId })
    expect(user.json.user.apiKeys[0]).toMatchObject({
      apiKeyId,
      credential: { publicKey: key.publicKey, type: 'CREDENTIAL_TYPE_API_KEY_P256' },
    })

    const del = await svc.post(
      '/public/v1/submit/delete_api_keys',
      submitBody('ACTIVITY_TYPE_DELETE_API_KEYS', org, { userId, apiKeyIds: [apiKeyId] }),
    )
    expect(del.status).toBe(200)
    const denied = await svc.post('/public/v1/query/whoami', { organizationId: org }, key.stamper)
    expect(denied.status).toBe(401)
    expect(denied.json.message).toContain('could not find public key in organization or its parent organization')

    const again = await svc.post(
      '/public/v1/submit/delete_api_keys',
      submitBody('ACTIVITY_TYPE_DELETE_API_KEYS', org, { userId, apiKeyIds: [apiKeyId] }),
    )
    expect(again.status).toBe(404)
    expect(again.json.message).toContain('parameters.apiKeyIds[0]')
    // An execution failure is recorded as a FAILED activity whose id is in the error details (A2).
    const info = again.json.details.find((d: any) => d['@type'] === 'type.googleapis.com/sigil.ActivityInfo')
    const failed = await svc.post('/public/v1/query/get_activity', { organizationId: org, activityId: info.activityId })
    expect(failed.json.activity.status).toBe('ACTIVITY_STATUS_FAILED')
    expect(failed.json.activity.failure.message).toContain('parameters.apiKeyIds[0]')

    const delUser = await svc.post('/public/v1/submit/delete_users', submitBody('ACTIVITY_TYPE_DELETE_USERS', org, { userIds: [userId] }))
    expect(delUser.status).toBe(200)
    const gone = await svc.post('/public/v1/query/get_user', { organizationId: org, userId })
    expect(gone.status).toBe(404)
  })

  it('creates root users with OAuth providers from claims or from an OIDC token', async () => {
    // A token of the service's dev identity provider (trusted in development), verified at creation.
    const oidcToken = await svc.rt.devIdp!.issueIdToken({ email: 'olga@example.com' })
    const r = await svc.post(
      '/public/v1/submit/create_sub_organization',
      submitBody(SUB, svc.admin.organizationId, {
        subOrganizationName: 'oauth',
        rootUsers: [
          {
            ...rootUser('olga'),
            oauthProviders: [
              { providerName: 'Example', oidcClaims: { iss: 'https://accounts.example', sub: 'abc', aud: 'client-9' } },
              { providerName: 'Token', oidcToken },
            ],
          },
        ],
        rootQuorumThreshold: 1,
      }),
    )
    expect(r.status).toBe(200)
    const subId = r.json.activity.result.createSubOrganizationResultV8.subOrganizationId
    const users = await svc.post('/public/v1/query/list_users', { organizationId: subId })
    const providers = users.json.users[0].oauthProviders
    const rows = providers.map((p: any) => [p.providerName, p.issuer, p.subject, p.audience]).sort()
    expect(rows).toEqual([
      ['Example', 'https://accounts.example', 'abc', 'client-9'],
      ['Token', svc.rt.devIdp!.issuer(), devSubject('olga@example.com'), DEV_OIDC_CLIENT_ID],
    ])
    const bad = await svc.post(
      '/public/v1/submit/create_sub_organization',
      submitBody(SUB, svc.admin.organizationId, {
        subOrganizationName: 'oauth-bad',
        rootUsers: [{ ...rootUser('oleg'), oauthProviders: [{ providerName: 'Nothing' }] }],
        rootQuorumThreshold: 1,
      }),
    )
    expect(bad.status).toBe(400)
    expect(bad.json.message).toContain('parameters.rootUsers[0].oauthProviders[0]')
  })

  it('sets and removes organization features', async () => {
    const org = svc.admin.organizationId
    const set = await svc.post(
      '/public/v1/submit/set_organization_feature',
      submitBody('ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE', org, { name: 'FEATURE_NAME_EMAIL_AUTH', value: 'on' }),
    )
    expect(set.json.activity.result.setOrganizationFeatureResult.features).toContainEqual({ name: 'FEATURE_NAME_EMAIL_AUTH', value: 'on' })
    const rm = await svc.post(
      '/public/v1/submit/remove_organization_feature',
      submitBody('ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE', org, { name: 'FEATURE_NAME_EMAIL_AUTH' }),
    )
    expect(rm.json.activity.result.removeOrganizationFeatureResult.features).toEqual([])
    const bad = await svc.post(
      '/public/v1/submit/set_organization_feature',
      submitBody('ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE', org, { name: 'FEATURE_NAME_NOPE' }),
    )
    expect(bad.status).toBe(400)
    expect(bad.json.message).toContain('parameters.name')
  })

  it('lists activities newest first with filters and before/after pagination', async () => {
    const org = svc.admin.organizationId
    const ids: string[] = []
    for (let i = 0; i < 4; i++) {
      const r = await svc.post(
        '/public/v1/submit/set_organization_feature',
        submitBody('ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE', org, { name: 'FEATURE_NAME_WEBHOOK', value: String(i) }),
      )
      ids.push(r.json.activity.id)
    }
    const page = await svc.post('/public/v1/query/list_activities', {
      organizationId: org,
      filterByType: ['ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE'],
      filterByStatus: ['ACTIVITY_STATUS_COMPLETED'],
      paginationOptions: { limit: '2' },
    })
    expect(page.json.activities.map((a: any) => a.id)).toEqual([ids[3], ids[2]])
    const older = await svc.post('/public/v1/query/list_activities', {
      organizationId: org,
      filterByType: ['ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE'],
      paginationOptions: { limit: '2', after: ids[2] },
    })
    expect(older.json.activities.map((a: any) => a.id).slice(0, 2)).toEqual([ids[1], ids[0]])
    const newer = await svc.post('/public/v1/query/list_activities', {
      organizationId: org,
      filterByType: ['ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE'],
      paginationOptions: { limit: '2', before: ids[1] },
    })
    expect(newer.json.activities.map((a: any) => a.id)).toEqual([ids[3], ids[2]])
    const badLimit = await svc.post('/public/v1/query/list_activities', { organizationId: org, paginationOptions: { limit: '101' } })
    expect(badLimit.status).toBe(400)
    expect(badLimit.json.message).toContain('paginationOptions.limit')
  })

  it('attaches a verifiable app proof when generateAppProofs is true', async () => {
    const r = await svc.post(
      '/public/v1/submit/set_organization_feature',
      submitBody(
        'ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE',
        svc.admin.organizationId,
        { name: 'FEATURE_NAME_AUTH_PROXY', value: 'x' },
        { generateAppProofs: true },
      ),
    )
    const a = r.json.activity
    expect(a.appProofs).toHaveLength(1)
    const proof = a.appProofs[0]
    expect(proof.scheme).toBe('SIGNATURE_SCHEME_EPHEMERAL_KEY_P256')
    const health = await (await fetch(`${svc.url}/healthz`)).json()
    const ok = verifyAppProof(proof, {
      intent: a.intent.setOrganizationFeatureIntent,
      result: a.result.setOrganizationFeatureResult,
      expectedPublicKey: health.appProofPublicKey,
    })
    expect(ok.ok).toBe(true)
    const tampered = verifyAppProof(proof, { intent: { name: 'other' }, result: a.result.setOrganizationFeatureResult })
    expect(tampered.ok).toBe(false)
    // The hosted service's own verifier accepts it, and list_app_proofs serves it.
    expect(() => verifyAppProofSignature(proof)).not.toThrow()
    const listed = await svc.post('/public/v1/query/list_app_proofs', { organizationId: svc.admin.organizationId, activityId: a.id })
    expect(listed.json.appProofs).toEqual([proof])
    const foreign = await svc.post('/public/v1/query/list_app_proofs', { organizationId: svc.admin.organizationId, activityId: 'nope' })
    expect(foreign.status).toBe(404)
  })
})
