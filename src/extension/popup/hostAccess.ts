/**
 * Host access for a service URL. The manifest grants only loopback
 * (`http://127.0.0.1/*`, `http://localhost/*`); any other service needs the user's grant through
 * `optional_host_permissions` (the browser's own prompt), asked from the "Check service" click (a
 * user gesture). Without it the browser blocks every request, so the URL is refused with a sentence
 * saying why — never "Saved." for a URL that cannot work.
 */

/** Asks the browser for these origin patterns; resolves true when granted (injected: tests fake it). */
export type RequestHostAccess = (origins: string[]) => Promise<boolean>

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** Origin patterns (`https://host/*`) the URLs need beyond the manifest's loopback hosts. */
export function neededOrigins(urls: string[]): string[] {
  const out = new Set<string>()
  for (const raw of urls) {
    let u: URL
    try {
      u = new URL(raw)
    } catch {
      continue
    }
    if (u.protocol === 'http:' && LOOPBACK.has(u.hostname)) continue
    if (u.protocol === 'https:') out.add(`https://${u.hostname}/*`)
  }
  return [...out]
}

/**
 * Ask for access to the URLs' hosts; null when there is nothing to ask or it was granted, else the
 * sentence to show. Call it first thing in the click handler (the prompt needs the user gesture).
 */
export async function ensureHostAccess(request: RequestHostAccess, urls: string[]): Promise<string | null> {
  const origins = neededOrigins(urls)
  if (origins.length === 0) return null
  const hosts = origins.map((o) => o.slice('https://'.length, -2)).join(' and ')
  let granted = false
  try {
    granted = await request(origins)
  } catch {
    granted = false
  }
  return granted
    ? null
    : `Sigil may not reach ${hosts}: the browser only lets the wallet talk to a service you allow. Check again and choose Allow, or use a service on this computer.`
}

/** Default when no browser API is given (component tests): nothing is granted. */
export const noHostAccess: RequestHostAccess = () => Promise.resolve(false)
