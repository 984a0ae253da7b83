/**
 * The one IP address classifier: every rule that decides by an address (webhook
 * destinations at creation and at delivery, the loopback-only backup route, per-address connection
 * limits) asks it, so no rule meets a spelling another one normalises differently.
 *
 * Ranges come from `ipaddr.js` (IANA special-purpose registries). Every IPv4 address written inside
 * IPv6 is recovered before deciding: IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`
 * (`::7f00:1`), SIIT `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4
 * `2002:AABB:CCDD::/48` and Teredo `2001:0::/32` (its client address, inverted, in the low 32 bits).
 * An IPv6 address is public only inside the global unicast block `2000::/3` and outside every
 * special range there (6to4, Teredo, documentation, benchmarking…), so a spelling nobody listed
 * is refused rather than let through. IPv4-mapped addresses, which a dual-stack socket reports for
 * IPv4 peers, are decided by their IPv4 address.
 */
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

export type AddressClass = {
  /** The address as given, normalised (IPv4 dotted; IPv6 compressed, without a zone). */
  address: string
  family: 4 | 6
  /** The ipaddr.js range of the address itself (`unicast`, `loopback`, `private`, `ipv4Mapped`, `6to4`…). */
  range: string
  /** An IPv4 address written inside this IPv6 address, and its range. */
  embedded?: { address: string; range: string }
  /** Loopback: 127.0.0.0/8, ::1 or an IPv4-mapped 127.0.0.0/8 (what this host's stack delivers to itself). */
  loopback: boolean
  /** A public unicast destination: neither the address nor an IPv4 address inside it is special. */
  public: boolean
  /**
   * Who a per-address limit counts: the IPv4 address for an IPv4-mapped one, the /64 network for
   * other IPv6 addresses (one host commonly holds a whole /64), else the address.
   */
  key: string
}

const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3')

/** The IPv4 address an IPv6 address carries, in any of the standard embeddings (undefined: none). */
function embeddedIpv4(ip: ipaddr.IPv6, range: string): ipaddr.IPv4 | undefined {
  const b = ip.toByteArray()
  const v4 = (at: number, invert = false) => {
    const x = b.slice(at, at + 4).map((n) => (invert ? n ^ 0xff : n))
    return new ipaddr.IPv4(x)
  }
  const zeros = (from: number, to: number) => b.slice(from, to).every((n) => n === 0)
  switch (range) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
    case 'rfc6052': // 64:ff9b::a.b.c.d, 64:ff9b:1:…:a.b.c.d
      return v4(12)
    case '6to4': // 2002:AABB:CCDD::/48
      return v4(2)
    case 'teredo': // 2001:0:server:flags:port:~client
      return v4(12, true)
  }
  // IPv4-compatible ::a.b.c.d (deprecated, RFC 4291 2.5.5.1), including ::7f00:1; not :: and ::1.
  if (zeros(0, 12) && !(range === 'unspecified' || range === 'loopback')) return v4(12)
  return undefined
}

/** The classification of an IP address, or undefined for anything that is not one (a name, garbage). */
export function classifyAddress(input: string): AddressClass | undefined {
  // node's isIP is strict (no `127.1`, `0x7f.1` or octal forms that ipaddr.js would also accept).
  const family = isIP(input)
  if (family === 0) return undefined
  if (family === 4) {
    const ip = ipaddr.IPv4.parse(input)
    const range = ip.range()
    return { address: ip.toString(), family: 4, range, loopback: range === 'loopback', public: range === 'unicast', key: ip.toString() }
  }
  // The zone (`%eth0`) names an interface, not an address: classified without it.
  const ip = ipaddr.IPv6.parse(input.replace(/%.*$/, ''))
  const range = ip.range()
  const inner = embeddedIpv4(ip, range)
  const embedded = inner ? { address: inner.toString(), range: inner.range() } : undefined
  const mapped = range === 'ipv4Mapped' && embedded !== undefined
  const isPublic = mapped ? embedded.range === 'unicast' : range === 'unicast' && ip.match(GLOBAL_UNICAST) && embedded === undefined
  return {
    address: ip.toString(),
    family: 6,
    range,
    ...(embedded ? { embedded } : {}),
    loopback: range === 'loopback' || (mapped && embedded.range === 'loopback'),
    public: isPublic,
    key: mapped ? embedded.address : `${ipaddr.IPv6.networkAddressFromCIDR(`${ip.toString()}/64`).toString()}/64`,
  }
}

/** True for anything that is not a public unicast address (not an IP at all: true). */
export function isNonPublicAddress(ip: string): boolean {
  return classifyAddress(ip)?.public !== true
}

/** True for a loopback address (127.0.0.0/8, ::1, ::ffff:127.x.y.z); false for anything else. */
export function isLoopbackAddress(ip: string | undefined): boolean {
  return ip !== undefined && classifyAddress(ip)?.loopback === true
}
