/**
 * Checking that the configured service and relay are the service the wallet pinned. The service's signed identity (src/api/serviceIdentity.ts)
 * must be signed by the pinned key and name the service URL's origin; the relay must
 * republish the same identity. The hosted service has no document: its keys are built in
 * and it is reached over HTTPS only. Nothing is sent to a service or relay before this passes.
 */
import { SigilError } from '../../../api/errors'
import {
  HOSTED_SERVICE,
  type NetworkInfo,
  RELAY_IDENTITY_PATH,
  SERVICE_IDENTITY_PATH,
  type ServiceKeys,
} from '../../../api/serviceIdentity'
import { type IdentityFailure, originOf, sameServiceKeys, serviceFingerprint, verifyServiceIdentity } from '../../../crypto/serviceIdentity'
import { ExtensionError } from '../failures'

/** A service whose identity was checked, with the keys its signatures are checked against. */
export type VerifiedService = {
  apiBaseUrl: string
  relayUrl: string
  keys: ServiceKeys
  fingerprint: string
  origins: string[]
  /** The networks the service publishes in its signed identity (none for the hosted service). */
  networks: NetworkInfo[]
}

type Fetch = typeof globalThis.fetch

/** What {@link getJson} gives for a refusal naming ORIGIN_NOT_ALLOWED: the service does not allow this extension's origin. */
const ORIGIN_REFUSED = Symbol('ORIGIN_NOT_ALLOWED')

/** Whether a wire error body carries the reason ORIGIN_NOT_ALLOWED. */
function namesOriginNotAllowed(body: unknown): boolean {
  const details = (body as { details?: unknown } | null)?.details
  return Array.isArray(details) && details.some((d) => (d as { reason?: unknown } | null)?.reason === 'ORIGIN_NOT_ALLOWED')
}

async function getJson(doFetch: Fetch, url: string, init: RequestInit): Promise<unknown> {
  let res: Response
  try {
    res = await doFetch(url, { ...init, redirect: 'error', credentials: 'omit', cache: 'no-store' })
  } catch (cause) {
    throw new SigilError('NETWORK', `${url}: request failed`, { cause })
  }
  let body: unknown
  try {
    body = await res.json()
  } catch {
    return undefined
  }
  if (res.ok) return body
  return res.status === 403 && namesOriginNotAllowed(body) ? ORIGIN_REFUSED : undefined
}

const WHY: Record<IdentityFailure, string> = {
  IDENTITY_MALFORMED: 'publishes no valid service identity',
  IDENTITY_SIGNATURE_INVALID: 'publishes an identity with a bad signature',
  IDENTITY_KEY_MISMATCH: 'is signed by a different key than the one this wallet pinned',
  IDENTITY_ORIGIN_MISMATCH: 'belongs to a service at another address (it may be a proxy in the middle)',
}

function refuse(what: string, url: string, reason: IdentityFailure): ExtensionError {
  return new ExtensionError('SERVICE_UNVERIFIED', `The ${what} at ${url} ${WHY[reason]}. Nothing but this check was sent to it.`)
}

/**
 * The service or relay refuses this extension's origin. In Firefox that origin is
 * `moz-extension://<UUID>`, drawn per profile: a development service answers any such origin, a
 * production one only what its operator allowed (README, "Loading in Firefox"), so say which
 * origin to add rather than "no valid identity".
 */
function refuseOrigin(what: string, url: string): ExtensionError {
  const origin = globalThis.location?.origin
  const ours = origin ? `this extension's origin ${origin}` : "this extension's origin"
  return new ExtensionError(
    'SERVICE_UNVERIFIED',
    `The ${what} at ${url} does not accept ${ours}: its operator must allow it (SIGIL_ALLOWED_ORIGINS). Nothing but this check was sent to it.`,
  )
}

const isHosted = (apiBaseUrl: string) => originOf(apiBaseUrl) === HOSTED_SERVICE.origin

/**
 * Check the service and relay URLs. With `pinnedKey` the identity must be signed by it (every
 * use); without (the connect step, before the user confirmed the fingerprint) any valid
 * identity for the URL is returned for the user to judge.
 */
export async function verifyService(
  opts: { apiBaseUrl: string; relayUrl: string; pinnedKey?: string | undefined },
  doFetch: Fetch = (i, init) => globalThis.fetch(i, init),
): Promise<VerifiedService> {
  let keys: ServiceKeys
  let origins: string[]
  let networks: NetworkInfo[] = []
  if (isHosted(opts.apiBaseUrl)) {
    if (opts.pinnedKey !== undefined && opts.pinnedKey !== HOSTED_SERVICE.keys.identity) {
      throw refuse('service', opts.apiBaseUrl, 'IDENTITY_KEY_MISMATCH')
    }
    keys = HOSTED_SERVICE.keys
    origins = [HOSTED_SERVICE.origin]
  } else {
    const doc = await getJson(doFetch, opts.apiBaseUrl + SERVICE_IDENTITY_PATH, { method: 'GET' })
    if (doc === ORIGIN_REFUSED) throw refuseOrigin('service', opts.apiBaseUrl)
    const v = verifyServiceIdentity(doc, { url: opts.apiBaseUrl, pinnedKey: opts.pinnedKey })
    if (!v.ok) throw refuse('service', opts.apiBaseUrl, v.reason)
    keys = v.statement.keys
    origins = v.statement.origins
    networks = v.statement.networks
  }
  if (!(isHosted(opts.apiBaseUrl) && originOf(opts.relayUrl) === HOSTED_SERVICE.relayOrigin)) {
    const doc = await getJson(doFetch, opts.relayUrl + RELAY_IDENTITY_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    })
    if (doc === ORIGIN_REFUSED) throw refuseOrigin('relay', opts.relayUrl)
    const v = verifyServiceIdentity(doc, { url: opts.relayUrl, pinnedKey: keys.identity, checkOrigin: false })
    if (!v.ok) throw refuse('relay', opts.relayUrl, v.reason)
    if (!sameServiceKeys(v.statement.keys, keys)) throw refuse('relay', opts.relayUrl, 'IDENTITY_KEY_MISMATCH')
  }
  return { apiBaseUrl: opts.apiBaseUrl, relayUrl: opts.relayUrl, keys, fingerprint: serviceFingerprint(keys.identity), origins, networks }
}
