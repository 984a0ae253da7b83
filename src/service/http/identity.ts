/**
 * GET /.well-known/sigil-service: the service's signed identity, which the
 * extension pins. The statement names every origin the service answers at (its listening
 * address with its loopback aliases, SIGIL_PUBLIC_URL, SIGIL_SERVICE_ORIGINS) and its public
 * keys by role; the identity (verifier) key signs it. Built once per listening address.
 */
import type { ServiceIdentityDocument } from '../../api/serviceIdentity.js'
import { originOf, signServiceIdentity } from '../../crypto/serviceIdentity.js'
import type { Runtime } from '../runtime.js'

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** The origins the service answers at, for its identity statement. */
export function serviceOrigins(rt: Runtime): string[] {
  const out = new Set<string>()
  const add = (url: string | undefined) => {
    const o = url ? originOf(url) : null
    if (o) out.add(o)
  }
  add(rt.config.publicUrl)
  for (const o of rt.config.serviceOrigins) add(o)
  const base = new URL(rt.baseUrl)
  add(base.origin)
  // A loopback (or any-address) listener is reached by every loopback name.
  if (LOOPBACK.has(base.hostname) || base.hostname === '0.0.0.0' || base.hostname === '[::]') {
    for (const host of LOOPBACK) add(`${base.protocol}//${host}${base.port ? `:${base.port}` : ''}`)
  }
  return [...out]
}

/** A builder of the identity document, cached for as long as the listening address stays the same. */
export function identityDocument(rt: Runtime): () => ServiceIdentityDocument {
  let cached: { baseUrl: string; doc: ServiceIdentityDocument } | undefined
  return () => {
    if (cached?.baseUrl === rt.baseUrl) return cached.doc
    const doc = signServiceIdentity(
      {
        v: 1,
        kind: 'sigil-service-identity',
        origins: serviceOrigins(rt),
        keys: {
          identity: rt.keys.verifier.publicKeyHex,
          signer: rt.keys.signer.publicKeyHex,
          notarizer: rt.keys.session.publicKeyHex,
        },
        networks: rt.config.networks.map((n) => ({
          caip2: n.caip2,
          family: n.family,
          name: n.name,
          rpcUrl: n.rpcUrl,
          nativeSymbol: n.nativeSymbol,
          nativeDecimals: n.nativeDecimals,
          dev: n.dev,
          tokens: n.tokens.map((t) => ({ ...t })),
          ...(n.gasStation !== undefined ? { gasStation: n.gasStation.toLowerCase() } : {}),
          ...(n.explorerUrl !== undefined ? { explorerUrl: n.explorerUrl } : {}),
        })),
        issuedAt: rt.now(),
      },
      rt.keys.verifier.privateKey,
    )
    cached = { baseUrl: rt.baseUrl, doc }
    return doc
  }
}
