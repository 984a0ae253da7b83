/**
 * A real OIDC issuer for tests, beside the service's own dev provider: an HTTP server on 127.0.0.1
 * with a discovery document and a JWKS (RS256 keys, rotatable), counting key fetches, optionally slow
 * or down, and signing ID tokens with any claims the test wants (expired, wrong audience, …).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose'

type Key = { kid: string; jwk: JWK; privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'] }

async function newKey(alg: 'RS256' | 'ES256'): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
  const jwk = await exportJWK(publicKey)
  const kid = await calculateJwkThumbprint(jwk)
  return { kid, jwk: { ...jwk, kid, alg, use: 'sig' }, privateKey }
}

export type TestIssuer = {
  issuer: string
  jwksUri: string
  /** How many times the JWKS (and discovery) were fetched. */
  fetches: { jwks: number; discovery: number }
  /** Milliseconds each answer waits (to exceed the service's timeout). */
  delayMs: number
  /** Answer 503 to everything. */
  down: boolean
  /** An ID token; claims override the defaults (iss, aud 'app-1', iat now, exp now+600). */
  sign(claims: Record<string, unknown>, o?: { kid?: string; key?: 'current' | 'foreign'; alg?: string }): Promise<string>
  /** Publishes a new key (and signs with it from now on); the old key stays published unless `drop`. */
  rotate(drop?: boolean): Promise<void>
  stop(): Promise<void>
}

export async function startTestIssuer(o: { audience?: string } = {}): Promise<TestIssuer> {
  let keys: Key[] = [await newKey('RS256')]
  const foreign = await newKey('RS256')
  const state = { delayMs: 0, down: false }
  const fetches = { jwks: 0, discovery: 0 }
  let base = ''
  const server: Server = createServer((req, res) => {
    const answer = () => {
      if (state.down) {
        res.writeHead(503).end()
        return
      }
      if (req.url === '/.well-known/openid-configuration') {
        fetches.discovery++
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer: base, jwks_uri: `${base}/jwks` }))
      } else if (req.url === '/jwks') {
        fetches.jwks++
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: keys.map((k) => k.jwk) }))
      } else {
        res.writeHead(404).end()
      }
    }
    if (state.delayMs > 0) setTimeout(answer, state.delayMs)
    else answer()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const audience = o.audience ?? 'app-1'
  return {
    issuer: base,
    jwksUri: `${base}/jwks`,
    fetches,
    get delayMs() {
      return state.delayMs
    },
    set delayMs(v: number) {
      state.delayMs = v
    },
    get down() {
      return state.down
    },
    set down(v: boolean) {
      state.down = v
    },
    async sign(claims, so = {}) {
      const key = so.key === 'foreign' ? foreign : (keys[keys.length - 1] as Key)
      const now = Math.floor(Date.now() / 1000)
      return new SignJWT({ iss: base, aud: audience, iat: now, exp: now + 600, ...claims })
        .setProtectedHeader({ alg: so.alg ?? 'RS256', kid: so.kid ?? (keys[keys.length - 1] as Key).kid, typ: 'JWT' })
        .sign(key.privateKey)
    },
    async rotate(drop = false) {
      const k = await newKey('RS256')
      keys = drop ? [k] : [...keys, k]
    },
    async stop() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
