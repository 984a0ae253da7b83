/**
 * CIDR blocks for the IP allow-list (and the trusted proxies of `SIGIL_TRUSTED_PROXIES`), parsed and
 * matched by `ipaddr.js`. Addresses are read as strictly as the one classifier does (node's `isIP`:
 * no `127.1` or octal forms). An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, as a dual-stack socket
 * reports an IPv4 peer) is matched as its IPv4 address, so `127.0.0.0/8` covers `::ffff:127.0.0.1`;
 * an IPv6 block covering mapped addresses (`::ffff:0:0/96`) covers the IPv4 peer as well.
 */
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

/** A parsed block: its network address and prefix length. */
export type Cidr = { readonly network: ipaddr.IPv4 | ipaddr.IPv6; readonly prefix: number; readonly text: string }

/** Why a block is refused, in words for the person who typed it. */
export type CidrProblem = { ok: false; reason: string }

/** An address as given (IPv4 dotted, IPv6 with or without a zone), or undefined when it is not one. */
export function parseAddress(input: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = input.trim().replace(/%[^%]*$/, '')
  const family = isIP(bare)
  if (family === 4) return ipaddr.IPv4.parse(bare)
  if (family === 6) return ipaddr.IPv6.parse(bare)
  return undefined
}

/**
 * Parses `a.b.c.d/n` or `x:y::/n`; a bare address stands for itself (/32 or /128). Refused: anything
 * else, a prefix out of range, and bits set beyond the prefix (`10.0.0.5/8` is a mistake more often
 * than a wish for `10.0.0.0/8`, so the reason names the block that was probably meant).
 */
export function parseCidr(input: string): { ok: true; cidr: Cidr } | CidrProblem {
  const [address, prefixText, extra] = input.split('/')
  if (address === undefined || extra !== undefined || address.includes('%'))
    return { ok: false, reason: 'must be a CIDR block such as 203.0.113.0/24 or 2001:db8::/32' }
  const ip = parseAddress(address)
  if (!ip) return { ok: false, reason: 'must be a CIDR block such as 203.0.113.0/24 or 2001:db8::/32' }
  const max = ip.kind() === 'ipv4' ? 32 : 128
  if (prefixText !== undefined && !/^(0|[1-9][0-9]{0,2})$/.test(prefixText)) {
    return { ok: false, reason: `the prefix length after "/" must be a whole number from 0 to ${max}` }
  }
  const prefix = prefixText === undefined ? max : Number(prefixText)
  if (prefix > max) return { ok: false, reason: `the prefix length after "/" must be a whole number from 0 to ${max}` }
  const network =
    ip.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${ip.toString()}/${prefix}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${ip.toString()}/${prefix}`)
  if (network.toString() !== ip.toString()) {
    return { ok: false, reason: `has address bits set beyond the /${prefix} prefix (the block is ${network.toString()}/${prefix})` }
  }
  return { ok: true, cidr: { network, prefix, text: `${network.toString()}/${prefix}` } }
}

/** True when `address` (parsed) lies in `cidr`; IPv4-mapped IPv6 addresses count as their IPv4 address. */
export function cidrContains(cidr: Cidr, address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  let ip = address
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address()
  if (ip.kind() === cidr.network.kind()) return ip.match(cidr.network, cidr.prefix)
  // An IPv6 block that covers the mapped form of an IPv4 peer.
  if (ip.kind() === 'ipv4') return (ip as ipaddr.IPv4).toIPv4MappedAddress().match(cidr.network as ipaddr.IPv6, cidr.prefix)
  return false
}

/** Parses a comma-separated list of blocks (`SIGIL_TRUSTED_PROXIES`); throws naming the first bad one. */
export function parseCidrList(value: string, setting: string): Cidr[] {
  const out: Cidr[] = []
  for (const item of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const parsed = parseCidr(item)
    if (!parsed.ok) throw new Error(`${setting}: ${JSON.stringify(item.slice(0, 100))} ${parsed.reason}`)
    out.push(parsed.cidr)
  }
  return out
}
