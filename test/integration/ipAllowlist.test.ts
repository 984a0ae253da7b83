/**
 * IP allow-lists through the unmodified `@turnkey/http` client: set_ip_allowlist,
 * remove_ip_allowlist, get_ip_allowlist, and their enforcement on every request of the organization
 * (docs "IP Allowlist"): the organization's list and an API key's, refusals as 403 IP_NOT_ALLOWED
 * that name no address or rule, sub-organizations never evaluated, a change that would lock out
 * its own request refused, and `X-Forwarded-For` read only from a trusted proxy
 * (`SIGIL_TRUSTED_PROXIES`; raw requests with a hand-built header, as a hostile client would send).
 */
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseCidrList } from '../../src/service/net/cidr.js'
import { newApiKey } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

const SET = '/public/v1/submit/set_ip_allowlist'
const REMOVE = '/public/v1/submit/remove_ip_allowlist'
const GET = '/public/v1/query/get_ip_allowlist'
const WHOAMI = '/public/v1/query/whoami'

const clientOf = (svc: TestService, key: ReturnType<typeof newApiKey>) =>
  new TurnkeyClient({ baseUrl: svc.url }, new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKeyHex }))

const reasonOf = (json: any): string | undefined => json?.details?.find((d: any) => typeof d.reason === 'string')?.reason
const fieldsOf = (json: any): string[] =>
  (json?.details ?? []).flatMap((d: any) => (d.fieldViolations ?? []).map((v: any) => v.field as string))

/** Adds an API key to the root organization's admin user. */
async function addAdminKey(svc: TestService, client: TurnkeyClient, name: string) {
  const key = newApiKey(name)
  const me = await client.getWhoami({ organizationId: svc.admin.organizationId })
  await client.createApiKeys({
    type: 'ACTIVITY_TYPE_CREATE_API_KEYS_V2',
    timestampMs: String(Date.now()),
    organizationId: svc.admin.organizationId,
    parameters: { userId: me.userId, apiKeys: [key.param] },
  })
  return key
}

/** A sub-organization with its own root user's key. */
async function addSubOrg(svc: TestService, client: TurnkeyClient) {
  const key = newApiKey('sub')
  const r = await client.createSubOrganization({
    type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
    timestampMs: String(Date.now()),
    organizationId: svc.admin.organizationId,
    parameters: {
      subOrganizationName: 'allow-list sub',
      rootUsers: [{ userName: 'sub root', apiKeys: [key.param], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
    },
  })
  return { subOrg: r.activity.result.createSubOrganizationResultV8?.subOrganizationId as string, key }
}

describe('IP allow-list, client address from the socket (no trusted proxies)', () => {
  let svc: TestService
  let admin: TurnkeyClient
  let org: string
  let second: ReturnType<typeof newApiKey>

  beforeAll(async () => {
    svc = await startTestService()
    admin = adminTurnkeyClient(svc)
    org = svc.admin.organizationId
    second = await addAdminKey(svc, admin, 'second key')
  })
  afterAll(async () => {
    await svc?.stop()
  })

  it('an organization without a list reads an empty, disabled list that fails closed by default', async () => {
    const r = await admin.getIpAllowlist({ organizationId: org })
    expect(r.allowlist).toEqual({ organizationId: org, rules: [], enabled: false, onEvaluationError: 'DENY' })
  })

  it('a list that covers 127.0.0.1 lets requests through; its blocks are stored normalised with labels and creation times', async () => {
    const r = await admin.setIpAllowlist({
      type: 'ACTIVITY_TYPE_SET_IP_ALLOWLIST',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: {
        enabled: true,
        rules: [{ cidr: '127.0.0.0/8', label: 'this host' }, { cidr: '2001:DB8:0::/32' }, { cidr: '::1' }],
      },
    })
    expect(r.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(r.activity.type).toBe('ACTIVITY_TYPE_SET_IP_ALLOWLIST')
    const { allowlist } = await admin.getIpAllowlist({ organizationId: org })
    expect(allowlist.enabled).toBe(true)
    expect(allowlist.onEvaluationError).toBe('DENY')
    expect(allowlist.rules.map((x) => [x.cidr, x.label])).toEqual([
      ['127.0.0.0/8', 'this host'],
      ['2001:db8::/32', undefined],
      ['::1/128', undefined],
    ])
    expect(Number(allowlist.rules[0]?.createdAt)).toBeGreaterThan(0)
    // Both keys of the organization pass (the organization's list covers them).
    expect((await admin.getWhoami({ organizationId: org })).organizationId).toBe(org)
    expect((await clientOf(svc, second).getWhoami({ organizationId: org })).organizationId).toBe(org)
  })

  it('an API key whose own list leaves 127.0.0.1 out is refused on its next request with IP_NOT_ALLOWED, naming no address; removing the list lets it through again', async () => {
    const set = await admin.setIpAllowlist({
      type: 'ACTIVITY_TYPE_SET_IP_ALLOWLIST',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: { publicKey: second.publicKey, rules: [{ cidr: '203.0.113.0/24', label: 'office' }] },
    })
    expect(set.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const keyList = await admin.getIpAllowlist({ organizationId: org, publicKey: second.publicKey })
    expect(keyList.allowlist).toMatchObject({
      organizationId: org,
      publicKey: second.publicKey,
      rules: [{ cidr: '203.0.113.0/24', label: 'office' }],
    })
    expect(keyList.allowlist.enabled).toBeUndefined()

    // The official client sees gRPC 7; the raw answer is 403 with the stable code, and no list or address.
    await expect(clientOf(svc, second).getWhoami({ organizationId: org })).rejects.toMatchObject({ name: 'TurnkeyRequestError', code: 7 })
    const refused = await svc.post(WHOAMI, { organizationId: org }, second.stamper)
    expect(refused.status).toBe(403)
    expect(reasonOf(refused.json)).toBe('IP_NOT_ALLOWED')
    expect(JSON.stringify(refused.json)).not.toMatch(/203\.0\.113|127\.0\.0|office/)
    // Submits are refused too, before anything happens.
    const submit = await svc.post(
      '/public/v1/submit/create_wallet',
      submitBody('ACTIVITY_TYPE_CREATE_WALLET', org, { walletName: 'never', accounts: [] }),
      second.stamper,
    )
    expect(submit.status).toBe(403)
    expect(reasonOf(submit.json)).toBe('IP_NOT_ALLOWED')
    expect((await admin.getWallets({ organizationId: org })).wallets.map((w) => w.walletName)).not.toContain('never')
    // A forwarded header from a peer that is not a trusted proxy is ignored: it cannot claim the office.
    const forged = await svc.post(WHOAMI, { organizationId: org }, second.stamper, { 'X-Forwarded-For': '203.0.113.7' })
    expect(forged.status).toBe(403)
    expect(reasonOf(forged.json)).toBe('IP_NOT_ALLOWED')
    // The admin key is held to the organization's list and still passes.
    expect((await admin.getWhoami({ organizationId: org })).organizationId).toBe(org)

    const removed = await admin.removeIpAllowlist({
      type: 'ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: { publicKey: second.publicKey },
    })
    expect(removed.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect((await clientOf(svc, second).getWhoami({ organizationId: org })).organizationId).toBe(org)
  })

  it('a change that would refuse the very request making it is refused (412 naming parameters.rules) and changes nothing', async () => {
    const before = await admin.getIpAllowlist({ organizationId: org })
    const r = await svc.post(SET, submitBody('ACTIVITY_TYPE_SET_IP_ALLOWLIST', org, { enabled: true, rules: [{ cidr: '10.0.0.0/8' }] }))
    expect(r.status).toBe(412)
    expect(reasonOf(r.json)).toBe('FAILED_PRECONDITION')
    expect(fieldsOf(r.json)).toEqual(['parameters.rules'])
    // Its own key's list too.
    const own = await svc.post(
      SET,
      submitBody('ACTIVITY_TYPE_SET_IP_ALLOWLIST', org, { publicKey: svc.admin.publicKey, rules: [{ cidr: '10.0.0.0/8' }] }),
    )
    expect(own.status).toBe(412)
    expect((await admin.getIpAllowlist({ organizationId: org })).allowlist).toEqual(before.allowlist)
    // Staged with enabled: false it is accepted (nothing is enforced), and enabling it then is refused.
    const staged = await svc.post(
      SET,
      submitBody('ACTIVITY_TYPE_SET_IP_ALLOWLIST', org, { enabled: false, rules: [{ cidr: '10.0.0.0/8' }] }),
    )
    expect(staged.status).toBe(200)
    expect((await admin.getWhoami({ organizationId: org })).organizationId).toBe(org)
    const enable = await svc.post(SET, submitBody('ACTIVITY_TYPE_SET_IP_ALLOWLIST', org, { enabled: true }))
    expect(enable.status).toBe(412)
    expect((await admin.getIpAllowlist({ organizationId: org })).allowlist.enabled).toBe(false)
  })

  it('bad input is 400 naming the field: a CIDR that is not one, a prefix out of range, host bits set, a repeat, enabled on a key list, an unknown key, a bad onEvaluationError', async () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [{ rules: [{ cidr: '10.0.0.300/8' }] }, 'parameters.rules[0].cidr', /CIDR block/],
      [{ rules: [{ cidr: '127.0.0.0/8' }, { cidr: '1.2.3.0/33' }] }, 'parameters.rules[1].cidr', /0 to 32/],
      [{ rules: [{ cidr: '10.0.0.5/8' }] }, 'parameters.rules[0].cidr', /10\.0\.0\.0\/8/],
      [{ rules: [{ cidr: '127.0.0.0/8' }, { cidr: '127.0.0.0/8' }] }, 'parameters.rules[1].cidr', /repeats/],
      [{ rules: [{ cidr: 'localhost' }] }, 'parameters.rules[0].cidr', /CIDR block/],
      [{ publicKey: second.publicKey, enabled: true, rules: [] }, 'parameters.enabled', /organization/],
      [{ onEvaluationError: 'MAYBE' }, 'parameters.onEvaluationError', /ALLOW or DENY/],
    ]
    for (const [parameters, field, message] of cases) {
      const r = await svc.post(SET, submitBody('ACTIVITY_TYPE_SET_IP_ALLOWLIST', org, parameters))
      expect(r.status, JSON.stringify(parameters)).toBe(400)
      expect(reasonOf(r.json)).toBe('INVALID_ARGUMENT')
      expect(fieldsOf(r.json)).toEqual([field])
      expect(r.json.message).toMatch(message)
    }
    const unknown = await svc.post(SET, submitBody('ACTIVITY_TYPE_SET_IP_ALLOWLIST', org, { publicKey: newApiKey().publicKey, rules: [] }))
    expect(unknown.status).toBe(404)
    expect(fieldsOf(unknown.json)).toEqual(['parameters.publicKey'])
    const none = await svc.post(REMOVE, submitBody('ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST', org, { publicKey: second.publicKey }))
    expect(none.status).toBe(404)
    expect(fieldsOf(none.json)).toEqual(['parameters.publicKey'])
  })

  it('a sub-organization cannot have a list (412 naming organizationId)', async () => {
    const { subOrg, key } = await addSubOrg(svc, admin)
    const r = await svc.post(
      SET,
      submitBody('ACTIVITY_TYPE_SET_IP_ALLOWLIST', subOrg, { enabled: true, rules: [{ cidr: '127.0.0.0/8' }] }),
      key.stamper,
    )
    expect(r.status).toBe(412)
    expect(fieldsOf(r.json)).toEqual(['organizationId'])
    expect((await clientOf(svc, key).getIpAllowlist({ organizationId: subOrg })).allowlist.rules).toEqual([])
  })

  it('removing the organization list ends enforcement; removing it again is 404', async () => {
    const r = await admin.removeIpAllowlist({
      type: 'ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: {},
    })
    expect(r.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect((await admin.getIpAllowlist({ organizationId: org })).allowlist).toEqual({
      organizationId: org,
      rules: [],
      enabled: false,
      onEvaluationError: 'DENY',
    })
    const again = await svc.post(REMOVE, submitBody('ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST', org, {}))
    expect(again.status).toBe(404)
  })
})

describe('IP allow-list behind a trusted proxy (SIGIL_TRUSTED_PROXIES=127.0.0.1/32)', () => {
  let svc: TestService
  let admin: TurnkeyClient
  let org: string
  let sub: { subOrg: string; key: ReturnType<typeof newApiKey> }
  const via = (address: string) => ({ 'X-Forwarded-For': address })

  beforeAll(async () => {
    svc = await startTestService({ trustedProxies: parseCidrList('127.0.0.1/32', 'SIGIL_TRUSTED_PROXIES') })
    admin = adminTurnkeyClient(svc)
    org = svc.admin.organizationId
    sub = await addSubOrg(svc, admin)
  })
  afterAll(async () => {
    await svc?.stop()
  })

  it('the forwarded client address decides: a list without 127.0.0.1 set from the office refuses direct requests, IPv6 and IPv4-mapped clients are matched', async () => {
    const set = await svc.post(
      SET,
      submitBody('ACTIVITY_TYPE_SET_IP_ALLOWLIST', org, {
        enabled: true,
        rules: [
          { cidr: '203.0.113.0/24', label: 'office' },
          { cidr: '2001:db8::/32', label: 'office v6' },
        ],
      }),
      undefined,
      via('203.0.113.7'),
    )
    expect(set.status).toBe(200)
    expect(set.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')

    // Straight from 127.0.0.1 (the proxy itself, no header): refused, through the official client too.
    await expect(admin.getWhoami({ organizationId: org })).rejects.toMatchObject({ name: 'TurnkeyRequestError', code: 7 })
    for (const headers of [{}, via('198.51.100.1'), via('203.0.114.1'), via('2001:db9::1')]) {
      const r = await svc.post(WHOAMI, { organizationId: org }, undefined, headers)
      expect(r.status, JSON.stringify(headers)).toBe(403)
      expect(reasonOf(r.json)).toBe('IP_NOT_ALLOWED')
    }
    for (const address of ['203.0.113.9', '2001:db8::5', '::ffff:203.0.113.8', '203.0.113.9, 127.0.0.1']) {
      const r = await svc.post(WHOAMI, { organizationId: org }, undefined, via(address))
      expect(r.status, address).toBe(200)
    }
    // A block that does not parse is a 400 naming it, even where the change would also lock the request out.
    const bad = await svc.post(
      SET,
      submitBody('ACTIVITY_TYPE_SET_IP_ALLOWLIST', org, { rules: [{ cidr: '203.0.113.0/33' }] }),
      undefined,
      via('203.0.113.7'),
    )
    expect(bad.status).toBe(400)
    expect(fieldsOf(bad.json)).toEqual(['parameters.rules[0].cidr'])
    // Only the entries our proxies wrote count: a client cannot prepend the office to its own address.
    const spoofed = await svc.post(WHOAMI, { organizationId: org }, undefined, via('203.0.113.9, 198.51.100.1'))
    expect(spoofed.status).toBe(403)
  })

  it('an unreadable forwarded address fails closed by default and open with onEvaluationError ALLOW', async () => {
    const bad = await svc.post(WHOAMI, { organizationId: org }, undefined, via('not-an-address'))
    expect(bad.status).toBe(403)
    expect(reasonOf(bad.json)).toBe('IP_NOT_ALLOWED')
    const set = await svc.post(
      SET,
      submitBody('ACTIVITY_TYPE_SET_IP_ALLOWLIST', org, { onEvaluationError: 'ALLOW' }),
      undefined,
      via('203.0.113.7'),
    )
    expect(set.status).toBe(200)
    const r = await svc.post(GET, { organizationId: org }, undefined, via('not-an-address'))
    expect(r.status).toBe(200)
    expect(r.json.allowlist).toMatchObject({ enabled: true, onEvaluationError: 'ALLOW' })
    expect(r.json.allowlist.rules.map((x: any) => x.cidr)).toEqual(['203.0.113.0/24', '2001:db8::/32'])
    // An address that is readable and outside the list is still refused.
    expect((await svc.post(WHOAMI, { organizationId: org }, undefined, {})).status).toBe(403)
  })

  it("sub-organizations are not evaluated: their users pass from anywhere, while the parent's key reading them is held to the parent's list", async () => {
    const own = clientOf(svc, sub.key)
    expect((await own.getWhoami({ organizationId: sub.subOrg })).organizationId).toBe(sub.subOrg)
    const wallet = await own.createWallet({
      type: 'ACTIVITY_TYPE_CREATE_WALLET',
      timestampMs: String(Date.now()),
      organizationId: sub.subOrg,
      parameters: { walletName: 'sub wallet', accounts: [] },
    })
    expect(wallet.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const parentRead = await svc.post('/public/v1/query/list_wallets', { organizationId: sub.subOrg })
    expect(parentRead.status).toBe(403)
    expect(reasonOf(parentRead.json)).toBe('IP_NOT_ALLOWED')
    const fromOffice = await svc.post('/public/v1/query/list_wallets', { organizationId: sub.subOrg }, undefined, via('203.0.113.7'))
    expect(fromOffice.status).toBe(200)
    expect(fromOffice.json.wallets.map((w: any) => w.walletName)).toEqual(['sub wallet'])
  })

  it("an API key's own list replaces the organization's for that key; removing it when that would lock the key out is refused (412 naming parameters.publicKey)", async () => {
    const own = await svc.post(
      SET,
      submitBody('ACTIVITY_TYPE_SET_IP_ALLOWLIST', org, {
        publicKey: svc.admin.publicKey,
        rules: [
          { cidr: '127.0.0.1/32', label: 'relay' },
          { cidr: '203.0.113.0/24', label: 'office' },
        ],
      }),
      undefined,
      via('203.0.113.7'),
    )
    expect(own.status).toBe(200)
    // Direct from 127.0.0.1 now, though the organization's list leaves it out.
    expect((await admin.getWhoami({ organizationId: org })).organizationId).toBe(org)
    // The organization's list may change freely from here: this key is held to its own list.
    const orgChange = await svc.post(SET, submitBody('ACTIVITY_TYPE_SET_IP_ALLOWLIST', org, { rules: [{ cidr: '198.51.100.0/24' }] }))
    expect(orgChange.status).toBe(200)
    // The organization's list covers 198.51.100.0/24, but not for this key: its own list leaves it out.
    expect((await svc.post(WHOAMI, { organizationId: org }, undefined, via('198.51.100.1'))).status).toBe(403)
    // Setting its own list to leave out where this request comes from would lock it out.
    const narrow = await svc.post(
      SET,
      submitBody('ACTIVITY_TYPE_SET_IP_ALLOWLIST', org, { publicKey: svc.admin.publicKey, rules: [{ cidr: '203.0.113.0/24' }] }),
    )
    expect(narrow.status).toBe(412)
    expect(fieldsOf(narrow.json)).toEqual(['parameters.rules'])
    const removeOwn = await svc.post(REMOVE, submitBody('ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST', org, { publicKey: svc.admin.publicKey }))
    expect(removeOwn.status).toBe(412)
    expect(fieldsOf(removeOwn.json)).toEqual(['parameters.publicKey'])
    const still = await admin.getIpAllowlist({ organizationId: org, publicKey: svc.admin.publicKey })
    expect(still.allowlist.rules.map((x) => x.cidr)).toEqual(['127.0.0.1/32', '203.0.113.0/24'])
  })

  it('removed, direct requests pass again', async () => {
    const r = await svc.post(REMOVE, submitBody('ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST', org, {}))
    expect(r.status).toBe(200)
    expect(r.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    // Without the organization's list nothing is enforced, the key's own list included.
    expect((await svc.post(WHOAMI, { organizationId: org }, undefined, via('203.0.113.7'))).status).toBe(200)
    expect((await svc.post(WHOAMI, { organizationId: org }, undefined, via('198.51.100.1'))).status).toBe(200)
    expect((await admin.getWhoami({ organizationId: org })).organizationId).toBe(org)
  })
})
