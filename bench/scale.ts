/**
 * Scale with data: the same measurements on an empty database and on one filled
 * with sub-organizations, activities and wallet accounts (bulk-loaded by SQL generated here, rows
 * shaped as the service writes them), each in a service of its own process. Target: every row
 * filled ≤ 1.5× empty.
 *
 * The database is prepared before the service starts, with the project's own store code
 * (openDatabase, migrate, bootstrap: the root organization and admin key the service then reuses),
 * plus a "probe" sub-organization whose user's API key the bench holds. Filled, the probe
 * organization holds a fifth of the activities (its deep history, for the cursor row) and every
 * other sub-organization one user (email `user<i>@scale.test`, an API key, quorum member), one
 * wallet and its share of the accounts and activities (each with its submitter's vote).
 *
 * Rows: sign_raw_payload at 8 clients in the probe sub-organization and in the root;
 * list_activities of the probe organization, first page and a page after a cursor deep in its
 * history; get_wallet_account; stamp_login by the probe user's API key naming the root (the
 * credential is resolved across sub-organizations); otp_auth in the root for the probe user's email
 * (the user is found by contact across the whole tree); list_suborgs by EMAIL from the root (how the
 * relay finds the account at each login). Reads: sequential samples.
 * Run directly: `npx tsx bench/scale.ts`; with SIGIL_BENCH_DATABASE_URL also on PostgreSQL (its
 * databases are dropped after each phase unless SIGIL_BENCH_SCALE_KEEP is set, e.g. for EXPLAIN).
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { p256 } from '@noble/curves/nist.js'
import { bytesToHex } from '../src/crypto/encoding.js'
import { createP256WebCryptoKeyPair, createWebCryptoStamper } from '../src/crypto/stamp.js'
import { bootstrap } from '../src/service/bootstrap.js'
import { openDatabase } from '../src/service/store/db.js'
import { migrate } from '../src/service/store/migrate.js'
import { insertOrganization, setQuorum } from '../src/service/store/organizations.js'
import type { Database } from '../src/service/store/sql.js'
import { insertApiKey, insertUser } from '../src/service/store/users.js'
import { percentile, runLoad } from './load.js'
import { freshDatabase, postJson, startBenchService } from './serviceProcess.js'

type Stamper = ReturnType<typeof createWebCryptoStamper>

export type ScaleSizes = { subOrgs: number; activities: number; walletAccounts: number }

/** The issue's sizes. */
export const FULL_SIZES: ScaleSizes = { subOrgs: 100_000, activities: 1_000_000, walletAccounts: 200_000 }

export type ScaleMeasure = { p50Ms: number; p99Ms: number; samples: number; throughput?: number }

export type ScaleRow = { name: string; empty: ScaleMeasure; filled: ScaleMeasure }

export type ScaleResult = {
  database: string
  sizes: ScaleSizes
  /** Seconds the bulk load took (filled database). */
  loadSeconds: number
  note: string
  rows: ScaleRow[]
}

const PROBE_EMAIL = 'probe@scale.test'
const DAY_MS = 86_400_000

/** The service's ids are UUIDs: the fill makes UUID-shaped ids from a name and a number. */
const uuid = (prefix: string, i: string) => `md5('${prefix}-' || ${i})::uuid::text`
const hex64 = (prefix: string, i: string) => `md5('${prefix}a-' || ${i}) || md5('${prefix}b-' || ${i})`

/** The id the fill gives activity `i` (as {@link uuid} does in SQL). */
function bulkActivityId(i: number): string {
  const h = createHash('md5').update(`scale-activity-${i}`).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

/** The bulk load, in chunks of `chunk` rows per statement (each statement commits alone). */
async function bulkFill(
  db: Database,
  sizes: ScaleSizes,
  probe: { rootId: string; orgId: string; userId: string },
  log: (s: string) => void,
): Promise<void> {
  const chunk = db.kind === 'postgres' ? 100_000 : 25_000
  const n = sizes.subOrgs
  const t0 = Date.now() - 30 * DAY_MS
  const inChunks = async (total: number, what: string, sql: string, extra: unknown[] = []) => {
    const started = performance.now()
    for (let from = 1; from <= total; from += chunk) {
      const to = Math.min(total, from + chunk - 1)
      await db.query(sql, [from, to, ...extra])
    }
    log(`  ${what}: ${total} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  }
  const org = (k: string) => uuid('scale-org', k)
  const user = (k: string) => uuid('scale-user', k)
  // Sub-organization i (1..n) of the root: one user with an email and an API key, its root quorum.
  await inChunks(
    n,
    'organizations',
    `INSERT INTO organizations (id, name, parent_id, is_root, quorum_threshold, created_at, updated_at)
     SELECT ${org('i')}, 'scale org ' || i, $3, false, 1, $4::bigint + i, $4::bigint + i FROM generate_series($1::int, $2::int) i`,
    [probe.rootId, t0],
  )
  await inChunks(
    n,
    'users',
    `INSERT INTO users (id, organization_id, user_name, user_email, user_phone_number, user_tags, created_at, updated_at)
     SELECT ${user('i')}, ${org('i')}, 'user ' || i, 'user' || i || '@scale.test', NULL, '[]', $3::bigint + i, $3::bigint + i
       FROM generate_series($1::int, $2::int) i`,
    [t0],
  )
  await inChunks(
    n,
    'quorum_members',
    `INSERT INTO quorum_members (organization_id, user_id) SELECT ${org('i')}, ${user('i')} FROM generate_series($1::int, $2::int) i`,
  )
  await inChunks(
    n,
    'api_keys',
    `INSERT INTO api_keys (id, organization_id, user_id, name, public_key, curve_type, credential_type, expiration_seconds, expires_at, created_at, updated_at)
     SELECT ${uuid('scale-key', 'i')}, ${org('i')}, ${user('i')}, 'api key', '02' || ${hex64('scale-pk', 'i')},
            'API_KEY_CURVE_P256', 'CREDENTIAL_TYPE_API_KEY_P256', NULL, NULL, $3::bigint + i, $3::bigint + i
       FROM generate_series($1::int, $2::int) i`,
    [t0],
  )
  await inChunks(
    n,
    'wallets',
    `INSERT INTO wallets (id, organization_id, name, mnemonic_enc, imported, exported, created_at, updated_at)
     SELECT ${uuid('scale-wallet', 'i')}, ${org('i')}, 'wallet ' || i,
            'v1.' || ${hex64('scale-mn', 'i')} || ${hex64('scale-mn2', 'i')} || ${hex64('scale-mn3', 'i')}, false, false,
            $3::bigint + i, $3::bigint + i
       FROM generate_series($1::int, $2::int) i`,
    [t0],
  )
  // Account j: wallet ((j-1) mod n) + 1, address index (j-1) div n.
  await inChunks(
    sizes.walletAccounts,
    'wallet_accounts',
    `INSERT INTO wallet_accounts (id, organization_id, wallet_id, curve, path_format, path, path_norm, address_format, address,
                                  public_key, name, private_key_enc, created_at, updated_at)
     SELECT ${uuid('scale-account', 'j')}, ${org('w')}, ${uuid('scale-wallet', 'w')}, 'CURVE_SECP256K1', 'PATH_FORMAT_BIP32',
            'm/44''/60''/0''/0/' || x, 'm/44''/60''/0''/0/' || x, 'ADDRESS_FORMAT_ETHEREUM',
            '0x' || substr(${hex64('scale-addr', 'j')}, 1, 40), '02' || ${hex64('scale-pub', 'j')}, NULL,
            'v1.' || ${hex64('scale-sk', 'j')} || ${hex64('scale-sk2', 'j')}, $4::bigint + j, $4::bigint + j
       FROM (SELECT j, ((j - 1) % $3::int) + 1 AS w, (j - 1) / $3::int AS x FROM generate_series($1::int, $2::int) j) s`,
    [n, t0 + DAY_MS],
  )
  // Activity i: every fifth in the probe organization, else sub-organization ((i-1) mod n) + 1;
  // a completed sign_raw_payload with its body, intent, result and the submitter's vote.
  const sub = `SELECT i,
       CASE WHEN i % 5 = 0 THEN $3 ELSE ${org('((i - 1) % $5::int) + 1')} END AS o,
       CASE WHEN i % 5 = 0 THEN $4 ELSE ${user('((i - 1) % $5::int) + 1')} END AS u,
       '0x' || substr(${hex64('scale-addr', '((i - 1) % $5::int) + 1')}, 1, 40) AS addr,
       $6::bigint + i * 1000 AS t
     FROM generate_series($1::int, $2::int) i`
  const bodyOf = `json_build_object('parameters', json_build_object('signWith', s.addr, 'payload', '0x' || ${hex64('scale-payload', 's.i')},
       'encoding', 'PAYLOAD_ENCODING_HEXADECIMAL', 'hashFunction', 'HASH_FUNCTION_KECCAK256'),
       'organizationId', s.o, 'timestampMs', s.t::text, 'type', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2')::text`
  const activityParams = [probe.orgId, probe.userId, n, t0 + 2 * DAY_MS]
  await inChunks(
    sizes.activities,
    'activities',
    `INSERT INTO activities (id, organization_id, quorum_org_id, submitter_user_id, submitter_org_id, type, status, intent_key, intent,
                             result_key, result, failure, app_proofs, generate_app_proofs, fingerprint, body, timestamp_ms, created_at, updated_at)
     SELECT ${uuid('scale-activity', 'b.i')}, b.o, b.o, b.u, b.o, 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', 'ACTIVITY_STATUS_COMPLETED',
            'signRawPayloadIntentV2', (b.body::jsonb) -> 'parameters', 'signRawPayloadResult',
            json_build_object('r', ${hex64('scale-r', 'b.i')}, 's', ${hex64('scale-s', 'b.i')}, 'v', '00')::jsonb, NULL, '[]', false,
            ${hex64('scale-fp', 'b.i')}, b.body, b.t::text, b.t, b.t
       FROM (SELECT s.i, s.o, s.u, s.t, ${bodyOf} AS body FROM (${sub}) s) b
      ORDER BY b.i`,
    activityParams,
  )
  await inChunks(
    sizes.activities,
    'votes',
    `INSERT INTO votes (id, activity_id, user_id, selection, message, public_key, signature, scheme, created_at)
     SELECT ${uuid('scale-vote', 's.i')}, ${uuid('scale-activity', 's.i')}, s.u, 'VOTE_SELECTION_APPROVED', ${bodyOf},
            '02' || ${hex64('scale-pk', 's.i')}, '3045' || ${hex64('scale-sig', 's.i')} || md5('scale-sig-c' || s.i), 'SIGNATURE_SCHEME_TK_API_P256', s.t
       FROM (${sub}) s`,
    activityParams,
  )
  const started = performance.now()
  await db.query('ANALYZE')
  log(`  ANALYZE in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

/** A database prepared for the service: root (bootstrap), the probe sub-organization, and when `sizes` is given the bulk rows. */
async function prepare(
  dataDir: string,
  databaseUrl: string | undefined,
  probeKeyHex: string,
  sizes: ScaleSizes | undefined,
  log: (s: string) => void,
): Promise<{ rootId: string; orgId: string; userId: string; loadSeconds: number }> {
  const db = await openDatabase({ databaseUrl, dataDir, engine: embeddedEngine() })
  try {
    await migrate(db)
    const now = Date.now()
    const admin = await bootstrap(db, dataDir, now - 31 * DAY_MS)
    const probe = { rootId: admin.organizationId, orgId: crypto.randomUUID(), userId: crypto.randomUUID() }
    await db.transaction(async (tx) => {
      await insertOrganization(tx, { id: probe.orgId, name: 'probe', parentId: probe.rootId, quorumThreshold: 1, now: now - 31 * DAY_MS })
      await insertUser(tx, { id: probe.userId, orgId: probe.orgId, userName: 'probe', userEmail: PROBE_EMAIL, now: now - 31 * DAY_MS })
      await insertApiKey(tx, {
        id: crypto.randomUUID(),
        orgId: probe.orgId,
        userId: probe.userId,
        name: 'probe',
        publicKey: probeKeyHex,
        curveType: 'API_KEY_CURVE_P256',
        credentialType: 'CREDENTIAL_TYPE_API_KEY_P256',
        now: now - 31 * DAY_MS,
      })
      await setQuorum(tx, probe.orgId, 1, [probe.userId], now - 31 * DAY_MS)
    })
    const started = performance.now()
    if (sizes) await bulkFill(db, sizes, probe, log)
    return { ...probe, loadSeconds: (performance.now() - started) / 1000 }
  } finally {
    await db.close()
  }
}

async function sequential(samples: number, request: () => Promise<void>): Promise<ScaleMeasure> {
  for (let i = 0; i < Math.min(20, samples); i++) await request()
  const latencies: number[] = []
  for (let i = 0; i < samples; i++) {
    const t = performance.now()
    await request()
    latencies.push(performance.now() - t)
  }
  latencies.sort((a, b) => a - b)
  return { p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), samples }
}

/** The embedded engine of this run: the default, or SIGIL_DATABASE=pglite (the service process inherits it). */
const embeddedEngine = () => (process.env.SIGIL_DATABASE === 'pglite' ? 'pglite' : 'postgres')
const engineLabel = () => (embeddedEngine() === 'pglite' ? 'PGlite' : 'embedded PostgreSQL')

/** One phase: prepare (empty or filled), start the service, measure every row, stop. */
async function phase(
  opts: { databaseUrl?: string | undefined; sizes?: ScaleSizes | undefined; samples: number; clients: number; durationMs: number },
  log: (s: string) => void,
): Promise<{ measures: Array<{ name: string; m: ScaleMeasure }>; loadSeconds: number }> {
  const dataDir = mkdtempSync(join(os.tmpdir(), 'sigil-scale-'))
  const databaseUrl = opts.databaseUrl ? await freshDatabase(opts.databaseUrl) : undefined
  const probeKey = await createP256WebCryptoKeyPair()
  const probeStamper = createWebCryptoStamper({ privateKey: probeKey.keyPair.privateKey, publicKeyHex: probeKey.publicKeyHex })
  const probe = await prepare(dataDir, databaseUrl, probeKey.publicKeyHex, opts.sizes, log)
  const svc = await startBenchService(databaseUrl, { SIGIL_OTP_MAX_PER_WINDOW: '1000000' }, { dataDir })
  try {
    const post = async (stamper: Stamper, path: string, body: unknown) => {
      const text = JSON.stringify(body)
      const s = await stamper.stamp(text)
      const res = await postJson(`${svc.url}${path}`, text, { [s.stampHeaderName]: s.stampHeaderValue })
      const json = JSON.parse(res.body) as any
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`)
      return json
    }
    const submit = async (stamper: Stamper, op: string, type: string, organizationId: string, parameters: unknown) => {
      const json = await post(stamper, `/public/v1/submit/${op}`, { type, timestampMs: String(Date.now()), organizationId, parameters })
      if (json.activity.status !== 'ACTIVITY_STATUS_COMPLETED') throw new Error(`${op}: ${json.activity.status}`)
      return json.activity
    }
    const createWallet = async (stamper: Stamper, orgId: string) => {
      const a = await submit(stamper, 'create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', orgId, {
        walletName: 'scale bench',
        accounts: [
          { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
        ],
      })
      return {
        activityId: a.id as string,
        walletId: a.result.createWalletResult.walletId as string,
        address: a.result.createWalletResult.addresses[0] as string,
      }
    }
    const probeWallet = await createWallet(probeStamper, probe.orgId)
    const rootWallet = await createWallet(svc.stamper, probe.rootId)
    const signIn = (stamper: Stamper, orgId: string, signWith: string) => async () => {
      return submit(stamper, 'sign_raw_payload', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', orgId, {
        signWith,
        payload: `0x${bytesToHex(crypto.getRandomValues(new Uint8Array(32)))}`,
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_KECCAK256',
      })
    }
    const measures: Array<{ name: string; m: ScaleMeasure }> = []
    const load = async (name: string, sign: () => Promise<unknown>) => {
      const request = async () => Boolean(await sign())
      await runLoad('warm-up', opts.clients, Math.min(1000, opts.durationMs), request)
      const r = await runLoad(name, opts.clients, opts.durationMs, request)
      if (r.errors > 0) throw new Error(`${name}: ${r.errors} errors`)
      measures.push({ name, m: { p50Ms: r.p50Ms, p99Ms: r.p99Ms, samples: r.requests, throughput: r.throughput } })
    }
    // The empty database's deep cursor: the 15th signature of the probe org (a full page of older ones
    // follows it, and every signature of the load below is newer).
    let emptyCursor = probeWallet.activityId
    for (let i = 0; i < 15; i++) emptyCursor = (await signIn(probeStamper, probe.orgId, probeWallet.address)()).id
    await load(`sign_raw_payload, probe sub-org (${opts.clients} clients)`, signIn(probeStamper, probe.orgId, probeWallet.address))
    await load(`sign_raw_payload, root org (${opts.clients} clients)`, signIn(svc.stamper, probe.rootId, rootWallet.address))

    const query = (stamper: Stamper, op: string, body: Record<string, unknown>) => post(stamper, `/public/v1/query/${op}`, body)
    // Deep cursor: filled, a bulk activity of the probe org a tenth into its history (≈ 90% of it newer);
    // empty, its oldest activity (create_wallet).
    const deepAfter = opts.sizes ? bulkActivityId(5 * Math.floor(opts.sizes.activities / 50)) : emptyCursor
    measures.push({
      name: 'list_activities, first page (probe org)',
      m: await sequential(opts.samples, async () => {
        const r = await query(probeStamper, 'list_activities', { organizationId: probe.orgId })
        if (r.activities.length !== 10) throw new Error('list_activities: short page')
      }),
    })
    measures.push({
      name: 'list_activities, deep page by cursor (probe org)',
      m: await sequential(opts.samples, async () => {
        const r = await query(probeStamper, 'list_activities', { organizationId: probe.orgId, paginationOptions: { after: deepAfter } })
        if (r.activities.length !== 10) throw new Error('list_activities deep: short page')
      }),
    })
    measures.push({
      name: 'get_wallet_account (probe org)',
      m: await sequential(opts.samples, async () => {
        const r = await query(probeStamper, 'get_wallet_account', {
          organizationId: probe.orgId,
          walletId: probeWallet.walletId,
          address: probeWallet.address,
        })
        if (r.account.address !== probeWallet.address) throw new Error('get_wallet_account: wrong account')
      }),
    })
    measures.push({
      name: 'get_api_keys, every key of the probe org',
      m: await sequential(opts.samples, async () => {
        const r = await query(probeStamper, 'get_api_keys', { organizationId: probe.orgId })
        if (r.apiKeys.length < 1) throw new Error('get_api_keys: no key')
      }),
    })
    measures.push({
      name: 'get_organization (probe org)',
      m: await sequential(opts.samples, async () => {
        const r = await query(probeStamper, 'get_organization', { organizationId: probe.orgId })
        if (r.organizationData.users.length < 1) throw new Error('get_organization: no user')
      }),
    })
    measures.push({
      name: 'stamp_login, sub-org key naming the root',
      m: await sequential(opts.samples, async () => {
        const publicKey = bytesToHex(p256.getPublicKey(p256.utils.randomSecretKey(), true))
        const a = await submit(probeStamper, 'stamp_login', 'ACTIVITY_TYPE_STAMP_LOGIN', probe.rootId, { publicKey })
        if (!a.result.stampLoginResult.session) throw new Error('stamp_login: no session')
      }),
    })
    measures.push({
      name: 'list_suborgs by EMAIL from the root (relay account lookup)',
      m: await sequential(opts.samples, async () => {
        const r = await query(svc.stamper, 'list_suborgs', { organizationId: probe.rootId, filterType: 'EMAIL', filterValue: PROBE_EMAIL })
        if (r.organizationIds.length !== 1 || r.organizationIds[0] !== probe.orgId) throw new Error('list_suborgs: not the probe org')
      }),
    })
    // otp_auth: the OTP is initiated (untimed) and its code read from the dev mailbox first.
    const otpLatencies: number[] = []
    for (let i = 0; i < opts.samples + 20; i++) {
      const init = await submit(svc.stamper, 'init_otp_auth', 'ACTIVITY_TYPE_INIT_OTP_AUTH_V3', probe.rootId, {
        otpType: 'OTP_TYPE_EMAIL',
        contact: PROBE_EMAIL,
        appName: 'Scale',
      })
      const otpId = init.result.initOtpAuthResultV2.otpId as string
      const messages = ((await (await fetch(`${svc.url}/dev/messages`)).json()) as { messages: Array<{ to: string; text: string }> })
        .messages
      const code = messages.find((m) => m.to === PROBE_EMAIL)?.text.match(/verification code is:? ([0-9A-Z]+)/)?.[1]
      if (!code) throw new Error('no OTP code in the dev mailbox')
      const targetPublicKey = bytesToHex(p256.getPublicKey(p256.utils.randomSecretKey(), true))
      const t = performance.now()
      const a = await submit(svc.stamper, 'otp_auth', 'ACTIVITY_TYPE_OTP_AUTH', probe.rootId, { otpId, otpCode: code, targetPublicKey })
      if (i >= 20) otpLatencies.push(performance.now() - t)
      if (a.result.otpAuthResult.userId !== probe.userId) throw new Error('otp_auth: wrong user')
    }
    otpLatencies.sort((a, b) => a - b)
    measures.push({
      name: 'otp_auth in the root, user found by email',
      m: { p50Ms: percentile(otpLatencies, 50), p99Ms: percentile(otpLatencies, 99), samples: otpLatencies.length },
    })
    return { measures, loadSeconds: probe.loadSeconds }
  } finally {
    await svc.stop()
    rmSync(dataDir, { recursive: true, force: true })
    if (databaseUrl && opts.databaseUrl) {
      if (process.env.SIGIL_BENCH_SCALE_KEEP) log(`  kept ${databaseUrl}`)
      else await dropDatabase(opts.databaseUrl, databaseUrl)
    }
  }
}

/** Drops the bench's database `url` (on the server of `base`). */
async function dropDatabase(base: string, url: string): Promise<void> {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: base })
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`)
  } finally {
    await client.end()
  }
}

/** Measures every row on an empty and on a filled database (PGlite, or PostgreSQL when `databaseUrl` is given). */
export async function benchScale(
  opts: {
    databaseUrl?: string
    sizes?: ScaleSizes
    note?: string
    samples?: number
    clients?: number
    durationMs?: number
    log?: (s: string) => void
  } = {},
): Promise<ScaleResult> {
  const sizes = opts.sizes ?? FULL_SIZES
  const log = opts.log ?? ((s: string) => console.error(s))
  const common = {
    databaseUrl: opts.databaseUrl,
    samples: opts.samples ?? 200,
    clients: opts.clients ?? 8,
    durationMs: opts.durationMs ?? 4000,
  }
  log(`scale: empty ${opts.databaseUrl ? 'PostgreSQL' : engineLabel()} database`)
  const empty = await phase(common, log)
  log(`scale: filling (${sizes.subOrgs} sub-orgs, ${sizes.activities} activities, ${sizes.walletAccounts} wallet accounts)`)
  const filled = await phase({ ...common, sizes }, log)
  return {
    database: opts.databaseUrl ? 'PostgreSQL' : engineLabel(),
    sizes,
    loadSeconds: filled.loadSeconds,
    note: opts.note ?? '',
    rows: empty.measures.map((e, i) => ({ name: e.name, empty: e.m, filled: (filled.measures[i] as { m: ScaleMeasure }).m })),
  }
}

/** The table: empty and filled p50/p99 per row and the filled/empty ratio (target ≤ 1.5×). */
export function formatScale(results: ScaleResult[]): string {
  const [l1, l5, l15] = os.loadavg()
  const out = [`cores: ${os.availableParallelism()}, load average: ${l1?.toFixed(2)} ${l5?.toFixed(2)} ${l15?.toFixed(2)}`]
  for (const r of results) {
    out.push(
      '',
      `${r.database}: ${r.sizes.subOrgs} sub-organizations, ${r.sizes.activities} activities (a fifth in the probe org), ${r.sizes.walletAccounts} wallet accounts; bulk load ${r.loadSeconds.toFixed(0)} s${r.note ? `\n${r.note}` : ''}`,
    )
    const w = Math.max(...r.rows.map((x) => x.name.length))
    const head = `${'name'.padEnd(w)}  empty p50  empty p99  filled p50  filled p99  p50 ×  p99 ×`
    out.push(head, '-'.repeat(head.length))
    for (const x of r.rows) {
      const f = (v: number) => v.toFixed(2).padStart(9)
      const ratio50 = x.filled.p50Ms / x.empty.p50Ms
      const ratio99 = x.filled.p99Ms / x.empty.p99Ms
      out.push(
        `${x.name.padEnd(w)}  ${f(x.empty.p50Ms)}  ${f(x.empty.p99Ms)}  ${f(x.filled.p50Ms).padStart(10)}  ${f(x.filled.p99Ms).padStart(10)}  ${ratio50.toFixed(2).padStart(5)}  ${ratio99.toFixed(2).padStart(5)}${ratio50 > 1.5 ? '  over 1.5×' : ''}`,
      )
    }
  }
  out.push('(ms; sign rows: 8 concurrent clients; other rows: sequential samples; target: filled p50 ≤ 1.5× empty)')
  return out.join('\n')
}

/**
 * `npm run bench scale`: the embedded database (the default PostgreSQL, or PGlite with
 * SIGIL_DATABASE=pglite) and, with SIGIL_BENCH_DATABASE_URL, that PostgreSQL, at the issue's full
 * sizes (SIGIL_BENCH_SCALE_PGLITE=tenth: the embedded one at a tenth, for a quicker run).
 */
export async function runScale(): Promise<string> {
  const results: ScaleResult[] = []
  const tenth = process.env.SIGIL_BENCH_SCALE_PGLITE === 'tenth'
  results.push(
    await benchScale({
      sizes: tenth ? { subOrgs: 10_000, activities: 100_000, walletAccounts: 20_000 } : FULL_SIZES,
      note: tenth ? `${engineLabel()} at 1/10 of the issue sizes (SIGIL_BENCH_SCALE_PGLITE=tenth).` : '',
    }),
  )
  const pg = process.env.SIGIL_BENCH_DATABASE_URL
  if (pg) results.push(await benchScale({ databaseUrl: pg }))
  return formatScale(results)
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await runScale())
