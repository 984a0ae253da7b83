/**
 * The OAuth 2.0 credential operations' parameters (create/update/delete_oauth2_credential,
 * get_oauth2_credential, oauth2_authenticate, the relay's /v1/oauth2_authenticate): the hosted
 * intents parse, each invalid field is named; and the client-secret envelope @turnkey/crypto
 * `encryptOauth2ClientSecret` makes opens with the service's key (and only with it).
 */
import { encryptOauth2ClientSecret } from '@turnkey/crypto'
import { describe, expect, it } from 'vitest'
import { MAX_OAUTH2_CLIENT_ID, MAX_OAUTH2_ENCRYPTED_SECRET } from '../../../src/api/limits.js'
import { createOauth2Credential } from '../../../src/api/operations/create_oauth2_credential.js'
import { deleteOauth2Credential } from '../../../src/api/operations/delete_oauth2_credential.js'
import { getOauth2Credential } from '../../../src/api/operations/get_oauth2_credential.js'
import { oauth2Authenticate } from '../../../src/api/operations/oauth2_authenticate.js'
import { updateOauth2Credential } from '../../../src/api/operations/update_oauth2_credential.js'
import { Oauth2AuthenticateRequest } from '../../../src/api/relay/oauth2.js'
import { parseOrThrow } from '../../../src/api/validation.js'
import { bytesToHex, hexToBytes, utf8Decode, utf8Encode } from '../../../src/crypto/encoding.js'
import { generateP256KeyPair } from '../../../src/crypto/p256.js'
import { decryptQuorumEnvelope, encryptQuorumEnvelope } from '../../../src/crypto/quorumEnvelope.js'
import { parseOauth2Endpoints } from '../../../src/service/oidc/oauth2Endpoints.js'
import { failure } from './fixtures.js'

const fields = (e: { fieldViolations: ReadonlyArray<{ field: string }> }) => e.fieldViolations.map((v) => v.field)
const CREDENTIAL = { provider: 'OAUTH2_PROVIDER_X', clientId: 'x-app', encryptedClientSecret: 'ab'.repeat(60) }
const VERIFIER = 'v'.repeat(43)
const AUTH = { oauth2CredentialId: 'c1', authCode: 'code', redirectUri: 'https://app.example.com/cb', codeVerifier: VERIFIER, nonce: 'n' }

describe('create_ and update_oauth2_credential', () => {
  it('accept the hosted intents', () => {
    expect(parseOrThrow(createOauth2Credential.parameters, CREDENTIAL, 'parameters')).toEqual(CREDENTIAL)
    const update = { ...CREDENTIAL, oauth2CredentialId: 'c1', provider: 'OAUTH2_PROVIDER_DISCORD' }
    expect(parseOrThrow(updateOauth2Credential.parameters, update, 'parameters')).toEqual(update)
  })

  it('name each invalid field', () => {
    const bad = (over: Record<string, unknown>) => fields(failure(createOauth2Credential.parameters, { ...CREDENTIAL, ...over }))
    expect(bad({ provider: 'OAUTH2_PROVIDER_GOOGLE' })).toEqual(['parameters.provider'])
    expect(bad({ clientId: '' })).toEqual(['parameters.clientId'])
    expect(bad({ clientId: 'x'.repeat(MAX_OAUTH2_CLIENT_ID + 1) })).toEqual(['parameters.clientId'])
    expect(bad({ encryptedClientSecret: '' })).toEqual(['parameters.encryptedClientSecret'])
    expect(bad({ encryptedClientSecret: 'a'.repeat(MAX_OAUTH2_ENCRYPTED_SECRET + 1) })).toEqual(['parameters.encryptedClientSecret'])
    expect(fields(failure(updateOauth2Credential.parameters, CREDENTIAL))).toEqual(['parameters.oauth2CredentialId'])
    expect(fields(failure(deleteOauth2Credential.parameters, {}))).toEqual(['parameters.oauth2CredentialId'])
    expect(fields(failure(getOauth2Credential.request, { organizationId: 'o' }, ''))).toEqual(['oauth2CredentialId'])
  })
})

describe('oauth2_authenticate', () => {
  it('accepts the hosted intent, with or without a bearer-token target', () => {
    expect(parseOrThrow(oauth2Authenticate.parameters, AUTH, 'parameters')).toEqual(AUTH)
    const withTarget = { ...AUTH, bearerTokenTargetPublicKey: '02'.padEnd(66, 'a') }
    expect(parseOrThrow(oauth2Authenticate.parameters, withTarget, 'parameters')).toEqual(withTarget)
  })

  it('names each invalid field (a PKCE verifier as RFC 7636 has it)', () => {
    const bad = (over: Record<string, unknown>) => fields(failure(oauth2Authenticate.parameters, { ...AUTH, ...over }))
    expect(bad({ oauth2CredentialId: '' })).toEqual(['parameters.oauth2CredentialId'])
    expect(bad({ authCode: '' })).toEqual(['parameters.authCode'])
    expect(bad({ redirectUri: 'app.example.com/cb' })).toEqual(['parameters.redirectUri'])
    expect(bad({ redirectUri: 'javascript:alert(1)' })).toEqual(['parameters.redirectUri'])
    expect(bad({ codeVerifier: 'v'.repeat(42) })).toEqual(['parameters.codeVerifier'])
    expect(bad({ codeVerifier: 'v'.repeat(129) })).toEqual(['parameters.codeVerifier'])
    expect(bad({ codeVerifier: `${'v'.repeat(42)}+` })).toEqual(['parameters.codeVerifier'])
    expect(bad({ nonce: '' })).toEqual(['parameters.nonce'])
  })

  it('the relay body: provider and client id instead of the credential id', () => {
    const body = {
      provider: 'OAUTH2_PROVIDER_DISCORD',
      clientId: 'd-app',
      authCode: 'c',
      redirectUri: AUTH.redirectUri,
      codeVerifier: VERIFIER,
      nonce: 'n',
    }
    expect(parseOrThrow(Oauth2AuthenticateRequest, body, '')).toEqual(body)
    expect(fields(failure(Oauth2AuthenticateRequest, { ...body, provider: 'X' }, ''))).toEqual(['provider'])
    expect(fields(failure(Oauth2AuthenticateRequest, { ...body, clientId: undefined }, ''))).toEqual(['clientId'])
  })
})

describe('client-secret envelope (QOS quorum-key encryption)', () => {
  it('opens what @turnkey/crypto encryptOauth2ClientSecret made for our key, and what we make', async () => {
    const kp = generateP256KeyPair()
    const official = await encryptOauth2ClientSecret('client-secret-💡', bytesToHex(kp.publicKeyUncompressed))
    const r = await decryptQuorumEnvelope(hexToBytes(official), kp.privateKey)
    expect(r.ok && utf8Decode(r.plaintext)).toBe('client-secret-💡')

    const ours = await encryptQuorumEnvelope(utf8Encode('other'), kp.publicKeyUncompressed)
    const back = await decryptQuorumEnvelope(ours, kp.privateKey)
    expect(back.ok && utf8Decode(back.plaintext)).toBe('other')
  })

  it('refuses another key, a flipped byte and a wrong length as values', async () => {
    const kp = generateP256KeyPair()
    const other = generateP256KeyPair()
    const env = hexToBytes(await encryptOauth2ClientSecret('s', bytesToHex(kp.publicKeyUncompressed)))
    expect(await decryptQuorumEnvelope(env, other.privateKey)).toEqual({ ok: false, reason: 'ENVELOPE_DECRYPT_FAILED' })
    const flipped = env.slice()
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] as number) ^ 1
    expect(await decryptQuorumEnvelope(flipped, kp.privateKey)).toEqual({ ok: false, reason: 'ENVELOPE_DECRYPT_FAILED' })
    expect(await decryptQuorumEnvelope(env.subarray(0, env.length - 1), kp.privateKey)).toEqual({
      ok: false,
      reason: 'ENVELOPE_MALFORMED',
    })
    expect(await decryptQuorumEnvelope(new Uint8Array(20), kp.privateKey)).toEqual({ ok: false, reason: 'ENVELOPE_MALFORMED' })
    expect(bytesToHex(env.subarray(12, 13))).toBe('04')
  })
})

describe('SIGIL_OAUTH2_ENDPOINTS', () => {
  it('reads the providers it names; unset is none', () => {
    expect(parseOauth2Endpoints(undefined)).toEqual({})
    expect(parseOauth2Endpoints(' ')).toEqual({})
    const x = { tokenEndpoint: 'https://x.example/token', userinfoEndpoint: 'https://x.example/me' }
    expect(parseOauth2Endpoints(JSON.stringify({ OAUTH2_PROVIDER_X: x }))).toEqual({
      OAUTH2_PROVIDER_X: { token: 'https://x.example/token', userinfo: 'https://x.example/me' },
    })
  })

  it('refuses bad JSON, an unknown provider, a missing or non-http URL, naming it', () => {
    expect(() => parseOauth2Endpoints('{')).toThrow(/SIGIL_OAUTH2_ENDPOINTS: must be a JSON object/)
    expect(() => parseOauth2Endpoints('{"OAUTH2_PROVIDER_GITHUB": {}}')).toThrow(/SIGIL_OAUTH2_ENDPOINTS: \[OAUTH2_PROVIDER_GITHUB\]/)
    expect(() => parseOauth2Endpoints('{"OAUTH2_PROVIDER_X": {"tokenEndpoint": "https://a.example"}}')).toThrow(
      /\[OAUTH2_PROVIDER_X.userinfoEndpoint\]/,
    )
    expect(() =>
      parseOauth2Endpoints('{"OAUTH2_PROVIDER_X": {"tokenEndpoint": "ftp://a.example", "userinfoEndpoint": "https://a.example"}}'),
    ).toThrow(/\[OAUTH2_PROVIDER_X.tokenEndpoint\]: must be an http\(s\) URL/)
  })
})
