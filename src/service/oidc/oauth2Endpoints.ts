/**
 * `SIGIL_OAUTH2_ENDPOINTS`: where oauth2_authenticate exchanges codes and asks who signed in, per
 * provider, beside the defaults (X's and Discord's own APIs; the dev identity provider while
 * `SIGIL_DEV_OIDC` is on). A JSON object:
 *
 *   { "OAUTH2_PROVIDER_X": { "tokenEndpoint": "https://api.x.com/2/oauth2/token",
 *                            "userinfoEndpoint": "https://api.x.com/2/users/me" } }
 */
import { z } from 'zod'
import { OAUTH2_PROVIDERS, type Oauth2Provider } from '../../api/oauth2.js'

/** One provider's endpoints. */
export type Oauth2Endpoints = { token: string; userinfo: string }

const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
const Entry = z.strictObject({ tokenEndpoint: HttpUrl, userinfoEndpoint: HttpUrl })
const Document = z.partialRecord(z.enum(OAUTH2_PROVIDERS), Entry)

/** Parses the variable (unset or empty: none); throws a message naming the provider and field. */
export function parseOauth2Endpoints(value: string | undefined): Partial<Record<Oauth2Provider, Oauth2Endpoints>> {
  if (!value?.trim()) return {}
  let json: unknown
  try {
    json = JSON.parse(value)
  } catch {
    throw new Error('SIGIL_OAUTH2_ENDPOINTS: must be a JSON object {"OAUTH2_PROVIDER_X": {tokenEndpoint, userinfoEndpoint}, …}')
  }
  const parsed = Document.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    if (issue?.code === 'unrecognized_keys' || issue?.code === 'invalid_key') {
      const key = issue.code === 'unrecognized_keys' ? issue.keys[0] : issue.path.join('.')
      throw new Error(`SIGIL_OAUTH2_ENDPOINTS: [${key}]: not a provider (${OAUTH2_PROVIDERS.join(', ')})`)
    }
    throw new Error(`SIGIL_OAUTH2_ENDPOINTS: [${issue?.path.join('.')}]: ${issue?.message}`)
  }
  const out: Partial<Record<Oauth2Provider, Oauth2Endpoints>> = {}
  for (const p of OAUTH2_PROVIDERS) {
    const e = parsed.data[p]
    if (e) out[p] = { token: e.tokenEndpoint, userinfo: e.userinfoEndpoint }
  }
  return out
}
