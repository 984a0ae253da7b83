import { createClient, type SigilClient } from '../api/client.js'
import { SigilError } from '../api/errors.js'
import { SERVICE_IDENTITY_PATH, ServiceIdentityDocument } from '../api/serviceIdentity.js'
import { createApiKeyStamper } from '../crypto/stamp.js'
import type { RelayApiKey, RelayOptions } from './options.js'

/**
 * The relay's only way to the service: the typed HTTP client stamped with the parent
 * organization's API key (never the database, even when mounted in-process).
 */
export type Upstream = {
  client: SigilClient
  parentOrgId: string
  verifierKey(): Promise<string>
  /** The upstream's signed identity document, unchanged. */
  identity(): Promise<ServiceIdentityDocument>
}

export function upstreamFactory(o: RelayOptions): (c: unknown) => Upstream {
  let verifier: string | undefined = o.verifierPublicKeyHex
  let key: RelayApiKey | undefined
  return (c) => {
    key ??= typeof o.apiKey === 'function' ? o.apiKey() : o.apiKey
    const baseUrl = typeof o.upstream === 'function' ? o.upstream(c) : o.upstream
    const client = createClient({
      baseUrl,
      stamper: createApiKeyStamper({ privateKeyHex: key.privateKey }),
      clientVersion: '@sigil/relay@0.1.0',
      ...(o.fetch ? { fetch: o.fetch } : {}),
      ...(o.now ? { now: o.now } : {}),
    })
    return {
      client,
      parentOrgId: key.organizationId,
      async verifierKey() {
        if (verifier) return verifier
        const doFetch = o.fetch ?? globalThis.fetch
        try {
          const res = await doFetch(`${baseUrl.replace(/\/+$/, '')}/healthz`)
          const json = (await res.json()) as { verifierPublicKey?: unknown }
          if (typeof json.verifierPublicKey === 'string') verifier = json.verifierPublicKey
        } catch {
          // handled below
        }
        if (!verifier) throw new SigilError('INTERNAL', 'the relay cannot check verification tokens: no verifier key configured')
        return verifier
      },
      async identity() {
        const doFetch = o.fetch ?? globalThis.fetch
        let json: unknown
        try {
          const res = await doFetch(`${baseUrl.replace(/\/+$/, '')}${SERVICE_IDENTITY_PATH}`)
          json = res.ok ? await res.json() : undefined
        } catch (cause) {
          throw new SigilError('UNAVAILABLE', 'the relay cannot reach its service', { cause })
        }
        const doc = ServiceIdentityDocument.safeParse(json)
        if (!doc.success) throw new SigilError('UNAVAILABLE', "the relay's service published no identity")
        return doc.data
      },
    }
  }
}
