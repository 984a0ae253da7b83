/**
 * PGlite when its data dir stops taking writes: disk full, then read-only.
 *
 * Mechanism: the data dir lives on a tmpfs of its own (`mount -t tmpfs -o size=128m`), which needs
 * CAP_SYS_ADMIN (the tests run as root; chmod would not stop root). The suite is skipped, saying
 * so, when mount is not permitted. Disk full: a filler file takes every free byte of the tmpfs
 * (real ENOSPC from the kernel). PGlite cannot survive failing to create a WAL segment (it spins
 * forever inside WebAssembly, blocking the process), so the driver keeps a reserve of free space and
 * refuses calls below it; the third case opens the driver with no reserve so that PostgreSQL itself
 * meets ENOSPC (a data file it cannot extend) and the instance is retired and reopened in-process.
 * Read-only: `mount -o remount,ro` (and a read-only bind remount) is refused with EBUSY while
 * PGlite holds files open for writing. Mid-run, `chattr +i` (tmpfs supports it) is what is real
 * here: on the whole data dir it changes nothing (files already open stay writable), on `pg_wal`
 * the next WAL segment cannot be created (EPERM), which wedges PGlite as ENOSPC does; the driver
 * probes `pg_wal` and refuses first. At start: the service on a data dir remounted read-only.
 *
 * What is checked: every write during the failure answers 503 with the A3 body (gRPC 14
 * UNAVAILABLE, reason UNAVAILABLE, no stack), the process stays responsive, nothing
 * committed before is lost, no failed activity is half-applied, and once space returns the same
 * process serves writes again (the database is reopened in-process; crash recovery keeps exactly
 * the committed transactions).
 */
import { execFileSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { randomBytes } from 'node:crypto'
import { DatabaseUnavailableError } from '../../src/service/store/sql.js'
import { openPglite } from '../../src/service/store/pglite.js'
import { startTestService, type TestService } from './helpers/service.js'
import { createEthWallet, signDigest, walletNames } from './helpers/wallet.js'

const mnt = mkdtempSync(join(tmpdir(), 'sigil-storage-'))
let mounted = false
try {
  if (!process.env.DATABASE_URL) {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=128m', 'tmpfs', mnt], { stdio: 'pipe' })
    mounted = true
  }
} catch (e) {
  console.warn(`service.storage.test: skipped, mounting a tmpfs is not permitted here (${(e as Error).message.split('\n')[0]})`)
}
if (process.env.DATABASE_URL) console.warn('service.storage.test: skipped, it is about the embedded database (DATABASE_URL is set)')

function unmount() {
  if (!mounted) return
  try {
    execFileSync('chattr', ['-R', '-i', mnt], { stdio: 'pipe' })
  } catch {
    // nothing immutable, or chattr unsupported
  }
  try {
    execFileSync('umount', [mnt], { stdio: 'pipe' })
  } catch {
    // files of an abandoned PGlite instance are still open: detach now, freed when closed
    execFileSync('umount', ['-l', mnt], { stdio: 'pipe' })
  }
  mounted = false
}

/** Writes zeros until the file system is full; returns the bytes written. */
function fill(file: string): number {
  const fd = openSync(file, 'w')
  let total = 0
  try {
    for (const size of [1 << 20, 4096, 1]) {
      const chunk = Buffer.alloc(size)
      try {
        for (;;) total += writeSync(fd, chunk)
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e
      }
    }
  } finally {
    closeSync(fd)
  }
  return total
}

const DIGEST = 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470'

function expectUnavailable(r: { status: number; json: any }, text: RegExp) {
  expect(r.status, JSON.stringify(r.json)).toBe(503)
  expect(r.json.code).toBe(14)
  expect(r.json.message).toMatch(text)
  expect(r.json.message).not.toMatch(/\n\s+at /)
  expect(r.json.details).toContainEqual({ '@type': 'type.googleapis.com/sigil.ErrorInfo', reason: 'UNAVAILABLE' })
  expect(Object.keys(r.json).sort()).toEqual(['code', 'details', 'message'])
}

describe.runIf(mounted)('PGlite data dir full or read-only', () => {
  const dataDir = join(mnt, 'data')
  let svc: TestService | undefined
  beforeAll(async () => {
    svc = await startTestService({ dataDir, databaseUrl: undefined, database: 'pglite' })
  })
  afterAll(async () => {
    await svc?.close().catch(() => {})
    unmount()
    rmSync(mnt, { recursive: true, force: true })
  })

  it('answers 503 UNAVAILABLE while the disk is full, loses nothing, and serves again on the same process once space returns', async () => {
    const s = svc!
    const org = s.admin.organizationId
    const before = await createEthWallet(s.post, org, 'before')
    expect(before.status).toBe(200)
    const signedBefore = await signDigest(s.post, org, before.address!, DIGEST)
    expect(signedBefore.signer?.toLowerCase()).toBe(before.address!.toLowerCase())

    const filler = join(mnt, 'filler')
    const filled = fill(filler)
    expect(filled).toBeGreaterThan(0)
    // Past the driver's 200 ms check interval: the service's own background work (the send
    // tracker polls) may have just run the check before the disk filled.
    await new Promise((r) => setTimeout(r, 250))

    // The next write meets the full disk.
    const started = performance.now()
    const failed = await createEthWallet(s.post, org, 'during')
    expectUnavailable(failed, /no space left on device/)
    const firstMs = performance.now() - started

    // Still full: reads and writes answer 503 at once; the process stays responsive.
    const t0 = performance.now()
    expectUnavailable(await createEthWallet(s.post, org, 'while-full'), /no space left on device/)
    expectUnavailable(await s.post('/public/v1/query/list_wallets', { organizationId: org }), /no space left on device/)
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200)
    await new Promise((r) => setTimeout(r, 1100)) // past the retry interval: a reopen is attempted and refused
    expectUnavailable(await signDigest(s.post, org, before.address!, DIGEST), /no space left on device/)
    expect(performance.now() - t0).toBeLessThan(5000)

    rmSync(filler)
    await new Promise((r) => setTimeout(r, 1100))
    const recoveredAt = performance.now()
    const after = await createEthWallet(s.post, org, 'after')
    expect(after.status, JSON.stringify(after.json)).toBe(200)
    console.info(
      `disk full: filler ${(filled / 2 ** 20).toFixed(1)} MiB, first 503 in ${firstMs.toFixed(0)} ms; ` +
        `first write after space returned ${(performance.now() - recoveredAt).toFixed(0)} ms`,
    )
    // Everything committed before is there and usable; the refused writes left nothing.
    expect(await walletNames(s.post, org)).toEqual(['after', 'before'])
    const signedAfter = await signDigest(s.post, org, before.address!, DIGEST)
    expect(signedAfter.signer?.toLowerCase()).toBe(before.address!.toLowerCase())
    const acts = await s.post('/public/v1/query/list_activities', {
      organizationId: org,
      filterByType: ['ACTIVITY_TYPE_CREATE_WALLET'],
    })
    expect(acts.json.activities.filter((a: any) => a.status !== 'ACTIVITY_STATUS_COMPLETED')).toEqual([])
    expect(acts.json.activities).toHaveLength(2)
  }, 60_000)

  it('answers 503 while the data dir refuses new files (chattr +i on pg_wal), and serves again once it takes them', async () => {
    const s = svc!
    const org = s.admin.organizationId
    const wal = join(dataDir, 'pgdata', 'pg_wal')
    execFileSync('chattr', ['+i', wal])
    try {
      await new Promise((r) => setTimeout(r, 250)) // past the driver's 200 ms check interval
      expectUnavailable(await createEthWallet(s.post, org, 'immutable'), /does not accept new files.*read-only or immutable/)
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200)
    } finally {
      execFileSync('chattr', ['-i', wal])
    }
    await new Promise((r) => setTimeout(r, 250))
    expect((await createEthWallet(s.post, org, 'writable')).status).toBe(200)
    expect(await walletNames(s.post, org)).toEqual(['after', 'before', 'writable'])
  }, 60_000)

  it('refuses to start clearly on a read-only data dir, and starts once it is writable again', async () => {
    await svc!.close()
    svc = undefined
    unmount() // the abandoned instance's files go with the lazy unmount
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=128m', 'tmpfs', mnt], { stdio: 'pipe' })
    mounted = true
    // A fresh service on the new tmpfs, one wallet, stopped cleanly; then the file system goes read-only.
    let s = await startTestService({ dataDir, databaseUrl: undefined, database: 'pglite' })
    const org = s.admin.organizationId
    const w = await createEthWallet(s.post, org, 'kept')
    expect(w.status).toBe(200)
    await s.close()
    execFileSync('mount', ['-o', 'remount,ro', mnt], { stdio: 'pipe' })
    try {
      const t0 = performance.now()
      await expect(startTestService({ dataDir, databaseUrl: undefined, database: 'pglite' })).rejects.toThrow(
        /does not accept writes.*read-only/,
      )
      console.info(`read-only start refused in ${(performance.now() - t0).toFixed(0)} ms`)
    } finally {
      execFileSync('mount', ['-o', 'remount,rw', mnt], { stdio: 'pipe' })
    }
    s = await startTestService({ dataDir, databaseUrl: undefined, database: 'pglite' })
    svc = s
    expect(await walletNames(s.post, org)).toEqual(['kept'])
    const signed = await signDigest(s.post, org, w.address!, DIGEST)
    expect(signed.signer?.toLowerCase()).toBe(w.address!.toLowerCase())
  }, 60_000)

  it('retires the PGlite instance on ENOSPC from PostgreSQL itself and reopens it in-process once space returns', async () => {
    await svc?.close()
    svc = undefined
    const dir = join(mnt, 'raw')
    const db = await openPglite(dir, { minFreeBytes: 0, retryIntervalMs: 100 })
    try {
      await db.exec('CREATE TABLE t (id serial PRIMARY KEY, v text)')
      await db.query('INSERT INTO t (v) VALUES ($1)', ['committed'])
      const filler = join(mnt, 'filler')
      fill(filler)
      // 1 MiB of incompressible text: the table must grow, and cannot.
      const big = randomBytes(1 << 20).toString('base64')
      const err = await db
        .transaction(async (tx) => {
          await tx.query('INSERT INTO t (v) VALUES ($1)', ['half'])
          await tx.query('INSERT INTO t (v) VALUES ($1)', [big])
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        )
      expect(err).toBeInstanceOf(DatabaseUnavailableError)
      expect((err as DatabaseUnavailableError).reason).toBe('disk_full')
      // Retired: refused at once, never reaching the broken instance.
      await expect(db.query('SELECT count(*) FROM t')).rejects.toBeInstanceOf(DatabaseUnavailableError)
      rmSync(filler)
      await new Promise((r) => setTimeout(r, 150))
      const t0 = performance.now()
      const rows = await db.query<{ v: string }>('SELECT v FROM t ORDER BY id')
      console.info(`reopened in-process after ENOSPC in ${(performance.now() - t0).toFixed(0)} ms`)
      expect(rows.map((r) => r.v)).toEqual(['committed'])
      await db.query('INSERT INTO t (v) VALUES ($1)', ['after'])
      expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM t'))[0]!.n).toBe(2)
    } finally {
      await db.close()
    }
  }, 60_000)
})
