/**
 * The address a request comes from, for the IP allow-list (src/service/http/ipAllowlist.ts).
 *
 * It is the socket's peer, unless that peer is one of the operator's trusted proxies
 * (`SIGIL_TRUSTED_PROXIES`): then `X-Forwarded-For` is read from its right end, skipping the
 * addresses of trusted proxies, and the first other address is the client (each proxy appends
 * the peer it saw, so only the entries to the right of the nearest untrusted one were written by
 * proxies we trust). A header from an untrusted peer is never read: anyone can send one.
 * An unreadable header from a trusted proxy, or no socket at all, is no address (`undefined`):
 * the allow-list's `onEvaluationError` decides then.
 */
import type ipaddr from 'ipaddr.js'
import { type Cidr, cidrContains, parseAddress } from '../net/cidr.js'

/** A client address, or undefined when it cannot be told. */
export type ClientAddress = ipaddr.IPv4 | ipaddr.IPv6 | undefined

/** The most `X-Forwarded-For` entries read (a longer chain is unreadable, not walked). */
const MAX_FORWARDED_HOPS = 32

/** The client address, or undefined when it cannot be told. */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | null | undefined,
  trustedProxies: readonly Cidr[],
): ClientAddress {
  const socket = peer === undefined ? undefined : parseAddress(peer)
  if (!socket) return undefined
  const trusted = (ip: ipaddr.IPv4 | ipaddr.IPv6) => trustedProxies.some((c) => cidrContains(c, ip))
  if (trustedProxies.length === 0 || !trusted(socket) || !forwardedFor) return socket
  const hops = forwardedFor.split(',').map((s) => s.trim())
  if (hops.length > MAX_FORWARDED_HOPS) return undefined
  let client: ipaddr.IPv4 | ipaddr.IPv6 = socket
  for (let i = hops.length - 1; i >= 0; i--) {
    const ip = parseAddress(hops[i] ?? '')
    if (!ip) return undefined
    client = ip
    if (!trusted(ip)) break
  }
  return client
}
