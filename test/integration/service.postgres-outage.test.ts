import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiKeyStamper } from '../../src/crypto/stamp.js'
import { COMMIT_OUTCOME_UNKNOWN } from '../../src/service/store/postgres.js'
import { submitBody } from './helpers/service.js'
import { postgresBinDir, startThrowawayPostgres, type ThrowawayPostgres } from './helpers/postgres.js'
import { spawnService, waitExit } from './helpers/process.js'

/**
 * The database connection dropped and restored under the running service (PostgreSQL only). The test
 * stops and starts a PostgreSQL cluster of its own, never the shared one of DATABASE_URL.
 */
const binDir = postgresBinDir()
const skipReason = !process.env.DATABASE_URL
  ? 'PostgreSQL pass only (DATABASE_URL unset)'
  : !binDir
    ? 'no PostgreSQL server binaries under /usr/lib/postgresql'
    : undefined

const UNAVAILABLE_MESSAGE = 'database unavailable, retry'
const ETH = {
  curve: 'CURVE_SECP256K1',
  pathFormat: 'PATH_FORMAT_BIP32',
  path: "m/44'/60'/0'/0/0",
  addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function until(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(20)
  }
}

type Reply = { status: number; json: any; text: string; reqId: string | null; ms: number }

/** The A3 body of a 503: exactly `{code: 14, message, details}`, reason UNAVAILABLE, no stack or internals. */
function expectUnavailable(r: Reply, messages = [UNAVAILABLE_MESSAGE]) {
  expect(r.status, r.text).toBe(503)
  expect(Object.keys(r.json).sort()).toEqual(['code', 'details', 'message'])
  expect(r.json.code).toBe(14)
  expect(messages).toContain(r.json.message)
  expect(r.json.details).toEqual([{ '@type': 'type.googleapis.com/sigil.ErrorInfo', reason: 'UNAVAILABLE' }])
  expect(r.text).not.toMatch(/\n\s+at |stack|ECONN|57P0|postgres:\/\//)
  expect(r.reqId).toMatch(/^[0-9a-f-]{36}$/)
}

describe.skipIf(skipReason !== undefined)(
  `PostgreSQL outage under the running service${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let cluster: ThrowawayPostgres
    const cleanups: Array<() => Promise<unknown> | unknown> = []
    beforeAll(async () => {
      cluster = await startThrowawayPostgres(binDir!)
    })
    afterAll(async () => {
      for (const c of cleanups.reverse()) await c()
      await cluster?.destroy()
    })

    /** One SQL statement on the throwaway cluster (a short-lived client: never one that a stop would kill idle). */
    async function sql<T = any>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
      const c = new pg.Client({ connectionString: url })
      await c.connect()
      try {
        return (await c.query(text, params)).rows as T[]
      } finally {
        await c.end()
      }
    }

    /** The service as its own process (`npm run service`) on a fresh database of the throwaway cluster. */
    async function serviceOnCluster() {
      const name = `sigil_outage_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
      await sql(cluster.url, `CREATE DATABASE ${name}`)
      const databaseUrl = cluster.url.replace(/\/postgres$/, `/${name}`)
      const dataDir = mkdtempSync(join(tmpdir(), 'sigil-outage-'))
      const env = {
        SIGIL_DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        SIGIL_MASTER_KEY: randomBytes(32).toString('hex'),
        SIGIL_LOG: 'info',
      }
      const { child, url, output } = await spawnService(env)
      cleanups.push(async () => {
        if (child.exitCode === null) {
          child.kill('SIGTERM')
          await waitExit(child)
        }
        rmSync(dataDir, { recursive: true, force: true })
      })
      const health = (await (await fetch(`${url}/healthz`)).json()) as { database: string }
      expect(health.database).toBe('postgres')
      const admin = JSON.parse(readFileSync(join(dataDir, 'admin-api-key.json'), 'utf8'))
      const stamper = createApiKeyStamper({ privateKeyHex: admin.privateKey })
      const post = async (path: string, body: unknown): Promise<Reply> => {
        const text = typeof body === 'string' ? body : JSON.stringify(body)
        const s = await stamper.stamp(text)
        const started = performance.now()
        const res = await fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', [s.stampHeaderName]: s.stampHeaderValue },
          body: text,
        })
        const raw = await res.text()
        let json: any
        try {
          json = JSON.parse(raw)
        } catch {
          json = undefined
        }
        return { status: res.status, json, text: raw, reqId: res.headers.get('X-Request-Id'), ms: performance.now() - started }
      }
      const org = admin.organizationId as string
      /** Submits create_wallet; `body` is the exact text sent, for a byte-identical resubmission. */
      const createWallet = async (
        walletName: string,
        body = JSON.stringify(submitBody('ACTIVITY_TYPE_CREATE_WALLET', org, { walletName, accounts: [ETH] })),
      ) => ({
        ...(await post('/public/v1/submit/create_wallet', body)),
        body,
      })
      const listWallets = () => post('/public/v1/query/list_wallets', { organizationId: org })
      /** Structured log lines the service wrote (SIGIL_LOG=info, JSON on stdout). */
      const logs = () =>
        output()
          .stdout.split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Record<string, unknown>)
      return { child, url, databaseUrl, org, post, createWallet, listWallets, logs, output }
    }

    it('restart mid-load: 503 during the outage, recovery without a service restart, nothing half-applied', async () => {
      const svc = await serviceOnCluster()
      type Outcome = { name: string; started: number; ended: number; r: Reply; body: string }
      const outcomes: Outcome[] = []
      let stopLoad = false
      const clients = Array.from({ length: 4 }, async (_, c) => {
        for (let i = 0; !stopLoad; i++) {
          const name = `load-${c}-${i}`
          const started = Date.now()
          let r: Reply & { body: string }
          try {
            r = await svc.createWallet(name)
          } catch (e) {
            r = { status: 0, json: undefined, text: String(e), reqId: null, ms: 0, body: '' } // the service went away: a defect
          }
          outcomes.push({ name, started, ended: Date.now(), r, body: r.body })
          if (r.status !== 200) await sleep(25)
        }
      })
      const ok = (o: Outcome) => o.r.status === 200
      try {
        await until(() => outcomes.filter(ok).length >= 12, 30_000, 'load to start')
        const tStop = Date.now()
        await cluster.stop() // -m fast: every backend of the service is terminated (57P01), new connections refused
        const tDown = Date.now()
        await sleep(1000)
        await cluster.start()
        const tUp = Date.now()
        await until(() => outcomes.some((o) => o.started >= tUp && ok(o)), 10_000, 'the service to recover')
        const recoveredAt = Math.min(...outcomes.filter((o) => o.started >= tUp && ok(o)).map((o) => o.ended))
        await until(() => outcomes.filter((o) => o.started >= tUp && ok(o)).length >= 8, 10_000, 'load after recovery')
        stopLoad = true
        await Promise.all(clients)

        const failed = outcomes.filter((o) => !ok(o))
        const completed = outcomes.filter(ok)
        console.info(
          `outage: stop took ${tDown - tStop} ms, down ${tUp - tDown} ms, start took ${tUp - tDown - 1000} ms; ` +
            `${outcomes.length} requests, ${completed.length} completed, ${failed.length} failed with 503 ` +
            `(${failed.filter((o) => o.r.json?.message === COMMIT_OUTCOME_UNKNOWN).length} during COMMIT); ` +
            `first success ${recoveredAt - tUp} ms after the server was back; clients saw 503s for ` +
            `${failed.length ? Math.max(...failed.map((o) => o.ended)) - Math.min(...failed.map((o) => o.ended)) : 0} ms`,
        )

        // The service process stayed up throughout; the outage was seen, and only as clean 503s.
        expect(svc.child.exitCode).toBeNull()
        expect(failed.length).toBeGreaterThan(0)
        for (const o of failed) {
          expectUnavailable(o.r, [UNAVAILABLE_MESSAGE, COMMIT_OUTCOME_UNKNOWN])
          expect(o.ended).toBeGreaterThanOrEqual(tStop)
          expect(o.started).toBeLessThanOrEqual(recoveredAt)
        }
        // Recovery by itself, within a few seconds of the server being back.
        expect(recoveredAt - tUp).toBeLessThan(5_000)
        for (const o of completed) expect(o.r.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')

        // Nothing half-applied: the database holds exactly the completed wallets (plus, possibly, one whose
        // COMMIT outcome the service reported as unknown), each with its one account and COMPLETED activity.
        const wallets = await sql<{ id: string; name: string; accounts: string[] }>(
          svc.databaseUrl,
          `SELECT w.id, w.name, coalesce(array_agg(a.address) FILTER (WHERE a.id IS NOT NULL), '{}') AS accounts
           FROM wallets w LEFT JOIN wallet_accounts a ON a.wallet_id = w.id GROUP BY w.id, w.name`,
        )
        const byName = new Map(wallets.map((w) => [w.name, w]))
        for (const o of completed) {
          const result = o.r.json.activity.result.createWalletResult
          const w = byName.get(o.name)
          expect(w?.id, o.name).toBe(result.walletId)
          expect(w?.accounts).toEqual(result.addresses)
        }
        for (const o of failed) {
          if (o.r.json.message === UNAVAILABLE_MESSAGE) expect(byName.has(o.name), `${o.name} failed with 503 but is stored`).toBe(false)
        }
        const allowed = new Set([...completed, ...failed.filter((o) => o.r.json.message === COMMIT_OUTCOME_UNKNOWN)].map((o) => o.name))
        for (const w of wallets) {
          expect(allowed.has(w.name), `${w.name} is stored but no client saw it complete`).toBe(true)
          expect(w.accounts).toHaveLength(1)
        }
        const activities = await sql<{ status: string; wallet_id: string | null }>(
          svc.databaseUrl,
          `SELECT status, result->>'walletId' AS wallet_id FROM activities WHERE type = 'ACTIVITY_TYPE_CREATE_WALLET'`,
        )
        // A 503 is not an activity outcome: no FAILED record (a retry of the same bytes would replay it).
        expect(activities.filter((a) => a.status !== 'ACTIVITY_STATUS_COMPLETED')).toEqual([])
        expect(activities.map((a) => a.wallet_id).sort()).toEqual(wallets.map((w) => w.id).sort())
        // And through the API, every activity a client saw COMPLETED still is.
        for (const o of completed) {
          const a = await svc.post('/public/v1/query/get_activity', { organizationId: svc.org, activityId: o.r.json.activity.id })
          expect(a.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
        }

        // A client that got a 503 resubmits the same bytes: the activity runs once (or, when the lost
        // COMMIT did land, the stored one is replayed), never twice.
        const unknown = failed.filter((o) => o.r.json.message === COMMIT_OUTCOME_UNKNOWN)
        const retried = [...unknown, ...failed.filter((o) => o.r.json.message === UNAVAILABLE_MESSAGE).slice(0, 3)]
        for (const o of retried) {
          const again = await svc.createWallet(o.name, o.body)
          expect(again.status, again.text).toBe(200)
          expect(again.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
          const stored = byName.get(o.name)
          if (stored) expect(again.json.activity.result.createWalletResult.walletId).toBe(stored.id)
        }
        const names = await sql<{ name: string; n: number }>(
          svc.databaseUrl,
          'SELECT name, count(*)::int AS n FROM wallets GROUP BY name HAVING count(*) > 1',
        )
        expect(names).toEqual([])
        console.info(
          `COMMIT outcome unknown: ${unknown.length} (${unknown.filter((o) => byName.has(o.name)).length} had committed); ` +
            `${retried.length} resubmitted, all COMPLETED once`,
        )

        // Logged: the outage once when noticed, each failed request once with its request id, no stack on stderr.
        const logs = svc.logs()
        const lost = logs.filter((l) => l.msg === 'database unavailable')
        const back = logs.filter((l) => l.msg === 'database available again')
        console.info(
          `logged: 'database unavailable' ${lost.length}x (cause ${lost.map((l) => l.cause).join(', ')}), 'database available again' ${back.length}x`,
        )
        expect(lost.length).toBeGreaterThanOrEqual(1)
        expect(lost.length).toBeLessThanOrEqual(2)
        expect(back.length).toBe(lost.length)
        const perRequest = logs.filter((l) => l.msg === 'request failed: database unavailable')
        expect(perRequest.map((l) => l.reqId).sort()).toEqual(failed.map((o) => o.r.reqId).sort())
        expect(logs.filter((l) => l.level === 'error')).toEqual([])
        expect(svc.output().stdout).not.toContain('postgres://')
        expect(svc.output().stderr).not.toMatch(/\n\s+at /)
      } finally {
        stopLoad = true
        await Promise.all(clients)
      }
    })

    it('PostgreSQL down at the moment of a request, and idle pool clients killed: fast 503s, no crash, recovery', async () => {
      const svc = await serviceOnCluster()
      // Several idle connections in the service's pool.
      const warm = await Promise.all(Array.from({ length: 6 }, () => svc.listWallets()))
      expect(warm.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200])
      const backends = async () =>
        Number(
          (
            await sql(cluster.url, 'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
              new URL(svc.databaseUrl).pathname.slice(1),
            ])
          )[0].n,
        )
      expect(await backends()).toBeGreaterThanOrEqual(2)

      let during: Reply[] = []
      await cluster.stop() // the idle clients die: pg-pool emits 'error', which must not crash the process
      try {
        await sleep(300)
        expect(svc.child.exitCode).toBeNull()
        // Every kind of request while the server is down: a fast, clean 503 (connection refused).
        during = [await svc.createWallet('while-down'), await svc.listWallets(), await svc.createWallet('while-down-2')]
        for (const r of during) {
          expectUnavailable(r)
          expect(r.ms).toBeLessThan(2_000)
        }
        expect((await fetch(`${svc.url}/healthz`)).status).toBe(200)
      } finally {
        await cluster.start()
      }
      const tUp = Date.now()
      let r = await svc.listWallets()
      while (r.status !== 200 && Date.now() - tUp < 10_000) {
        await sleep(50)
        r = await svc.listWallets()
      }
      const recoveryMs = Date.now() - tUp
      expect(r.status).toBe(200)
      expect(recoveryMs).toBeLessThan(5_000)
      // The requests refused during the outage left nothing behind.
      expect(r.json.wallets.map((w: { walletName: string }) => w.walletName)).not.toContain('while-down')
      expect(r.json.wallets.map((w: { walletName: string }) => w.walletName)).not.toContain('while-down-2')
      const after = await svc.createWallet('after-outage')
      expect(after.status, after.text).toBe(200)

      // Idle clients killed while the server stays up (pg_terminate_backend): the pool drops them, the next request works.
      await Promise.all(Array.from({ length: 4 }, () => svc.listWallets()))
      const killed = await sql(
        cluster.url,
        'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [new URL(svc.databaseUrl).pathname.slice(1)],
      )
      expect(killed.length).toBeGreaterThanOrEqual(1)
      await sleep(200)
      expect(svc.child.exitCode).toBeNull()
      const next = await svc.createWallet('after-terminate')
      expect(next.status, next.text).toBe(200)
      console.info(
        `down at request time: 503s in ${during.map((x) => Math.round(x.ms)).join(', ')} ms; recovery ${recoveryMs} ms; ${killed.length} idle backends terminated`,
      )
      // Each refused request logged once, with its request id and the cause's code only.
      const logs = svc.logs()
      for (const r of during) {
        const lines = logs.filter((l) => l.reqId === r.reqId && l.msg === 'request failed: database unavailable')
        expect(lines).toHaveLength(1)
        expect(lines[0]).toMatchObject({ level: 'warn', errorCode: 'UNAVAILABLE', cause: 'ECONNREFUSED' })
      }
      expect(logs.filter((l) => l.level === 'error')).toEqual([])
    })
  },
)
