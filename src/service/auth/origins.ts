/**
 * Origin checks for CORS, WebAuthn `clientDataJSON.origin` and the relay. An entry
 * `http://localhost` (no port) allows any port on localhost; others must match exactly. The
 * configuration puts `http://localhost` in the lists outside production only, so no local page
 * reaches a production service.
 *
 * One more entry, {@link ANY_FIREFOX_EXTENSION} (`moz-extension://*`), counts for requests only
 * ({@link requestOriginAllowed}: CORS and the relay), never for WebAuthn ({@link originAllowed}
 * skips it). Firefox gives each installed add-on a random per-profile origin
 * `moz-extension://<UUID>`, so no list can name the wallet's in advance. Accepting every such origin
 * is safe for requests: an `Origin` check only keeps web pages out, and no web page can send a
 * `moz-extension:` origin — only an add-on the user installed holds one — while every request is
 * still stamped and authenticated per user. WebAuthn gains nothing from it (Firefox refuses
 * passkeys on `moz-extension:` pages), so its origin list stays exact.
 */
import { ANY_FIREFOX_EXTENSION } from '../config.js'

/** A Firefox add-on origin exactly as Firefox sends it: a lower-case UUID, no port, path or suffix. */
const FIREFOX_EXTENSION_ORIGIN = /^moz-extension:\/\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** Whether `origin` is in `allowed` (exact, or any port of an `http://localhost` entry); wildcard entries match nothing here. */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  const normalised = url.origin === 'null' ? origin : url.origin
  for (const a of allowed) {
    if (a.includes('*')) continue
    if (a === normalised || a === origin) return true
    if ((a === 'http://localhost' || a === 'http://127.0.0.1') && `${url.protocol}//${url.hostname}` === a) return true
  }
  return false
}

/**
 * Whether a request from `origin` may use the interface or the relay: {@link originAllowed}, or a
 * Firefox add-on origin when `allowed` holds {@link ANY_FIREFOX_EXTENSION}.
 */
export function requestOriginAllowed(origin: string, allowed: readonly string[]): boolean {
  if (originAllowed(origin, allowed)) return true
  return allowed.includes(ANY_FIREFOX_EXTENSION) && FIREFOX_EXTENSION_ORIGIN.test(origin)
}
