/**
 * Backups of the embedded database (`npm run backup`, `npm run restore`).
 *
 * While the service runs, only it may open the data dir's database. So:
 * - the service writes `<dataDir>/service.json` (its pid and URL) while it runs, and serves
 *   `POST /admin/v1/backup` on loopback, stamped (X-Stamp) by the root organization's admin API key;
 * - when no live service owns the data dir, the backup opens the database directly.
 *
 * A backup file: the line `SIGIL-BACKUP 1`, one line of JSON (the header: what, when, the master key
 * id, the payload's length and SHA-256), then the payload:
 * - version 2, database `postgres` (the embedded PostgreSQL, the default): every row, as the gzipped
 *   dump of `src/service/store/dumpFile.ts`, read from one snapshot while writes go on; it restores
 *   into either engine;
 * - version 1, database `pglite` (`SIGIL_DATABASE=pglite`, and files of earlier releases): PGlite's
 *   data dir as a gzipped tar, taken while no transaction runs, after a checkpoint (`Database.snapshot`);
 *   restored as a PGlite data dir, which the embedded PostgreSQL takes over on its first start.
 * It holds no master key and no admin key file: sealed keys in it open only with the master key of
 * the service it was taken from (`<dataDir>/master.key` or SIGIL_MASTER_KEY), kept apart from it.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, chmodSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { z } from 'zod'
import { SigilError } from '../api/errors.js'
import { createApiKeyStamper } from '../crypto/stamp.js'
import { stampSignatureCheck } from '../service/auth/authenticate.js'
import { AdminKeyFile, adminKeyPath } from '../service/bootstrap.js'
import type { ServiceConfig } from '../service/config.js'
import type { ServiceApp } from '../service/http/app.js'
import { isLoopbackAddress } from '../service/net/address.js'
import type { Runtime } from '../service/runtime.js'
import { loadDumpBytes, dumpToBytes } from '../service/store/dumpFile.js'
import { clusterDir, databasesIn, logPath, migratedPgliteDir, passwordPath, pgliteDir } from '../service/store/dataDir.js'
import { openEmbeddedPostgres } from '../service/store/embedded.js'
import { letServerEnter } from '../service/store/embeddedPostgres.js'
import { openPglite } from '../service/store/pglite.js'
import type { Database } from '../service/store/sql.js'

const MAGIC = 'SIGIL-BACKUP 1'
export const BACKUP_PATH = '/admin/v1/backup'

const Header = z.object({
  format: z.literal('sigil-backup'),
  version: z.union([z.literal(1), z.literal(2)]),
  database: z.enum(['pglite', 'postgres']),
  createdAt: z.string(),
  /** Names the master key the sealed secrets need (a hash of it, not the key). */
  masterKeyId: z.string().nullable(),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
})
export type BackupHeader = z.infer<typeof Header>

/** A failure the backup scripts report as one clear line. */
export class BackupError extends Error {
  override name = 'BackupError'
}

/** `<dataDir>/service.json`: which process serves this data dir, and where. */
export const serviceFilePath = (dataDir: string) => join(dataDir, 'service.json')
const ServiceFile = z.object({ pid: z.number().int(), url: z.string().url() })

/** A name for a master key that reveals nothing of it. */
export function masterKeyId(key: Uint8Array): string {
  return createHash('sha256').update('sigil master key id\0').update(key).digest('hex').slice(0, 16)
}

/** The master key as the service would read it, without creating one; undefined when there is none. */
export function findMasterKey(config: Pick<ServiceConfig, 'masterKeyHex' | 'dataDir'>): Uint8Array | undefined {
  if (config.masterKeyHex) return Uint8Array.from(Buffer.from(config.masterKeyHex, 'hex'))
  const file = join(config.dataDir, 'master.key')
  if (!existsSync(file)) return undefined
  const hex = readFileSync(file, 'utf8').trim()
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new BackupError(`master key file ${file} is malformed`)
  return Uint8Array.from(Buffer.from(hex, 'hex'))
}

/** What a payload is: a PGlite data dir (tar, version 1) or a dump of rows (version 2). */
export type PayloadKind = 'pglite' | 'postgres'

/** Serializes a payload with its header. */
export function encodeBackup(
  payload: Uint8Array,
  masterKey: Uint8Array | undefined,
  now = new Date(),
  kind: PayloadKind = 'pglite',
): Uint8Array<ArrayBuffer> {
  const header: BackupHeader = {
    format: 'sigil-backup',
    version: kind === 'pglite' ? 1 : 2,
    database: kind,
    createdAt: now.toISOString(),
    masterKeyId: masterKey ? masterKeyId(masterKey) : null,
    bytes: payload.length,
    sha256: createHash('sha256').update(payload).digest('hex'),
  }
  return new Uint8Array(Buffer.concat([Buffer.from(`${MAGIC}\n${JSON.stringify(header)}\n`), payload]))
}

/** Parses and checks a backup file's bytes: header, length, checksum. */
export function decodeBackup(file: Uint8Array): { header: BackupHeader; payload: Uint8Array<ArrayBuffer> } {
  const buf = Buffer.from(file.buffer, file.byteOffset, file.byteLength)
  const first = buf.indexOf(0x0a)
  if (first < 0 || buf.subarray(0, first).toString('latin1') !== MAGIC) {
    throw new BackupError(`not a Sigil backup (expected it to start with "${MAGIC}")`)
  }
  const second = buf.indexOf(0x0a, first + 1)
  if (second < 0) throw new BackupError('backup is truncated: its header is incomplete')
  let header: BackupHeader
  try {
    header = Header.parse(JSON.parse(buf.subarray(first + 1, second).toString('utf8')))
  } catch {
    throw new BackupError('backup header is corrupt')
  }
  const payload = buf.subarray(second + 1)
  if (payload.length < header.bytes) {
    throw new BackupError(`backup is truncated: ${payload.length} of ${header.bytes} bytes of data`)
  }
  if (payload.length > header.bytes) throw new BackupError('backup is corrupt: data after its end')
  if ((header.version === 1) !== (header.database === 'pglite')) throw new BackupError('backup header is corrupt')
  if (createHash('sha256').update(payload).digest('hex') !== header.sha256) {
    throw new BackupError('backup is corrupt: checksum mismatch')
  }
  return { header, payload: new Uint8Array(payload) }
}

/** The URL of the live service owning this data dir, if any (its `service.json` names a live process). */
export function liveService(dataDir: string): string | undefined {
  const file = serviceFilePath(dataDir)
  if (!existsSync(file)) return undefined
  let s: z.infer<typeof ServiceFile>
  try {
    s = ServiceFile.parse(JSON.parse(readFileSync(file, 'utf8')))
  } catch {
    return undefined
  }
  try {
    process.kill(s.pid, 0)
    return s.url
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM' ? s.url : undefined
  }
}

/** Records that this process serves the data dir; returns the function that removes the record. */
export function writeServiceFile(dataDir: string, url: string): () => void {
  const file = serviceFilePath(dataDir)
  writeFileSync(file, `${JSON.stringify({ pid: process.pid, url })}\n`, { mode: 0o600 })
  return () => {
    try {
      const s = ServiceFile.parse(JSON.parse(readFileSync(file, 'utf8')))
      if (s.pid === process.pid) rmSync(file, { force: true })
    } catch {
      // gone or replaced
    }
  }
}

/**
 * `POST /admin/v1/backup`: the backup file of the running service's database. Loopback only, stamped by
 * the root organization's admin API key (the key in `<dataDir>/admin-api-key.json`, still registered),
 * body `{"timestampMs": "<now>"}` within the timestamp window, each signed body served once.
 */
export function mountBackup(app: ServiceApp, rt: Runtime): void {
  app.post(BACKUP_PATH, async (c) => {
    const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming
    if (!isLoopbackAddress(incoming?.socket?.remoteAddress))
      throw new SigilError('PERMISSION_DENIED', 'backups are served on loopback only')
    if (rt.config.databaseUrl) {
      throw new SigilError('FAILED_PRECONDITION', 'backups cover the embedded database; for DATABASE_URL use pg_dump')
    }
    const raw = new Uint8Array(await c.req.arrayBuffer())
    const signed = await stampSignatureCheck(c.req.raw.headers, raw)
    const admin = AdminKeyFile.parse(JSON.parse(readFileSync(adminKeyPath(rt.config.dataDir), 'utf8')))
    const key = signed.kind === 'API_KEY' && signed.check.ok ? signed.check.publicKey : undefined
    const [row] =
      key === admin.publicKey
        ? await rt.db.query('SELECT 1 FROM api_keys WHERE public_key = $1 AND organization_id = $2', [key, rt.rootOrganizationId])
        : []
    if (!row) throw new SigilError('PERMISSION_DENIED', "backups need a stamp by the root organization's admin API key")
    let timestampMs: number
    try {
      timestampMs = Number(
        z.object({ timestampMs: z.string().regex(/^\d{1,16}$/) }).parse(JSON.parse(new TextDecoder().decode(raw))).timestampMs,
      )
    } catch {
      throw new SigilError('INVALID_ARGUMENT', 'body must be {"timestampMs": "<milliseconds>"}')
    }
    if (Math.abs(timestampMs - rt.now()) > rt.config.timestampWindowMs) {
      throw new SigilError('TIMESTAMP_OUT_OF_WINDOW', 'timestampMs: request timestamp is outside the allowed window')
    }
    // Single use, so a captured backup request cannot be replayed: the signed bytes are recorded until
    // their timestamp leaves the window; the same bytes again are a replay. (The body's hash, not the
    // stamp's: a signature has other encodings.)
    const now = rt.now()
    await rt.db.query('DELETE FROM used_admin_stamps WHERE expires_at < $1', [now])
    const fresh = await rt.db.query(
      'INSERT INTO used_admin_stamps (stamp_hash, expires_at) VALUES ($1, $2) ON CONFLICT (stamp_hash) DO NOTHING RETURNING stamp_hash',
      [createHash('sha256').update(raw).digest('hex'), timestampMs + rt.config.timestampWindowMs],
    )
    if (fresh.length === 0) throw new SigilError('PERMISSION_DENIED', 'this signed backup request has already been used; sign a new one')
    const started = performance.now()
    const file = await backupBytes(rt.db, findMasterKey(rt.config))
    rt.log.info('backup taken', { bytes: file.length, ms: Math.round(performance.now() - started) })
    return c.body(file, 200, { 'Content-Type': 'application/octet-stream', 'Cache-Control': 'no-store' })
  })
}

/** The backup file of an open database: PGlite's data dir when it has one to give, else a dump of its rows. */
async function backupBytes(db: Database, masterKey: Uint8Array | undefined): Promise<Uint8Array<ArrayBuffer>> {
  if (db.snapshot) return encodeBackup(await db.snapshot(), masterKey, new Date(), 'pglite')
  return encodeBackup((await dumpToBytes(db)).bytes, masterKey, new Date(), 'postgres')
}

/** Writes `bytes` to `file` with mode 0600, atomically (a temporary file renamed over it). */
function writePrivate(file: string, bytes: Uint8Array): void {
  mkdirSync(dirname(file), { recursive: true })
  const tmp = `${file}.partial-${process.pid}`
  writeFileSync(tmp, bytes, { mode: 0o600 })
  chmodSync(tmp, 0o600)
  renameSync(tmp, file)
}

export type BackupResult = { file: string; bytes: number; via: 'service' | 'data dir'; ms: number }

/** Backs up the embedded database of `config.dataDir` into `file`, through the live service when there is one. */
export async function backup(config: ServiceConfig, file: string): Promise<BackupResult> {
  if (config.databaseUrl) throw new BackupError('DATABASE_URL is set: back up PostgreSQL with pg_dump (and restore with pg_restore)')
  const started = performance.now()
  const url = liveService(config.dataDir)
  let bytes: Uint8Array
  if (url) {
    const admin = AdminKeyFile.parse(JSON.parse(readFileSync(adminKeyPath(config.dataDir), 'utf8')))
    const body = JSON.stringify({ timestampMs: String(Date.now()) })
    const stamp = await createApiKeyStamper({ privateKeyHex: admin.privateKey }).stamp(body)
    let res: Response
    try {
      res = await fetch(`${url}${BACKUP_PATH}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [stamp.stampHeaderName]: stamp.stampHeaderValue },
        body,
      })
    } catch (e) {
      throw new BackupError(`the service of this data dir (${url}) did not answer: ${(e as Error).message}`)
    }
    if (!res.ok) throw new BackupError(`the service refused the backup (HTTP ${res.status}): ${await res.text()}`)
    bytes = new Uint8Array(await res.arrayBuffer())
    decodeBackup(bytes)
  } else {
    // No service runs: open the data dir's database here (the embedded PostgreSQL is started and stopped).
    const held = databasesIn(config.dataDir)
    const engine = held.postgres ? 'postgres' : held.pglite ? 'pglite' : undefined
    if (!engine) throw new BackupError(`no embedded database in ${config.dataDir}`)
    const db = engine === 'postgres' ? await openEmbeddedPostgres(config.dataDir) : await openPglite(config.dataDir)
    try {
      bytes = await backupBytes(db, findMasterKey(config))
    } finally {
      await db.close()
    }
  }
  writePrivate(resolve(file), bytes)
  return { file: resolve(file), bytes: bytes.length, via: url ? 'service' : 'data dir', ms: Math.round(performance.now() - started) }
}

export type RestoreResult = { dataDir: string; header: BackupHeader; masterKey: 'matches' | 'missing'; ms: number }

/**
 * Restores a backup into `config.dataDir`, which must hold no database (anything but a master key
 * file) unless `force`. A master key present (file or SIGIL_MASTER_KEY) must be the backup's.
 */
export async function restore(config: ServiceConfig, file: string, options: { force?: boolean } = {}): Promise<RestoreResult> {
  if (config.databaseUrl) throw new BackupError('DATABASE_URL is set: restore PostgreSQL with pg_restore or psql')
  const started = performance.now()
  let raw: Uint8Array
  try {
    raw = readFileSync(file)
  } catch (e) {
    throw new BackupError(`cannot read ${file}: ${(e as Error).message}`)
  }
  const { header, payload } = decodeBackup(raw)
  const { dataDir } = config
  if (liveService(dataDir)) throw new BackupError(`a running service owns ${dataDir}: stop it first`)
  const present = existsSync(dataDir) ? readdirSync(dataDir).filter((n) => n !== 'master.key' && n !== 'service.json') : []
  if (present.length && !options.force) {
    throw new BackupError(
      `${dataDir} is not empty (${present.join(', ')}): restore into an empty data dir, or pass --force to replace its database`,
    )
  }
  const key = findMasterKey(config)
  if (key && header.masterKeyId && masterKeyId(key) !== header.masterKeyId) {
    throw new BackupError(
      `the master key for ${dataDir} (id ${masterKeyId(key)}) is not the one this backup needs (id ${header.masterKeyId})`,
    )
  }
  mkdirSync(dataDir, { recursive: true })
  if (header.version === 1) await restorePgliteTar(dataDir, payload, options)
  else await restoreDump(config, payload, options)
  return { dataDir, header, masterKey: key ? 'matches' : 'missing', ms: Math.round(performance.now() - started) }
}

/** Removes the database files of a data dir (`--force`) and the admin key file naming a key of it. */
function removeDatabase(dataDir: string): void {
  const files = [pgliteDir, migratedPgliteDir, clusterDir, passwordPath, logPath, (d: string) => `${logPath(d)}.1`, adminKeyPath]
  for (const p of files.map((f) => f(dataDir))) {
    rmSync(p, { recursive: true, force: true })
  }
}

/** Version 1: PGlite's data dir, opened once in a staging dir to prove it whole, then moved in. */
async function restorePgliteTar(dataDir: string, payload: Uint8Array<ArrayBuffer>, options: { force?: boolean }): Promise<void> {
  const target = pgliteDir(dataDir)
  const staging = join(dataDir, 'pgdata.restoring')
  rmSync(staging, { recursive: true, force: true })
  try {
    const pg = await PGlite.create({ dataDir: staging, loadDataDir: new Blob([payload]) })
    await pg.query('SELECT count(*) FROM service_keys')
    await pg.close()
  } catch (e) {
    rmSync(staging, { recursive: true, force: true })
    throw new BackupError(`the backup's database does not open: ${(e as Error).message}`)
  }
  if (options.force) removeDatabase(dataDir)
  renameSync(staging, target)
}

/**
 * Version 2: the rows, loaded into a new database of the configured engine in a staging data dir
 * (one transaction, counts checked); its database files are moved into the data dir only then.
 */
async function restoreDump(config: ServiceConfig, payload: Uint8Array<ArrayBuffer>, options: { force?: boolean }): Promise<void> {
  const { dataDir } = config
  const staging = join(dataDir, 'restoring.tmp')
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { mode: 0o700 })
  letServerEnter(dataDir) // as root, the server runs as another user and must reach the staging dir
  const engine = config.database
  try {
    const db = engine === 'postgres' ? await openEmbeddedPostgres(staging) : await openPglite(staging)
    try {
      await loadDumpBytes(db, payload)
    } finally {
      await db.close()
    }
  } catch (e) {
    rmSync(staging, { recursive: true, force: true })
    throw new BackupError(`the backup's rows do not load: ${(e as Error).message}`)
  }
  if (options.force) removeDatabase(dataDir)
  const moves = engine === 'postgres' ? [clusterDir, passwordPath] : [pgliteDir]
  for (const path of moves) renameSync(path(staging), path(dataDir))
  rmSync(staging, { recursive: true, force: true })
}
