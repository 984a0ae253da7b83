/**
 * An attacker's proxy for the e2e attack tests: an HTTP server on 127.0.0.1 that
 * forwards every request to `target` (same path below its own base), records what passed,
 * and may rewrite JSON answers on the way back.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export type Seen = { method: string; path: string; body: string; headers: Record<string, string>; response?: string }

export type Proxy = {
  url: string
  seen: Seen[]
  close(): Promise<void>
}

async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Start a proxy to `target` (or to what `target()` gives at each request, for a service that must
 * know the proxy's address before it starts). `rewrite(path, json)` may return a replacement answer
 * for a JSON response; `answer(path)` may answer a request itself without forwarding.
 */
export async function startProxy(
  target: string | (() => string),
  hooks: {
    rewrite?: (path: string, json: unknown, requestBody: string) => unknown
    answer?: (path: string) => unknown
  } = {},
): Promise<Proxy> {
  const seen: Seen[] = []
  const server: Server = createServer(async (req, res) => {
    const path = req.url ?? '/'
    const body = await readAll(req)
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v
    const entry: Seen = { method: req.method ?? 'GET', path, body, headers }
    seen.push(entry)
    try {
      const own = hooks.answer?.(path)
      if (own !== undefined) {
        res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': headers.origin ?? '*' })
        res.end(JSON.stringify(own))
        return
      }
      const forwarded: Record<string, string> = { ...headers }
      delete forwarded.host
      delete forwarded['content-length']
      const upstream = await fetch((typeof target === 'string' ? target : target()) + path, {
        method: req.method ?? 'GET',
        headers: forwarded,
        ...(req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' ? {} : { body }),
      })
      const out: Record<string, string> = {}
      upstream.headers.forEach((v, k) => {
        if (k !== 'content-length' && k !== 'content-encoding' && k !== 'transfer-encoding') out[k] = v
      })
      let text = await upstream.text()
      if (hooks.rewrite && (upstream.headers.get('content-type') ?? '').includes('json') && text) {
        const replaced = hooks.rewrite(path, JSON.parse(text), body)
        if (replaced !== undefined) text = JSON.stringify(replaced)
      }
      entry.response = text
      res.writeHead(upstream.status, out)
      res.end(text)
    } catch (err) {
      res.writeHead(502, { 'content-type': 'text/plain' })
      res.end(String(err))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
