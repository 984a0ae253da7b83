/**
 * Origin checks for CORS, WebAuthn `clientDataJSON.origin` and the relay. An entry
 * `http://localhost` (no port) allows any port on localhost; others must match exactly. The
 * configuration puts `http://localhost` in the lists outside production only, so no local page
 * reaches a production service.
 */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  const normalised = url.origin === 'null' ? origin : url.origin
  for (const a of allowed) {
    if (a === normalised || a === origin) return true
    if ((a === 'http://localhost' || a === 'http://127.0.0.1') && `${url.protocol}//${url.hostname}` === a) return true
  }
  return false
}
