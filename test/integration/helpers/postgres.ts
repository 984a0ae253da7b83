import { execFile } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { freePort } from './process.js'

const run = promisify(execFile)
const ROOT = '/usr/lib/postgresql'

/** `/usr/lib/postgresql/<highest version>/bin`, or undefined when no PostgreSQL server is installed. */
export function postgresBinDir(): string | undefined {
  if (!existsSync(ROOT)) return undefined
  const versions = readdirSync(ROOT)
    .filter((v) => existsSync(join(ROOT, v, 'bin', 'pg_ctl')) && existsSync(join(ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
  const top = versions.at(-1)
  return top ? join(ROOT, top, 'bin') : undefined
}

/** A throwaway PostgreSQL cluster of this test's own, on 127.0.0.1:<free port>, that the test may stop and start. */
export type ThrowawayPostgres = {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string
  port: number
  /** `pg_ctl stop -m fast`: open connections are terminated (57P01), new ones refused. */
  stop(): Promise<void>
  /** `pg_ctl start -w`: returns once the server accepts connections. */
  start(): Promise<void>
  /** Stops the server (if running) and deletes its data. */
  destroy(): Promise<void>
}

/**
 * initdb + pg_ctl start in a mkdtemp folder. initdb refuses to run as root, so as root the data dir
 * belongs to `postgres` and the binaries run through `runuser -u postgres`.
 */
export async function startThrowawayPostgres(binDir: string): Promise<ThrowawayPostgres> {
  const base = mkdtempSync(join(tmpdir(), 'sigil-pg-outage-'))
  const data = join(base, 'data')
  const log = join(base, 'log')
  const asRoot = process.getuid?.() === 0
  if (asRoot) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim())
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim())
    chownSync(base, uid, gid)
  }
  const pg = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(binDir, tool), ...args]) : run(join(binDir, tool), args)
  const port = await freePort()
  await pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync'])
  const options = `-p ${port} -k /tmp -c listen_addresses=127.0.0.1`
  let running = false
  const start = async () => {
    await pg('pg_ctl', ['-D', data, '-o', options, '-l', log, '-w', '-t', '30', 'start'])
    running = true
  }
  const stop = async () => {
    await pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop'])
    running = false
  }
  await start()
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    async destroy() {
      if (running) await stop().catch(() => {})
      rmSync(base, { recursive: true, force: true })
    },
  }
}
