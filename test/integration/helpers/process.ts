import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createApiKeyStamper } from '../../../src/crypto/stamp.js'

/** A free TCP port on 127.0.0.1. */
export { freePort } from '../../../src/service/store/embeddedPostgres.js'
import { freePort } from '../../../src/service/store/embeddedPostgres.js'

/** Data dirs of spawned services: a test that kills one with -9 leaves its embedded PostgreSQL running. */
const spawnedDataDirs = new Set<string>()
process.once('exit', () => {
  for (const dir of spawnedDataDirs) {
    try {
      const pid = Number(readFileSync(join(dir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0])
      if (pid > 0) process.kill(pid, 'SIGQUIT')
    } catch {
      // no server left there
    }
  }
})

/** The compiled service (test/integration/globalSetup.ts builds it, as `npm run service` does). */
export const COMPILED_SERVICE = resolve('dist/service.js')

/** Runs `npm run service` as its own process (what a developer runs: the compiled service), waiting for /healthz. */
export async function spawnService(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; output: () => { stdout: string; stderr: string } }> {
  if (env.SIGIL_DATA_DIR) spawnedDataDirs.add(resolve(env.SIGIL_DATA_DIR))
  const port = await freePort()
  const child = spawn(process.execPath, ['--enable-source-maps', COMPILED_SERVICE], {
    env: { ...process.env, SIGIL_PORT: String(port), SIGIL_LOG: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  // Both streams are always read (a full pipe would block the service); the logs are kept for assertions.
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (d) => (stdout += String(d)))
  child.stderr?.on('data', (d) => (stderr += String(d)))
  const output = () => ({ stdout, stderr })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited early: ${stderr}`)
    try {
      const r = await fetch(`${url}/healthz`)
      if (r.ok) return { child, url, output }
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill('SIGKILL')
  throw new Error(`service did not become healthy: ${stderr}`)
}

export function waitExit(child: ChildProcess): Promise<number | null> {
  return new Promise((ok) => (child.exitCode !== null ? ok(child.exitCode) : child.once('exit', (code) => ok(code))))
}

/**
 * The root organization's admin (from `<dataDir>/admin-api-key.json`) and a POST stamped with its
 * API key, sent to the service `url()` names now (it changes across restarts).
 */
export function adminClient(dataDir: string, url: () => string) {
  const admin = JSON.parse(readFileSync(join(dataDir, 'admin-api-key.json'), 'utf8')) as { organizationId: string; privateKey: string }
  const stamper = createApiKeyStamper({ privateKeyHex: admin.privateKey })
  const post = async (path: string, body: unknown) => {
    const text = JSON.stringify(body)
    const s = await stamper.stamp(text)
    const res = await fetch(`${url()}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [s.stampHeaderName]: s.stampHeaderValue },
      body: text,
    })
    return { status: res.status, json: (await res.json()) as any }
  }
  return { admin, post }
}
