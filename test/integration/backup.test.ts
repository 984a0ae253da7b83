/**
 * Backups of the embedded database (`npm run backup` / `npm run restore`, src/server/backup.ts):
 * taken from a running service while it writes, restored into a fresh data dir, served again with
 * the same master key; refused without it, into a non-empty dir, and from a damaged file.
 */
import { execFile } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { gunzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { p256 } from '@noble/curves/nist.js'
import { BACKUP_PATH, backup, decodeBackup, restore } from '../../src/server/backup.js'
import { bytesToHex } from '../../src/crypto/encoding.js'
import { createApiKeyStamper } from '../../src/crypto/stamp.js'
import { resolveConfig as resolveServiceConfig } from '../../src/service/config.js'
import { startTestService } from './helpers/service.js'
import { createEthWallet, signDigest, walletNames } from './helpers/wallet.js'

const run = promisify(execFile)
const root = mkdtempSync(join(tmpdir(), 'sigil-backup-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const DIGEST = '1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8'

/** `npm run backup|restore -- <args>` as a developer runs it (the compiled tool, built by the run's global setup), for `dataDir`. */
async function runCli(mode: 'backup' | 'restore', dataDir: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stderr } = await run(process.execPath, ['--enable-source-maps', resolve('dist/backup.js'), mode, ...args], {
      env: { ...process.env, SIGIL_DATA_DIR: dataDir, ...env },
      timeout: 30_000,
    })
    return { code: 0, stderr }
  } catch (e) {
    const err = e as { code?: number; stderr?: string }
    return { code: err.code ?? -1, stderr: err.stderr ?? '' }
  }
}

describe.skipIf(!!process.env.DATABASE_URL).each(['postgres', 'pglite'] as const)(
  'backup and restore of the embedded database (%s)',
  (engine) => {
    const base = join(root, engine)
    const dirA = join(base, 'a')
    const file = join(base, 'sigil.backup')
    const cli = (mode: 'backup' | 'restore', dataDir: string, args: string[], env: Record<string, string> = {}) =>
      runCli(mode, dataDir, args, { SIGIL_DATABASE: engine, ...env })
    const resolveConfig = (env: Record<string, string | undefined>) => resolveServiceConfig({ SIGIL_DATABASE: engine, ...env })

    it('backs up a running service while it writes, restores into a fresh dir, and signs with the restored wallet', async () => {
      const a = await startTestService({ dataDir: dirA, databaseUrl: undefined, database: engine })
      const org = a.admin.organizationId
      const masterKey = readFileSync(join(dirA, 'master.key'), 'utf8').trim()
      let w: Awaited<ReturnType<typeof createEthWallet>>
      const written: string[] = []
      let backupMs = 0
      try {
        w = await createEthWallet(a.post, org, 'main')
        expect(w.status).toBe(200)
        // Writes go on, one after another, while the backup runs through the service.
        let stop = false
        const writer = (async () => {
          for (let i = 0; !stop && i < 200; i++) {
            const r = await createEthWallet(a.post, org, `during-${String(i).padStart(3, '0')}`)
            expect(r.status).toBe(200)
            written.push(`during-${String(i).padStart(3, '0')}`)
          }
        })()
        while (written.length < 2) await new Promise((r) => setTimeout(r, 10))
        const t0 = performance.now()
        const out = await cli('backup', dirA, [file])
        backupMs = performance.now() - t0
        stop = true
        await writer
        expect(out.code, out.stderr).toBe(0)
        expect(out.stderr).toMatch(/through the running service/)
        expect(out.stderr).toMatch(/master key/)
        // The route: the root organization's admin API key only.
        const stranger = createApiKeyStamper({ privateKeyHex: bytesToHex(p256.utils.randomSecretKey()) })
        const body = { timestampMs: String(Date.now()) }
        expect((await a.post(BACKUP_PATH, body, stranger)).json.details[0].reason).toBe('PERMISSION_DENIED')
        expect((await a.post(BACKUP_PATH, body, null)).status).toBe(401)
        expect((await a.post(BACKUP_PATH, { timestampMs: '1' })).json.details[0].reason).toBe('TIMESTAMP_OUT_OF_WINDOW')
        if (a.rt.db.snapshot) {
          const t1 = performance.now()
          const snap = await a.rt.db.snapshot()
          console.info(
            `snapshot inside the service (requests wait only for the checkpoint and file copy): ${(performance.now() - t1).toFixed(0)} ms, ${snap.length} bytes`,
          )
        }
      } finally {
        await a.stop()
      }

      // The file: private, well formed, without the master key.
      expect(statSync(file).mode & 0o777).toBe(0o600)
      const bytes = readFileSync(file)
      const { header, payload } = decodeBackup(bytes)
      // PGlite: its data dir (version 1); the embedded PostgreSQL: its rows (version 2).
      expect([header.database, header.version]).toEqual(engine === 'pglite' ? ['pglite', 1] : ['postgres', 2])
      const tar = gunzipSync(payload)
      expect(tar.includes(Buffer.from(masterKey))).toBe(false)
      expect(tar.includes(Buffer.from(masterKey, 'hex'))).toBe(false)
      expect(tar.includes(Buffer.from('master.key'))).toBe(false)
      expect(tar.includes(Buffer.from('admin-api-key'))).toBe(false)
      console.info(
        `backup while writing: ${bytes.length} bytes (data dir tar ${tar.length} bytes), ${backupMs.toFixed(0)} ms through the CLI; ${written.length} wallets written meanwhile`,
      )

      // Restore without the master key: the data is back, the service refuses clearly to start.
      const dirB = join(base, 'b')
      const t1 = performance.now()
      const restored = await cli('restore', dirB, [file])
      const restoreMs = performance.now() - t1
      expect(restored.code, restored.stderr).toBe(0)
      expect(restored.stderr).toMatch(new RegExp(`No master key yet.*id ${header.masterKeyId}`, 's'))
      await expect(startTestService({ dataDir: dirB, databaseUrl: undefined, database: engine })).rejects.toThrow(
        /master\.key is missing and SIGIL_MASTER_KEY is not set/,
      )
      // With a different master key: refused too, naming the mismatch.
      await expect(
        startTestService({ dataDir: dirB, databaseUrl: undefined, database: engine, masterKeyHex: 'ab'.repeat(32) }),
      ).rejects.toThrow(/another master key/)

      // With the backed-up service's master key (here as SIGIL_MASTER_KEY): everything is there.
      const b = await startTestService({ dataDir: dirB, databaseUrl: undefined, database: engine, masterKeyHex: masterKey })
      try {
        expect(b.admin.organizationId).toBe(org)
        const names = await walletNames(b.post, org)
        const during = names.filter((n) => n.startsWith('during-'))
        // Consistent: the wallets of the snapshot are exactly the first k the writer made, each complete.
        expect(names).toContain('main')
        expect(during).toEqual(written.slice(0, during.length))
        expect(during.length).toBeGreaterThanOrEqual(2)
        const acts = await b.post('/public/v1/query/list_activities', {
          organizationId: org,
          filterByType: ['ACTIVITY_TYPE_CREATE_WALLET'],
          paginationOptions: { limit: '100' },
        })
        const statuses = acts.json.activities.map((x: any) => x.status)
        expect(statuses).toEqual(Array(Math.min(during.length + 1, 100)).fill('ACTIVITY_STATUS_COMPLETED'))
        const signed = await signDigest(b.post, org, w.address!, DIGEST)
        expect(signed.status, JSON.stringify(signed.json)).toBe(200)
        expect(signed.signer?.toLowerCase()).toBe(w.address!.toLowerCase())
        console.info(
          `restore: ${restoreMs.toFixed(0)} ms through the CLI; ${during.length} of ${written.length} concurrent wallets in the snapshot`,
        )
      } finally {
        await b.stop()
      }
    }, 60_000)

    it('refuses a non-empty data dir, a master key of another service, and a corrupt or truncated file', async () => {
      const config = (dataDir: string, masterKeyHex?: string) =>
        resolveConfig({ SIGIL_DATA_DIR: dataDir, ...(masterKeyHex ? { SIGIL_MASTER_KEY: masterKeyHex } : {}) })
      // dirA still holds its database
      await expect(restore(config(dirA), file)).rejects.toThrow(/is not empty.*--force/)
      const nonEmpty = await cli('restore', dirA, [file])
      expect(nonEmpty.code).toBe(1)
      expect(nonEmpty.stderr).toMatch(/^restore: .* is not empty/m)
      await expect(restore(config(join(base, 'c'), 'cd'.repeat(32)), file)).rejects.toThrow(/is not the one this backup needs/)

      const bytes = readFileSync(file)
      const truncated = join(base, 'truncated.backup')
      writeFileSync(truncated, bytes.subarray(0, bytes.length - 1000))
      await expect(restore(config(join(base, 'd')), truncated)).rejects.toThrow(/backup is truncated: \d+ of \d+ bytes/)
      const flipped = Buffer.from(bytes)
      flipped[flipped.length - 5000]! ^= 0xff
      const corrupt = join(base, 'corrupt.backup')
      writeFileSync(corrupt, flipped)
      const r = await cli('restore', join(base, 'e'), [corrupt])
      expect(r.code).toBe(1)
      expect(r.stderr).toMatch(/^restore: backup is corrupt: checksum mismatch$/m)
      writeFileSync(corrupt, 'hello')
      await expect(restore(config(join(base, 'f')), corrupt)).rejects.toThrow(/not a Sigil backup/)
    }, 60_000)

    it('backs up a stopped service from its data dir; --force replaces a database; the service starts on it', async () => {
      const direct = join(base, 'direct.backup')
      const t0 = performance.now()
      const r = await backup(resolveConfig({ SIGIL_DATA_DIR: dirA }), direct)
      expect(r.via).toBe('data dir')
      console.info(`backup of a stopped data dir: ${r.bytes} bytes, ${(performance.now() - t0).toFixed(0)} ms`)
      const dirB = join(base, 'b')
      copyFileSync(join(dirA, 'master.key'), join(dirB, 'master.key'))
      await restore(resolveConfig({ SIGIL_DATA_DIR: dirB }), direct, { force: true })
      const b = await startTestService({ dataDir: dirB, databaseUrl: undefined, database: engine })
      try {
        expect(await walletNames(b.post, b.admin.organizationId)).toContain('main')
      } finally {
        await b.stop()
      }
    }, 60_000)
  },
)
