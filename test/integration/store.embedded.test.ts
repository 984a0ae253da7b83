/**
 * The default database: a PostgreSQL server the service runs from node_modules in its
 * data dir — created on first start, reachable on 127.0.0.1 with the generated password only,
 * stopped cleanly, found and stopped when a killed service left it running, and taking over the
 * PGlite database of an earlier release's data dir.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { copyDatabase } from '../../src/service/store/copy.js'
import { clusterDir, migratedPgliteDir, passwordPath, pgliteDir } from '../../src/service/store/dataDir.js'
import { embeddedBinaries, startEmbeddedPostgres } from '../../src/service/store/embeddedPostgres.js'
import { migrate } from '../../src/service/store/migrate.js'
import { openPglite } from '../../src/service/store/pglite.js'
import { openPostgres } from '../../src/service/store/postgres.js'
import { COMPILED_SERVICE, freePort, spawnService, waitExit } from './helpers/process.js'
import { startTestService, submitBody } from './helpers/service.js'
import { createEthWallet } from './helpers/wallet.js'

const dirs: string[] = []
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'sigil-embedded-'))
  dirs.push(d)
  return d
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** True when every directory above `path` lets others enter it (mode o+x), up to the root. */
function othersCanEnterAbove(path: string): boolean {
  for (let dir = dirname(resolve(path)); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false
    if (dir === dirname(dir)) return true
  }
}

/**
 * How a service running as root runs a new cluster in `dataDir`, as the code promises for this machine
 * (RunAs in embeddedPostgres.ts): as the postgres system user when that user can reach both the data
 * dir and the PostgreSQL binaries in node_modules, else in a user namespace. Where the project is
 * cloned decides: under a 0700 directory (`mktemp -d`, /root) the binaries are out of the user's reach.
 */
async function expectedRunAsRoot(dataDir: string): Promise<'user' | 'userns'> {
  const { postgres } = await embeddedBinaries()
  return othersCanEnterAbove(dataDir) && othersCanEnterAbove(postgres) ? 'user' : 'userns'
}

async function query<T = Record<string, unknown>>(url: string, sql: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    return (await c.query(sql)).rows as T[]
  } finally {
    await c.end()
  }
}

describe.skipIf(!!process.env.DATABASE_URL || process.env.SIGIL_DATABASE === 'pglite')('the embedded PostgreSQL', () => {
  it('creates its cluster on first start: 127.0.0.1 only, no Unix socket, durable, a generated password; data survives a restart', async () => {
    const dir = tempDir()
    const first = await startEmbeddedPostgres(dir)
    try {
      expect(first.created).toBe(true)
      expect(statSync(passwordPath(dir)).mode & 0o777).toBe(0o600)
      expect(readFileSync(passwordPath(dir), 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/)
      const settings = await query<{ name: string; setting: string }>(
        first.url,
        "SELECT name, setting FROM pg_settings WHERE name IN ('listen_addresses', 'unix_socket_directories', 'fsync', 'synchronous_commit', 'full_page_writes', 'password_encryption') ORDER BY name",
      )
      expect(Object.fromEntries(settings.map((s) => [s.name, s.setting]))).toEqual({
        fsync: 'on',
        full_page_writes: 'on',
        listen_addresses: '127.0.0.1',
        password_encryption: 'scram-sha-256',
        synchronous_commit: 'on',
        unix_socket_directories: '',
      })
      // Only the password gets in.
      const wrong = new URL(first.url)
      wrong.password = 'not-the-password'
      await expect(query(wrong.toString(), 'SELECT 1')).rejects.toMatchObject({ code: '28P01' })
      if (process.getuid?.() === 0 && (await expectedRunAsRoot(dir)) === 'user') {
        // PostgreSQL refuses root: the server runs as the postgres system user (the temp dir lets others
        // in, and so does every directory above the project's node_modules).
        expect(first.runAs).toBe('user')
        const uid = Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${first.pid}/status`, 'utf8'))?.[1])
        expect(uid).not.toBe(0)
        expect(statSync(clusterDir(dir)).uid).toBe(uid)
      } else if (process.getuid?.() === 0) {
        // A project the postgres user cannot reach (cloned under a 0700 directory): a user namespace,
        // the cluster's files staying root's.
        expect(first.runAs).toBe('userns')
        expect(statSync(clusterDir(dir)).uid).toBe(0)
      }
      // Nothing of the service's environment reaches the server (a master key set there, say).
      const environ = readFileSync(`/proc/${first.pid}/environ`, 'utf8').split('\0').filter(Boolean)
      expect(environ.map((e) => e.split('=')[0]).sort()).toEqual(['LC_ALL', 'PATH'])
      await query(first.url, 'CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$committed$$)')
    } finally {
      await first.stop()
    }
    expect(alive(first.pid)).toBe(false)
    expect(existsSync(join(clusterDir(dir), 'postmaster.pid'))).toBe(false)

    const second = await startEmbeddedPostgres(dir)
    try {
      expect(second.created).toBe(false)
      expect(second.orphanStopped).toBeUndefined()
      expect(second.port).not.toBe(0)
      expect(await query(second.url, 'SELECT v FROM kept')).toEqual([{ v: 'committed' }])
    } finally {
      await second.stop()
    }
  })

  it.runIf(process.getuid?.() === 0)(
    'as root, where the postgres user cannot reach the data dir: runs the server in a user namespace, changing no mode',
    async () => {
      const parent = tempDir() // mode 0700: others cannot enter
      const dataDir = join(parent, 'data')
      const cluster = await startEmbeddedPostgres(dataDir)
      try {
        expect(cluster.runAs).toBe('userns')
        expect(statSync(parent).mode & 0o777).toBe(0o700)
        expect(statSync(clusterDir(dataDir)).uid).toBe(0)
        expect(await query(cluster.url, 'SELECT current_user AS u')).toEqual([{ u: 'sigil' }])
      } finally {
        await cluster.stop()
      }
      expect(alive(cluster.pid)).toBe(false)
      // The next start finds the cluster made that way and runs it the same way.
      const again = await startEmbeddedPostgres(dataDir)
      try {
        expect(again.runAs).toBe('userns')
      } finally {
        await again.stop()
      }
    },
  )

  it('stops the server a killed (-9) owner left running, then starts on the same data', async () => {
    const dir = tempDir()
    const module = resolve('src/service/store/embeddedPostgres.ts')
    const script = `import { startEmbeddedPostgres } from ${JSON.stringify(module)}
const c = await startEmbeddedPostgres(${JSON.stringify(dir)})
const pg = (await import('pg')).default
const client = new pg.Client({ connectionString: c.url })
await client.connect()
await client.query("CREATE TABLE t (v text); INSERT INTO t VALUES ('before the kill')")
console.log(String(c.pid))
setInterval(() => {}, 1000)`
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const orphan = await new Promise<number>((ok, fail) => {
      child.stdout.once('data', (d) => ok(Number(String(d).trim())))
      child.once('exit', (code) => fail(new Error(`child exited ${code}`)))
    })
    child.kill('SIGKILL')
    await new Promise((r) => child.once('exit', r))
    expect(alive(orphan)).toBe(true) // the postmaster outlives its owner

    const next = await startEmbeddedPostgres(dir)
    try {
      expect(next.orphanStopped).toBe(orphan)
      expect(alive(orphan)).toBe(false)
      expect(next.pid).not.toBe(orphan)
      expect(await query(next.url, 'SELECT v FROM t')).toEqual([{ v: 'before the kill' }])
    } finally {
      await next.stop()
    }
  })

  it("moves an earlier release's PGlite data dir into the embedded PostgreSQL on first start: every activity, the wallets and the master key", async () => {
    const dataDir = tempDir()
    // The earlier release: PGlite in <dataDir>/pgdata.
    const old = await startTestService({ dataDir, databaseUrl: undefined, database: 'pglite' })
    const orgId = old.admin.organizationId
    const address = (await createEthWallet(old.post, orgId, 'moved')).address as string
    const signBody = (payload: string) =>
      submitBody('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', orgId, {
        signWith: address,
        payload,
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_KECCAK256',
      })
    const signedBefore = await old.post('/public/v1/submit/sign_raw_payload', signBody('0x01'))
    expect(signedBefore.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const list = async (svc: typeof old) =>
      (
        await svc.post('/public/v1/query/list_activities', { organizationId: orgId, paginationOptions: { limit: '100' } })
      ).json.activities.map((a: any) => ({ id: a.id, type: a.type, status: a.status, result: a.result }))
    const activitiesBefore = await list(old)
    expect(activitiesBefore.length).toBeGreaterThanOrEqual(2)
    await old.close()

    // This release: the default engine finds pgdata/ and takes it over.
    const now = await startTestService({ dataDir, databaseUrl: undefined, database: 'postgres' })
    try {
      expect(now.rt.db.kind).toBe('postgres')
      expect(existsSync(pgliteDir(dataDir))).toBe(false)
      expect(existsSync(join(migratedPgliteDir(dataDir), 'PG_VERSION'))).toBe(true)
      expect(now.admin).toEqual(old.admin)
      expect(await list(now)).toEqual(activitiesBefore)
      // The sealed wallet opens with the same master key and signs the same way.
      const again = await now.post('/public/v1/submit/sign_raw_payload', signBody('0x01'))
      expect(again.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
      expect(again.json.activity.result.signRawPayloadResult).toEqual(signedBefore.json.activity.result.signRawPayloadResult)
      // Sequences continue after the copied rows: a new wallet gets created, not a duplicate key.
      const second = await now.post(
        '/public/v1/submit/create_wallet',
        submitBody('ACTIVITY_TYPE_CREATE_WALLET', orgId, {
          walletName: 'after the move',
          accounts: [
            { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' },
          ],
        }),
      )
      expect(second.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
      const wallets = await now.post('/public/v1/query/list_wallets', { organizationId: orgId })
      expect(wallets.json.wallets.map((w: any) => w.walletName).sort()).toEqual(['after the move', 'moved'])
    } finally {
      await now.close()
    }
    // PGlite is not started beside it (an empty second database): refused, naming the way back.
    await expect(startTestService({ dataDir, databaseUrl: undefined, database: 'pglite' })).rejects.toThrow(
      /holds the embedded PostgreSQL's database \(postgres\/\), not PGlite's/,
    )
    expect(existsSync(pgliteDir(dataDir))).toBe(false)
    // Once moved, a restart does not move anything again.
    const restarted = await startTestService({ dataDir, databaseUrl: undefined, database: 'postgres' })
    try {
      expect((await list(restarted)).length).toBe(activitiesBefore.length + 2) // the sign and the wallet above
    } finally {
      await restarted.close()
    }
  })

  it('starts its server again when it dies under a running service (kill -9): 503 meanwhile, then every committed row', async () => {
    const svc = await startTestService({ databaseUrl: undefined, database: 'postgres' })
    try {
      const orgId = svc.admin.organizationId
      const create = (name: string) => createEthWallet(svc.post, orgId, name)
      expect((await create('before')).status).toBe(200)
      const postmaster = Number(readFileSync(join(clusterDir(svc.dataDir), 'postmaster.pid'), 'utf8').split('\n')[0])
      process.kill(postmaster, 'SIGKILL')
      const killedAt = Date.now()
      const statuses: number[] = []
      const deadline = Date.now() + 30_000
      let back = false
      while (!back && Date.now() < deadline) {
        const r = await svc.post('/public/v1/query/list_wallets', { organizationId: orgId })
        statuses.push(r.status)
        back = r.status === 200
        if (!back) await new Promise((ok) => setTimeout(ok, 100))
      }
      expect(back).toBe(true)
      console.info(
        `embedded PostgreSQL killed: serving again after ${Date.now() - killedAt} ms (${statuses.length - 1} requests answered 503 meanwhile)`,
      )
      expect(new Set(statuses.slice(0, -1))).toEqual(new Set(statuses.length > 1 ? [503] : []))
      const after = Number(readFileSync(join(clusterDir(svc.dataDir), 'postmaster.pid'), 'utf8').split('\n')[0])
      expect(after).not.toBe(postmaster)
      expect((await create('after')).status).toBe(200)
      const wallets = await svc.post('/public/v1/query/list_wallets', { organizationId: orgId })
      expect(wallets.json.wallets.map((w: any) => w.walletName).sort()).toEqual(['after', 'before'])
    } finally {
      await svc.stop()
    }
  })

  it('copies nothing into a database that already holds data', async () => {
    const dir = tempDir()
    const cluster = await startEmbeddedPostgres(dir)
    const target = await openPostgres(cluster.url)
    const source = await openPglite(tempDir())
    try {
      await migrate(target)
      await target.query('CREATE TABLE zz_probe (v text)')
      await target.query("INSERT INTO zz_probe VALUES ('mine')")
      await expect(copyDatabase(source, target)).rejects.toThrow(/already holds data/)
      expect(await target.query('SELECT v FROM zz_probe')).toEqual([{ v: 'mine' }])
    } finally {
      await source.close()
      await target.close()
      await cluster.stop()
    }
  })

  it('npm run service: the database starts before the rest loads; one that cannot start ends the process with its reason, nothing left running', async () => {
    const dir = tempDir()
    const started = await spawnService({ SIGIL_DATA_DIR: dir })
    const postmaster = Number(readFileSync(join(clusterDir(dir), 'postmaster.pid'), 'utf8').split('\n')[0])
    expect(alive(postmaster)).toBe(true)
    started.child.kill('SIGTERM')
    expect(await waitExit(started.child)).toBe(0)
    expect(alive(postmaster)).toBe(false)
    // A password file the service did not write: the early start fails, and the process says why.
    writeFileSync(passwordPath(dir), 'not-a-password\n', { mode: 0o600 })
    const child = spawn(process.execPath, [COMPILED_SERVICE], {
      env: { ...process.env, SIGIL_DATA_DIR: dir, SIGIL_PORT: String(await freePort()), SIGIL_LOG: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += String(d)))
    expect(await waitExit(child)).not.toBe(0)
    expect(stderr).toMatch(/postgres\.password is not a password this service wrote/)
    expect(stderr).not.toMatch(/Unhandled|ready at/)
    expect(existsSync(join(clusterDir(dir), 'postmaster.pid'))).toBe(false)
  }, 60_000)
})

describe('loading a dump', () => {
  it('loads all or nothing: a table whose count does not match rolls every row back', async () => {
    const { gunzipSync, gzipSync } = await import('node:zlib')
    const { dumpToBytes, loadDumpBytes } = await import('../../src/service/store/dumpFile.js')
    const { isEmpty } = await import('../../src/service/store/copy.js')
    const { bootstrap } = await import('../../src/service/bootstrap.js')
    const sourceDir = tempDir()
    const source = await openPglite(sourceDir)
    const target = await openPglite(tempDir())
    try {
      await migrate(source)
      await bootstrap(source, sourceDir, Date.now())
      const { bytes, report } = await dumpToBytes(source)
      expect(report.byTable.organizations).toBe(1)
      const text = gunzipSync(bytes).toString('utf8')
      const lying = text.replace(/^E\torganizations\t1$/m, 'E\torganizations\t2')
      expect(lying).not.toBe(text)
      await expect(loadDumpBytes(target, new Uint8Array(gzipSync(lying)))).rejects.toThrow(
        /table organizations: the dump says 2 rows, 1 arrived/,
      )
      expect(await isEmpty(target)).toBe(true)
      const older = text.replace(/^\{"kind":"schema","version":\d+\}$/m, '{"kind":"schema","version":1}')
      await expect(loadDumpBytes(target, new Uint8Array(gzipSync(older)))).rejects.toThrow(/the dump is of schema version 1/)
      // The untouched dump loads, every table's count equal.
      expect((await loadDumpBytes(target, bytes)).byTable).toEqual(report.byTable)
    } finally {
      await source.close()
      await target.close()
    }
  })
})
