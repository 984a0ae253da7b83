import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { resolve } from 'node:path'

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer()
    s.once('error', fail)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => ok(port))
    })
  })
}

/** Runs `npm run service` as its own process (what a developer runs), waiting for /healthz. */
export async function spawnService(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; output: () => { stdout: string; stderr: string } }> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', resolve('src/server/main.ts')], {
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
