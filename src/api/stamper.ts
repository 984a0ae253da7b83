/** A stamp: one request-authentication header over the exact body bytes (wire-formats B1). */
export type Stamp = {
  stampHeaderName: 'X-Stamp' | 'X-Stamp-Webauthn' | 'X-Stamp-Attested' | (string & {})
  stampHeaderValue: string
}

/**
 * Anything that can authenticate a request body: an API key (raw or WebCrypto),
 * a passkey, an attested key. The client stamps the exact string it sends.
 */
export interface Stamper {
  stamp(body: string): Promise<Stamp>
}
