/**
 * Network and storage hardening against a live attack (its defects numbered as its report numbers them):
 * - defect 11: every IPv4-in-IPv6 spelling of a loopback or private address is refused as a webhook URL
 *   in production (one address classifier, src/service/net/address.ts);
 * - defect 9: stalled request bodies cannot exhaust memory (a global cap on buffered body bytes, a
 *   per-address connection limit, a body timeout);
 * - defect 7: the embedded databases' files are the owner's only (dirs 0700, files 0600), and a data
 *   dir found with looser modes is fixed at start with a log line saying so;
 * - production CORS and the relay answer only the origins the operator configured.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TurnkeyRequestError } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { relayAllowedOrigins } from '../../src/relay/options.js'
import { resolveConfig } from '../../src/service/config.js'
import { createLogger } from '../../src/service/logger.js'
import { adminTurnkeyClient, startTestService, type TestService } from './helpers/service.js'

const ts = () => String(Date.now())

describe('webhook URLs in production: IPv4 written inside IPv6', () => {
  let prod: TestService
  beforeAll(async () => {
    const production = resolveConfig({ NODE_ENV: 'production' })
    prod = await startTestService({ production: true, webhooks: production.webhooks })
  })
  afterAll(async () => {
    await prod?.stop()
  })

  it('refuses every spelling of loopback and private addresses, naming parameters.url', async () => {
    const client = adminTurnkeyClient(prod)
    const organizationId = prod.admin.organizationId
    for (const url of [
      'http://[::7f00:1]/hook', // IPv4-compatible ::127.0.0.1
      'http://[::127.0.0.1]/hook',
      'http://[::ffff:0:7f00:1]/hook', // SIIT ::ffff:0:127.0.0.1
      'http://[::ffff:0:a00:1]/hook', // SIIT 10.0.0.1
      'http://[::ffff:7f00:1]/hook', // IPv4-mapped
      'http://[0:0:0:0:0:ffff:127.0.0.1]/hook',
      'http://[64:ff9b::7f00:1]/hook', // NAT64
      'http://[64:ff9b:1::a9fe:a9fe]/hook', // local NAT64, 169.254.169.254
      'http://[2002:7f00:1::1]/hook', // 6to4 of 127.0.0.1
      'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook', // Teredo, client 127.0.0.1
      'http://[::a9fe:a9fe]/hook', // ::169.254.169.254
      'http://[fec0::1]/hook', // site-local
      'http://[::]/hook',
      'http://[100::1]/hook', // discard
      'http://[3fff::1]/hook', // documentation (RFC 9637)
    ]) {
      const err = await client
        .createWebhookEndpoint({
          type: 'ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT',
          timestampMs: ts(),
          organizationId,
          parameters: { url, name: 'x', subscriptions: [] },
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        )
      expect(err, url).toBeInstanceOf(TurnkeyRequestError)
      const e = err as TurnkeyRequestError
      expect(e.code, url).toBe(3) // INVALID_ARGUMENT
      expect(e.message, url).toContain('parameters.url')
      expect(JSON.stringify(e.details), url).toContain('INVALID_ARGUMENT')
    }
    // A public IPv6 destination and a public IPv4-mapped one are still accepted.
    for (const url of ['https://[2606:4700::1111]/hook', 'https://[::ffff:93.184.215.14]/hook']) {
      const ok = await client.createWebhookEndpoint({
        type: 'ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT',
        timestampMs: ts(),
        organizationId,
        parameters: { url, name: 'x', subscriptions: [] },
      })
      expect(ok.activity.status, url).toBe('ACTIVITY_STATUS_COMPLETED')
    }
  })
})

describe('stalled request bodies', () => {
  const MiB = 1024 * 1024
  const limits = { maxBufferedBodyBytes: 16 * MiB, maxConnectionsPerAddress: 4, requestTimeoutMs: 6_000 }
  let svc: TestService
  const sockets: Socket[] = []
  beforeAll(async () => {
    svc = await startTestService({ http: limits } as never)
  })
  afterAll(async () => {
    for (const s of sockets) s.destroy()
    await svc?.stop()
  })

  type Probe = { socket: Socket; closed: boolean; response: string; sent: boolean }
  const chunk = Buffer.alloc(MiB - 1, 0x20)
  /** A POST declaring a 1 MiB body, sending all of it but one byte, then stalling. */
  const stall = (localAddress: string): Probe => {
    const socket = connect({ host: '127.0.0.1', port: svc.port, localAddress })
    sockets.push(socket)
    const p: Probe = { socket, closed: false, response: '', sent: false }
    socket.on('error', () => {})
    socket.on('data', (d) => {
      p.response += d.toString('latin1')
    })
    socket.on('close', () => {
      p.closed = true
    })
    socket.on('connect', () => {
      socket.write(
        `POST /public/v1/query/whoami HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${MiB}\r\n\r\n`,
      )
      socket.write(chunk, () => {
        p.sent = true
      })
    })
    return p
  }
  const until = async (what: () => boolean, ms: number) => {
    const end = Date.now() + ms
    while (!what() && Date.now() < end) await new Promise((r) => setTimeout(r, 50))
    return what()
  }

  it('keeps memory bounded, limits connections per address, times bodies out, and still answers', async () => {
    const client = adminTurnkeyClient(svc)
    await client.getWhoami({ organizationId: svc.admin.organizationId })
    const before = process.memoryUsage().rss

    // 300 connections from 150 loopback addresses (2 each: within the per-address limit).
    const probes: Probe[] = []
    for (let i = 0; i < 300; i++) probes.push(stall(`127.0.1.${1 + (i % 150)}`))
    await until(() => probes.every((p) => p.sent || p.closed), 20_000)
    // Refused connections are closed within a second of their answer.
    await until(() => probes.filter((p) => !p.closed).length <= 16, 3_000)
    const grown = process.memoryUsage().rss - before
    console.log(`stalled bodies: RSS grew ${(grown / MiB).toFixed(1)} MiB for 300 connections × 1 MiB − 1 byte`)
    expect(grown).toBeLessThan(64 * MiB)
    // Those over the global budget (16 × 1 MiB) were answered at once (503) and closed; the rest wait.
    const waiting = probes.filter((p) => !p.closed)
    expect(waiting.length).toBeGreaterThan(0)
    expect(waiting.length).toBeLessThanOrEqual(16)
    const answered = probes.find((p) => p.response.startsWith('HTTP/1.1 503'))
    expect(answered?.response).toContain('UNAVAILABLE')

    // One address may hold at most 4 connections: the excess are closed unanswered.
    const crowd: Probe[] = []
    for (let i = 0; i < 8; i++) {
      const socket = connect({ host: '127.0.0.1', port: svc.port, localAddress: '127.0.2.9' })
      sockets.push(socket)
      const p: Probe = { socket, closed: false, response: '', sent: false }
      socket.on('error', () => {})
      socket.on('close', () => {
        p.closed = true
      })
      crowd.push(p)
      await new Promise((r) => socket.once('connect', r))
    }
    await until(() => crowd.filter((p) => p.closed).length >= 4, 3_000)
    expect(crowd.filter((p) => p.closed)).toHaveLength(4)

    // Stalled bodies are timed out (6 s here): every stalled connection ends.
    expect(await until(() => probes.every((p) => p.closed), 15_000)).toBe(true)
    expect(waiting.every((p) => p.response === '' || p.response.startsWith('HTTP/1.1 408'))).toBe(true)

    // The service still answers a normal request.
    const who = await client.getWhoami({ organizationId: svc.admin.organizationId })
    expect(who.organizationId).toBe(svc.admin.organizationId)
  })
})

/** Every path under `dir` with its permission bits. */
function modes(dir: string): Array<{ path: string; mode: number; dir: boolean }> {
  const out: Array<{ path: string; mode: number; dir: boolean }> = []
  const walk = (p: string) => {
    for (const e of readdirSync(p, { withFileTypes: true })) {
      const f = join(p, e.name)
      const st = statSync(f)
      out.push({ path: f, mode: st.mode & 0o777, dir: e.isDirectory() })
      if (e.isDirectory()) walk(f)
    }
  }
  walk(dir)
  return out
}

describe.each([
  ['pglite', 'pgdata'],
  ['postgres', 'postgres'],
] as const)('the %s data dir', (engine, sub) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sigil-modes-'))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
  const start = (lines: string[] = []) =>
    startTestService({
      dataDir,
      database: engine,
      databaseUrl: undefined,
      logger: createLogger('info', {}, (l) => lines.push(l)),
    })

  it('is 0700 with no file readable or writable by group or others', async () => {
    const svc = await start()
    try {
      await adminTurnkeyClient(svc).getWhoami({ organizationId: svc.admin.organizationId })
      expect((statSync(join(dataDir, sub)).mode & 0o777).toString(8)).toBe('700')
      const loose = modes(dataDir).filter((m) => (m.mode & 0o066) !== 0)
      expect(loose.map((m) => `${m.path} ${m.mode.toString(8)}`)).toEqual([])
    } finally {
      await svc.stop()
    }
  })

  it('found with loose modes at start, is fixed and the log says so', async () => {
    const dir = join(dataDir, sub)
    chmodSync(dir, 0o755)
    const files = modes(dir).filter((m) => !m.dir)
    for (const f of files.slice(0, 5)) chmodSync(f.path, 0o666)
    const lines: string[] = []
    const svc = await start(lines)
    try {
      expect((statSync(dir).mode & 0o777).toString(8)).toBe('700')
      expect(modes(dataDir).filter((m) => (m.mode & 0o066) !== 0)).toEqual([])
      const fixed = lines.map((l) => JSON.parse(l) as { level: string; msg: string }).find((l) => /permissions/.test(l.msg))
      expect(fixed?.level).toBe('warn')
      expect(fixed?.msg).toMatch(/group or others/)
    } finally {
      await svc.stop()
    }
  })
})

describe('CORS and the relay in production', () => {
  let prod: TestService
  let dev: TestService
  beforeAll(async () => {
    const production = resolveConfig({ NODE_ENV: 'production', SIGIL_ALLOWED_ORIGINS: 'https://wallet.example' })
    prod = await startTestService({ production: true, allowedOrigins: production.allowedOrigins, rpIds: production.rpIds })
    dev = await startTestService()
  })
  afterAll(async () => {
    await prod?.stop()
    await dev?.stop()
  })

  const preflight = (svc: TestService, path: string, origin: string) =>
    fetch(`${svc.url}${path}`, {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    })
  const relayPost = (svc: TestService, origin: string) =>
    fetch(`${svc.url}/auth/v1/wallet_kit_config`, {
      method: 'POST',
      headers: { Origin: origin, 'Content-Type': 'application/json' },
      body: '{}',
    })

  it('answers only the configured origins, not http://localhost on any port', async () => {
    for (const origin of ['http://localhost:3000', 'http://localhost', 'http://127.0.0.1:5173']) {
      expect((await preflight(prod, '/public/v1/query/whoami', origin)).status, origin).toBe(403)
      expect((await preflight(prod, '/auth/v1/wallet_kit_config', origin)).status, origin).toBe(403)
      const r = await relayPost(prod, origin)
      expect(r.status, origin).toBe(403)
      expect(await r.text(), origin).toContain('ORIGIN_NOT_ALLOWED')
      const q = await fetch(`${prod.url}/healthz`, { headers: { Origin: origin } })
      expect(q.headers.get('access-control-allow-origin'), origin).toBeNull()
    }
    const ok = await preflight(prod, '/public/v1/query/whoami', 'https://wallet.example')
    expect(ok.status).toBe(204)
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://wallet.example')
    expect((await preflight(prod, '/auth/v1/wallet_kit_config', 'https://wallet.example')).status).toBe(204)
    expect((await relayPost(prod, 'https://wallet.example')).status).not.toBe(403)
  })

  it('development keeps localhost on any port', async () => {
    expect((await preflight(dev, '/public/v1/query/whoami', 'http://localhost:3000')).status).toBe(204)
    expect((await relayPost(dev, 'http://localhost:5173')).status).not.toBe(403)
  })

  it('production configuration names only the extension and the configured origins', () => {
    const production = resolveConfig({ NODE_ENV: 'production', SIGIL_ALLOWED_ORIGINS: 'https://wallet.example' })
    expect(production.allowedOrigins.some((o) => /localhost|127\.0\.0\.1/.test(o))).toBe(false)
    expect(production.allowedOrigins).toContain('https://wallet.example')
    expect(production.rpIds).not.toContain('localhost')
    // The standalone relay (npm run relay) likewise.
    expect(relayAllowedOrigins(['https://wallet.example'], true).some((o) => /localhost/.test(o))).toBe(false)
    expect(relayAllowedOrigins([], false)).toContain('http://localhost')
  })
})
