import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { SigilError, fieldError } from '../../api/errors.js'
import { parseRequestJson } from './json.js'

/** The largest request body the service and the relay read. */
export const MAX_BODY_BYTES = 1024 * 1024

function tooLarge(c: Context): never {
  // The rest of the body is not read: the connection cannot be reused.
  c.header('Connection', 'close')
  throw new SigilError('BODY_TOO_LARGE', `request body is larger than ${MAX_BODY_BYTES} bytes`)
}

const streamLimit = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge })

/**
 * Refuses bodies over {@link MAX_BODY_BYTES} with 413. A declared Content-Length is checked as
 * Hono's bodyLimit does, without touching `c.req.raw.body` (which would build a web stream): the
 * node adapter then reads the body straight from the socket. Other bodies (chunked) go through
 * Hono's streaming limit.
 */
export const limitBody: MiddlewareHandler = async (c, next) => {
  const length = c.req.header('content-length')
  if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
    if (Number.parseInt(length || '0', 10) > MAX_BODY_BYTES) tooLarge(c)
    return next()
  }
  return streamLimit(c, next)
}

/**
 * Refuses a body declared as anything but JSON with 415 (`application/json`, parameters allowed;
 * a body with no Content-Type is read as JSON). A browser page cannot send `application/json`
 * cross-origin without a preflight, so a form or `text/plain` post never reaches a handler.
 */
export function requireJsonContentType(c: Context): void {
  const type = c.req.header('content-type')
  if (type === undefined) return
  const media = type.split(';', 1)[0]!.trim().toLowerCase()
  if (media !== 'application/json') {
    throw fieldError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type', `must be application/json, not ${media.slice(0, 100) || 'empty'}`)
  }
}

/** The request's raw body bytes, after the content-type check. */
export async function readBody(c: Context): Promise<Uint8Array> {
  requireJsonContentType(c)
  return new Uint8Array(await c.req.arrayBuffer())
}

/** The request body parsed as I-JSON; an empty body is `{}` when `emptyIsObject`. */
export async function readJson(c: Context, options: { emptyIsObject?: boolean } = {}): Promise<unknown> {
  const raw = await readBody(c)
  if (options.emptyIsObject && raw.every((b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09)) return {}
  return parseRequestJson(raw)
}
