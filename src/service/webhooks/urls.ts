/**
 * Destination rules for webhook URLs: `http:` or `https:` only, no credentials in the URL, and,
 * unless private destinations are allowed (dev mode), no host that is or resolves to a loopback,
 * private, link-local, CGNAT, unique-local, multicast or otherwise non-public address. The rule runs
 * when an endpoint is created or its URL changes, and again on every delivery inside the connection's
 * own DNS lookup (`guardedLookup`), so a name that later resolves elsewhere (DNS rebinding) is refused.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { isIP, type LookupFunction } from 'node:net'
import { isNonPublicAddress } from '../net/address.js'

// The one address classifier (src/service/net/address.ts) decides, here and at delivery.
export { isNonPublicAddress }

/** The host of a URL as the resolver and `isIP` take it (IPv6 without brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '')
}

/** Checks the form of a destination URL; the message names what is wrong (never echoes credentials). */
export function parseWebhookUrl(raw: string): { ok: true; url: URL } | { ok: false; message: string } {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { ok: false, message: 'must be an absolute http(s) URL' }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, message: 'must use the http or https scheme' }
  if (url.username !== '' || url.password !== '') return { ok: false, message: 'must not carry credentials' }
  if (url.hostname === '') return { ok: false, message: 'must name a host' }
  return { ok: true, url }
}

type Resolve = (host: string) => Promise<LookupAddress[]>

const resolveAll: Resolve = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  )

/** How long a creation-time resolution may take. */
const RESOLVE_TIMEOUT_MS = 3_000

/**
 * Whether `url` may receive deliveries: with `allowPrivate` (dev mode) any host; otherwise its host
 * must be, or resolve only to, public addresses.
 */
export async function checkDestination(
  url: URL,
  allowPrivate: boolean,
  resolve: Resolve = resolveAll,
): Promise<{ ok: true } | { ok: false; message: string }> {
  if (allowPrivate) return { ok: true }
  const host = hostOf(url)
  if (isIP(host)) return isNonPublicAddress(host) ? { ok: false, message: 'must not point at a loopback or private address' } : { ok: true }
  let addresses: LookupAddress[]
  try {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), RESOLVE_TIMEOUT_MS)
    })
    addresses = await Promise.race([resolve(host), timeout]).finally(() => clearTimeout(timer))
  } catch {
    return { ok: false, message: 'host does not resolve' }
  }
  if (addresses.length === 0) return { ok: false, message: 'host does not resolve' }
  if (addresses.some((a) => isNonPublicAddress(a.address)))
    return { ok: false, message: 'must not resolve to a loopback or private address' }
  return { ok: true }
}

/** A DNS lookup for outgoing connections that fails when any address of the name is not public. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0)
    const list = addresses as LookupAddress[]
    const first = list[0]
    if (!first || list.some((a) => isNonPublicAddress(a.address))) {
      const refused = Object.assign(new Error('destination resolves to a loopback or private address'), { code: 'EWEBHOOKDEST' })
      return callback(refused, '', 0)
    }
    if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list)
    else callback(null, first.address, first.family)
  })
}
