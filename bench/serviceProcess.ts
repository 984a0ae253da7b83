import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildService } from '../scripts/buildService.mjs'
import { hexToBytes } from '../src/crypto/encoding.js'
import { createWebCryptoStamper, importP256PrivateKeyForSigning } from '../src/crypto/stamp.js'

let built: Promise<string> | undefined
/** The compiled service (scripts/buildService.mjs), built once per bench run. */
function compiledService(): Promise<string> {
  built ??= buildService().then((dir) => join(dir, 'service.js'))
  return built
}

/**
 * The service in its own process (as `npm run service` runs it: compiled), so clients do not share its event loop.
 * `opts.dataDir`: a data dir prepared by the caller (kept on stop); else a temporary one.
 */
export async function startBenchService(databaseUrl?: string, extraEnv: Record<string, string> = {}, opts: { dataDir?: string } = {}) {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'sigil-bench-'))
  const port = await new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port
      s.close(() => ok(p))
    })
  })
  const child: ChildProcess = spawn(
    process.execPath,
    [
      // A profile is read by source file (bench/profileBreakdown.ts): profiling runs the TypeScript sources.
      ...(process.env.SIGIL_BENCH_PROFILE
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SIGIL_BENCH_PROFILE}`, '--import', 'tsx', 'src/server/main.ts']
        : [await compiledService()]), // as `npm run service` starts it: no source maps read at start
    ],
    {
      env: {
        ...process.env,
        SIGIL_PORT: String(port),
        SIGIL_DATA_DIR: dataDir,
        SIGIL_LOG: 'error',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        ...extraEnv,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  )
  const url = `http://127.0.0.1:${port}`
  const spawnedAt = performance.now()
  for (let i = 0; i < 3000; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break
    } catch {
      await new Promise((r) => setTimeout(r, 20))
    }
  }
  /** Spawn to the first healthy answer (polled every 20 ms). */
  const startMs = performance.now() - spawnedAt
  const admin = JSON.parse(readFileSync(join(dataDir, 'admin-api-key.json'), 'utf8'))
  const { privateKey, publicKeyHex } = await importP256PrivateKeyForSigning(hexToBytes(admin.privateKey))
  const stamper = createWebCryptoStamper({ privateKey, publicKeyHex })
  const post = async (path: string, body: unknown) => {
    const text = JSON.stringify(body)
    const s = await stamper.stamp(text)
    const res = await postJson(`${url}${path}`, text, { [s.stampHeaderName]: s.stampHeaderValue })
    return { status: res.status, json: JSON.parse(res.body) as any }
  }
  return {
    url,
    /** The service process id (e.g. to read its CPU time from /proc). */
    pid: child.pid,
    dataDir,
    startMs,
    admin,
    stamper,
    post,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * Keep-alive connections for the bench's clients: node:http costs the client process about a third
 * of `fetch`'s CPU per request, and on a 2-core machine the clients share the cores with the service.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 64 })

/** POSTs a JSON body over a kept-alive connection; the status and the response text. */
export function postJson(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent,
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers },
    })
    req.on('response', (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** A new, empty database on the PostgreSQL server of `baseUrl`. */
export async function freshDatabase(baseUrl: string): Promise<string> {
  const pg = (await import('pg')).default
  const name = `sigil_bench_${Date.now().toString(36)}`
  const client = new pg.Client({ connectionString: baseUrl })
  await client.connect()
  await client.query(`CREATE DATABASE ${name}`)
  await client.end()
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/** `pid` and every process below it (the embedded PostgreSQL's postmaster and its children), from /proc. */
export function processTree(pid: number | undefined): number[] {
  if (pid === undefined) return []
  const children = new Map<number, number[]>()
  let entries: string[] = []
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e))
  } catch {
    return [pid]
  }
  for (const e of entries) {
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      const list = children.get(ppid) ?? []
      list.push(Number(e))
      children.set(ppid, list)
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = []
  const walk = (p: number) => {
    out.push(p)
    for (const c of children.get(p) ?? []) walk(c)
  }
  walk(pid)
  return out
}

/** Memory of a process tree in kB: RSS and PSS summed over its processes (smaps_rollup; PSS shares shared pages fairly). */
export function treeMemoryKb(pid: number | undefined): { rssKb: number; pssKb: number; processes: number; mainRssKb: number } {
  let rssKb = 0
  let pssKb = 0
  let mainRssKb = 0
  const tree = processTree(pid)
  for (const p of tree) {
    try {
      const text = readFileSync(`/proc/${p}/smaps_rollup`, 'utf8')
      const rss = Number(/^Rss:\s+(\d+)/m.exec(text)?.[1] ?? 0)
      rssKb += rss
      pssKb += Number(/^Pss:\s+(\d+)/m.exec(text)?.[1] ?? 0)
      if (p === pid) mainRssKb = rss
    } catch {
      // gone meanwhile
    }
  }
  return { rssKb, pssKb, processes: tree.length, mainRssKb }
}

/** CPU seconds of a process and everything below it (the service and its embedded PostgreSQL). */
export function treeCpuSeconds(pid: number | undefined): number {
  return processTree(pid).reduce((sum, p) => sum + cpuSeconds(p), 0)
}

/** CPU seconds (user + system) the process has used so far; NaN where /proc is not available. */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100 // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return Number.NaN
  }
}
