/**
 * create_sub_organization with a verification token and client signature (wire-formats B3,
 * B6 sign-up): the token must verify the root user's contact; the signature must be the
 * sign-up message for that token by the key the token is bound to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex } from '../../src/crypto/encoding.js'
import { signClientSignature } from '../../src/crypto/jwt.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
})
afterAll(async () => {
  await svc?.stop()
})

async function tokenFor(contact: string, clientKey: ReturnType<typeof generateP256KeyPair>) {
  const org = svc.admin.organizationId
  const init = await svc.post(
    '/public/v1/submit/init_otp',
    submitBody('ACTIVITY_TYPE_INIT_OTP_V3', org, { otpType: 'OTP_TYPE_EMAIL', contact, appName: 'Sigil', alphanumeric: false }),
  )
  const otpId = init.json.activity.result.initOtpResultV2.otpId
  const { messages } = (await (await fetch(`${svc.url}/dev/messages`)).json()) as { messages: Array<{ to: string; text: string }> }
  const code = messages.find((m) => m.to === contact)?.text.match(/code is:? ([0-9A-Z]+)/)?.[1]
  const verified = await svc.post(
    '/public/v1/submit/verify_otp',
    submitBody('ACTIVITY_TYPE_VERIFY_OTP', org, { otpId, otpCode: code, publicKey: bytesToHex(clientKey.publicKey) }),
  )
  expect(verified.status).toBe(200)
  const token = verified.json.activity.result.verifyOtpResult.verificationToken as string
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { id: string }
  return { token, tokenId: claims.id }
}

const signup = (email: string, extra: Record<string, unknown>) =>
  svc.post(
    '/public/v1/submit/create_sub_organization',
    submitBody('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', svc.admin.organizationId, {
      subOrganizationName: `sub ${email}`,
      rootUsers: [{ userName: email, userEmail: email, apiKeys: [], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
      ...extra,
    }),
  )

describe('sign-up with a verification token', () => {
  it('accepts a token for the root user email with a matching client signature', async () => {
    const key = generateP256KeyPair()
    const { token, tokenId } = await tokenFor('tess@example.com', key)
    const message = JSON.stringify({ signupV2: { email: 'tess@example.com' }, tokenId, type: 'USAGE_TYPE_SIGNUP' })
    const clientSignature = signClientSignature({ privateKey: key.privateKey, message })
    const r = await signup('tess@example.com', { verificationToken: token, clientSignature })
    expect(r.status).toBe(200)
    expect(r.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  })

  it('refuses a token for another contact, a forged token and a signature by another key', async () => {
    const key = generateP256KeyPair()
    const { token, tokenId } = await tokenFor('uma@example.com', key)
    const other = await signup('vic@example.com', { verificationToken: token })
    expect(other.status).toBe(401)
    expect(other.json.message).toContain('parameters.verificationToken')

    const parts = token.split('.')
    const forged = `${parts[0]}.${parts[1]}.${parts[2]!.slice(0, -4)}AAAA`
    const bad = await signup('uma@example.com', { verificationToken: forged })
    expect(bad.status).toBe(401)

    const stranger = generateP256KeyPair()
    const message = JSON.stringify({ signupV2: { email: 'uma@example.com' }, tokenId, type: 'USAGE_TYPE_SIGNUP' })
    const wrongKey = signClientSignature({ privateKey: stranger.privateKey, message })
    const r = await signup('uma@example.com', { verificationToken: token, clientSignature: wrongKey })
    expect(r.status).toBe(400)
    expect(r.json.message).toContain('parameters.clientSignature.publicKey')

    const wrongMessage = signClientSignature({
      privateKey: key.privateKey,
      message: JSON.stringify({ tokenId: 'x', type: 'USAGE_TYPE_SIGNUP' }),
    })
    const r2 = await signup('uma@example.com', { verificationToken: token, clientSignature: wrongMessage })
    expect(r2.status).toBe(400)
    expect(r2.json.message).toContain('parameters.clientSignature.message')

    const subs = await svc.post('/public/v1/query/list_suborgs', {
      organizationId: svc.admin.organizationId,
      filterType: 'EMAIL',
      filterValue: 'uma@example.com',
    })
    expect(subs.json.organizationIds).toEqual([])
  })
})
