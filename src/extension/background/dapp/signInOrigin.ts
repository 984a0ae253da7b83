/**
 * Whether a sign-in message (EIP-4361 or Sign In With Solana) belongs to the site asking for it.
 * The message names a `domain` (an RFC 3986 authority, optionally after a scheme) and a `uri`; a
 * site that asks the user to sign a message for another domain is phishing for a login there, so
 * each disagreement with the requesting origin (taken from the browser) is returned for the window
 * to show as a blocking warning. Hosts compare case-insensitively and with default ports removed
 * (`example.com` and `example.com:443` are the same site over https).
 */
import type { ApprovalView, SignInMismatch } from '../../protocol/approvalView'

/** `new URL(s)` or null. */
function parse(s: string): URL | null {
  try {
    return new URL(s)
  } catch {
    return null
  }
}

/**
 * The host (with a non-default port) a message's `domain` names, read under the site's scheme unless
 * the message states its own `scheme`; null when it is not an authority.
 */
function domainHost(domain: string, scheme: string): string | null {
  if (domain === '' || /[/?#\s]/.test(domain)) return null
  const url = parse(`${scheme}//${domain}`)
  return url && url.username === '' && url.password === '' ? url.host : null
}

/**
 * The disagreements between a sign-in message and the requesting `origin`: its `domain` must be the
 * origin's host and port (and its `scheme`, when stated, the origin's scheme); its `uri`, when
 * present, must be on the origin. Empty when the message belongs to the site.
 */
export function signInMismatches(
  origin: string,
  stated: { domain: string; uri?: string | undefined; scheme?: string | undefined },
): SignInMismatch[] {
  const site = parse(origin)
  const out: SignInMismatch[] = []
  if (!site) return [{ field: 'domain', stated: stated.domain, site: origin }]
  const scheme = stated.scheme ? `${stated.scheme.toLowerCase()}:` : site.protocol
  const host = domainHost(stated.domain, scheme)
  if (host === null || host !== site.host || scheme !== site.protocol) {
    out.push({ field: 'domain', stated: stated.scheme ? `${stated.scheme}://${stated.domain}` : stated.domain, site: site.origin })
  }
  if (stated.uri !== undefined && parse(stated.uri)?.origin !== site.origin) {
    out.push({ field: 'uri', stated: stated.uri, site: site.origin })
  }
  return out
}

/**
 * Why an approved sign-in can no longer be signed: its expiration time (as the window showed it)
 * passed while the window was open. Null when it has none or it is still ahead.
 */
export function signInExpiredAtApproval(view: ApprovalView, now: number): string | null {
  if (view.kind !== 'signIn') return null
  const expires = view.rows.find(([label]) => label === 'Expiration Time')?.[1]
  if (expires === undefined || Date.parse(expires) > now) return null
  return `Sign-in message: expirationTime ${expires} passed before it was approved`
}
