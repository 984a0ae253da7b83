/**
 * What unauthenticated clients may hold of the HTTP server, so none can exhaust its memory
 * or connections: every request body is
 * unauthenticated until it has been read (the stamp covers its bytes), so bodies are admitted before
 * any route reads them, for every route alike (interface, relay, dev routes):
 * - a body declared larger than {@link MAX_BODY_BYTES} is refused at once (413 `BODY_TOO_LARGE`);
 * - each request being received reserves its Content-Length (a chunked body: the body limit) from
 *   one budget, `maxBufferedBodyBytes`, until its response ends; a request that does not fit is
 *   answered 503 `UNAVAILABLE` at once, its body never read, and the connection closed;
 * - one client address (an IPv4 address, or an IPv6 /64, by the one address classifier) holds at
 *   most `maxConnectionsPerAddress` open connections: further ones are closed unanswered;
 * - a request's headers and body must arrive within `requestTimeoutMs` (node's `requestTimeout`:
 *   408 and the connection closed), so a stalled body gives its reservation back.
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http'
import { SigilError } from '../../api/errors.js'
import type { HttpLimits } from '../config.js'
import { classifyAddress } from '../net/address.js'
import { MAX_BODY_BYTES } from './body.js'

export type AdmissionEvents = {
  /** A request or connection was refused (called at most once a minute per reason, with the count since). */
  refused?: (reason: 'connections_per_address' | 'buffered_bodies' | 'body_too_large', count: number) => void
}

/** A `createServer` for `@hono/node-server`'s `serve` that applies {@link HttpLimits}. */
export function guardedCreateServer(limits: HttpLimits, events: AdmissionEvents = {}): typeof createServer {
  let reserved = 0
  const perAddress = new Map<string, number>()
  const counts = new Map<string, { count: number; reportedAt: number }>()
  const refused = (reason: 'connections_per_address' | 'buffered_bodies' | 'body_too_large') => {
    const c = counts.get(reason) ?? { count: 0, reportedAt: 0 }
    c.count++
    counts.set(reason, c)
    if (Date.now() - c.reportedAt < 60_000) return
    events.refused?.(reason, c.count)
    c.count = 0
    c.reportedAt = Date.now()
  }

  /** Answers without reading the body, then closes the connection (node would otherwise read on, up to the timeout). */
  const answer = (req: IncomingMessage, res: ServerResponse, e: SigilError, headers: Record<string, string> = {}) => {
    res.shouldKeepAlive = false
    res.writeHead(e.httpStatus, { 'Content-Type': 'application/json', Connection: 'close', ...headers })
    res.end(JSON.stringify(e.toWire()), () => {
      req.socket.end()
      // A client that keeps sending gets no more time than it takes to read the answer.
      setTimeout(() => req.socket.destroy(), 1_000).unref()
    })
  }

  const admit =
    (next: RequestListener) =>
    (req: IncomingMessage, res: ServerResponse): void => {
      const length = req.headers['content-length']
      const chunked = req.headers['transfer-encoding'] !== undefined
      const declared = length === undefined ? 0 : Number(length)
      if (!chunked && declared > MAX_BODY_BYTES) {
        refused('body_too_large')
        return answer(req, res, new SigilError('BODY_TOO_LARGE', `request body is larger than ${MAX_BODY_BYTES} bytes`))
      }
      const need = chunked ? MAX_BODY_BYTES : Number.isFinite(declared) ? declared : 0
      if (need > 0) {
        if (reserved + need > limits.maxBufferedBodyBytes) {
          refused('buffered_bodies')
          return answer(
            req,
            res,
            new SigilError('UNAVAILABLE', 'the service is receiving too many request bodies at once: retry shortly'),
            {
              'Retry-After': '1',
            },
          )
        }
        reserved += need
        res.once('close', () => {
          reserved -= need
        })
      }
      next(req, res)
    }

  return ((options: object, listener: RequestListener) => {
    const server = createServer(
      {
        ...options,
        requestTimeout: limits.requestTimeoutMs,
        headersTimeout: Math.min(60_000, limits.requestTimeoutMs),
        // How often node looks for requests over their time (its default, 30 s, would let them run long past it).
        connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(limits.requestTimeoutMs / 4))),
      },
      admit(listener),
    )
    server.on('connection', (socket) => {
      const address = socket.remoteAddress ?? ''
      const key = classifyAddress(address)?.key ?? address
      const open = (perAddress.get(key) ?? 0) + 1
      if (open > limits.maxConnectionsPerAddress) {
        refused('connections_per_address')
        socket.destroy()
        return
      }
      perAddress.set(key, open)
      socket.once('close', () => {
        const left = (perAddress.get(key) ?? 1) - 1
        if (left > 0) perAddress.set(key, left)
        else perAddress.delete(key)
      })
    })
    return server
  }) as typeof createServer
}
