import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { bytesToHex } from '../../src/crypto/encoding.js'
import { startTestService, submitBody } from './helpers/service.js'
import { rootUser } from './helpers/keys.js'

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]))
}

describe('service lifecycle', () => {
  it('restarts on the same data: same root organization, same admin key, data kept', async () => {
    const first = await startTestService({ databaseUrl: undefined })
    const dataDir = first.dataDir
    const created = await first.post(
      '/public/v1/submit/create_sub_organization',
      submitBody('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', first.admin.organizationId, {
        subOrganizationName: 'persisted',
        rootUsers: [rootUser('pat')],
        rootQuorumThreshold: 1,
        disableEmailRecovery: true,
        disableSmsAuth: true,
      }),
    )
    const subId = created.json.activity.result.createSubOrganizationResultV8.subOrganizationId
    const admin = first.admin
    await first.close()

    const second = await startTestService({ databaseUrl: undefined, dataDir })
    try {
      expect(second.admin).toEqual(admin)
      const users = await second.post('/public/v1/query/list_users', { organizationId: subId })
      expect(users.json.users.map((u: any) => u.userName)).toEqual(['pat'])
      const configs = await second.post('/public/v1/query/get_organization_configs', { organizationId: subId })
      expect(configs.json.configs.features.map((f: any) => f.name).sort()).toEqual(['FEATURE_NAME_EMAIL_RECOVERY', 'FEATURE_NAME_SMS_AUTH'])
      expect(statSync(join(dataDir, 'master.key')).mode & 0o777).toBe(0o600)
    } finally {
      await second.close()
    }
  })

  it('keeps the service keys sealed: no private key bytes in any file of the data dir', async () => {
    const svc = await startTestService({ databaseUrl: undefined })
    const secrets = Object.values(svc.rt.keys).map((k) => bytesToHex(k.privateKey))
    const rows = await svc.rt.db.query<{ private_key_enc: string }>('SELECT private_key_enc FROM service_keys')
    expect(rows.length).toBe(Object.keys(svc.rt.keys).length)
    await svc.close()
    for (const file of filesUnder(svc.dataDir)) {
      if (file.endsWith('admin-api-key.json') || file.endsWith('master.key')) continue
      const bytes = readFileSync(file)
      const asHex = bytes.toString('hex')
      const asText = bytes.toString('latin1')
      for (const s of secrets) {
        expect(asText.includes(s), file).toBe(false)
        expect(asHex.includes(s), file).toBe(false)
      }
    }
  })

  it('finishes in-flight requests on shutdown, then refuses new connections', async () => {
    const svc = await startTestService()
    const { request } = await import('node:http')
    const url = new URL(svc.url)
    // Requests whose bodies are half sent when shutdown starts: truly in flight.
    const inflight = await Promise.all(
      Array.from({ length: 3 }, async (_, i) => {
        const body = JSON.stringify(
          submitBody('ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE', svc.admin.organizationId, {
            name: 'FEATURE_NAME_WEBHOOK',
            value: String(i),
          }),
        )
        const stamp = await svc.adminStamper.stamp(body)
        const req = request({
          host: url.hostname,
          port: url.port,
          path: '/public/v1/submit/set_organization_feature',
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            [stamp.stampHeaderName]: stamp.stampHeaderValue,
          },
        })
        const done = new Promise<{ status: number; json: any }>((ok, fail) => {
          req.on('response', (res) => {
            let text = ''
            res.on('data', (d) => (text += String(d)))
            res.on('end', () => ok({ status: res.statusCode ?? 0, json: JSON.parse(text) }))
          })
          req.on('error', fail)
        })
        const half = Math.floor(body.length / 2)
        req.write(body.slice(0, half))
        await new Promise((r) => req.once('socket', (s) => (s.connecting ? s.once('connect', r) : r(null))))
        return { req, rest: body.slice(half), done }
      }),
    )
    await new Promise((r) => setTimeout(r, 100)) // the server has the headers and half of each body
    const closing = svc.close()
    await new Promise((r) => setTimeout(r, 100))
    for (const f of inflight) f.req.end(f.rest)
    const results = await Promise.all(inflight.map((f) => f.done))
    await closing
    for (const r of results) {
      expect(r.status).toBe(200)
      expect(r.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    }
    await expect(fetch(`${svc.url}/healthz`)).rejects.toThrow()
  })
})
