/**
 * Secret wire schemas (init_import_secrets, import_secrets, export_secrets, delete_secrets,
 * list_secrets): the hosted shapes pass, and each bad field is refused by name.
 */
import { describe, expect, it } from 'vitest'
import { MAX_SECRET_PAYLOAD, MAX_SECRET_STATIC_PROPERTIES, MAX_SECRETS_PER_REQUEST } from '../../../src/api/limits.js'
import { deleteSecrets } from '../../../src/api/operations/delete_secrets.js'
import { exportSecrets } from '../../../src/api/operations/export_secrets.js'
import { importSecrets } from '../../../src/api/operations/import_secrets.js'
import { initImportSecrets } from '../../../src/api/operations/init_import_secrets.js'
import { listSecrets } from '../../../src/api/operations/list_secrets.js'
import { parseOrThrow } from '../../../src/api/validation.js'
import { activityResourceAction } from '../../../src/service/policy/activity.js'
import { failure, ORG } from './fixtures.js'

const SUITE = 'TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1'
const KEY = `04${'ab'.repeat(64)}`
const fields = (schema: Parameters<typeof failure>[0], value: unknown, prefix?: string) =>
  failure(schema, value, prefix).fieldViolations.map((v) => v.field)
const importOf = (over: Record<string, unknown> = {}) => ({
  secrets: [{ secretPayload: '{}', targetPublicKey: KEY, encryptionSuite: SUITE, ...over }],
})

describe('init_import_secrets parameters', () => {
  it('takes the one suite and 1..32 secrets', () => {
    expect(parseOrThrow(initImportSecrets.parameters, { encryptionSuite: SUITE, numSecrets: 32 }, 'parameters').numSecrets).toBe(32)
    for (const numSecrets of [0, MAX_SECRETS_PER_REQUEST + 1, 1.5, '1']) {
      expect(fields(initImportSecrets.parameters, { encryptionSuite: SUITE, numSecrets })).toEqual(['parameters.numSecrets'])
    }
    expect(fields(initImportSecrets.parameters, { encryptionSuite: 'TRANSPORT_ENCRYPTION_SUITE_NONE', numSecrets: 1 })).toEqual([
      'parameters.encryptionSuite',
    ])
    expect(fields(initImportSecrets.parameters, { numSecrets: 1 })).toEqual(['parameters.encryptionSuite'])
  })
})

describe('import_secrets parameters', () => {
  it('accepts the hosted shape, with or without a name and static properties', () => {
    expect(() => parseOrThrow(importSecrets.parameters, importOf(), 'parameters')).not.toThrow()
    const full = importOf({ name: 'corporateVisa', staticProperties: [{ key: 'kind', value: 'creditCard' }, { key: 'flag' }] })
    expect(parseOrThrow(importSecrets.parameters, full, 'parameters').secrets[0]?.staticProperties).toHaveLength(2)
  })

  it('names each bad field', () => {
    expect(fields(importSecrets.parameters, { secrets: [] })).toEqual(['parameters.secrets'])
    expect(fields(importSecrets.parameters, importOf({ secretPayload: '' }))).toEqual(['parameters.secrets[0].secretPayload'])
    expect(fields(importSecrets.parameters, importOf({ secretPayload: 'x'.repeat(MAX_SECRET_PAYLOAD + 1) }))).toEqual([
      'parameters.secrets[0].secretPayload',
    ])
    expect(fields(importSecrets.parameters, importOf({ targetPublicKey: undefined }))).toEqual(['parameters.secrets[0].targetPublicKey'])
    expect(fields(importSecrets.parameters, importOf({ encryptionSuite: 'X' }))).toEqual(['parameters.secrets[0].encryptionSuite'])
    expect(fields(importSecrets.parameters, importOf({ name: '' }))).toEqual(['parameters.secrets[0].name'])
    expect(fields(importSecrets.parameters, importOf({ staticProperties: [{ key: '', value: 'v' }] }))).toEqual([
      'parameters.secrets[0].staticProperties[0].key',
    ])
    const many = Array.from({ length: MAX_SECRET_STATIC_PROPERTIES + 1 }, (_, i) => ({ key: `k${i}`, value: 'v' }))
    expect(fields(importSecrets.parameters, importOf({ staticProperties: many }))).toEqual(['parameters.secrets[0].staticProperties'])
    const tooMany = { secrets: Array.from({ length: MAX_SECRETS_PER_REQUEST + 1 }, () => importOf().secrets[0]) }
    expect(fields(importSecrets.parameters, tooMany)).toEqual(['parameters.secrets'])
  })
})

describe('export_secrets and delete_secrets parameters', () => {
  it('export names the secret, its target key and suite', () => {
    const one = { secretId: 's', targetPublicKey: KEY, encryptionSuite: SUITE }
    expect(() => parseOrThrow(exportSecrets.parameters, { secrets: [one] }, 'parameters')).not.toThrow()
    expect(fields(exportSecrets.parameters, { secrets: [{ ...one, secretId: '' }] })).toEqual(['parameters.secrets[0].secretId'])
    expect(fields(exportSecrets.parameters, { secrets: [{ ...one, targetPublicKey: '' }] })).toEqual([
      'parameters.secrets[0].targetPublicKey',
    ])
    expect(fields(exportSecrets.parameters, { secrets: [{ ...one, encryptionSuite: undefined }] })).toEqual([
      'parameters.secrets[0].encryptionSuite',
    ])
    expect(fields(exportSecrets.parameters, { secrets: [] })).toEqual(['parameters.secrets'])
  })

  it('delete takes 1..32 distinct UUIDs', () => {
    const id = crypto.randomUUID()
    expect(() => parseOrThrow(deleteSecrets.parameters, { secretIds: [id] }, 'parameters')).not.toThrow()
    expect(fields(deleteSecrets.parameters, { secretIds: [] })).toEqual(['parameters.secretIds'])
    expect(fields(deleteSecrets.parameters, { secretIds: [id, 'nope'] })).toEqual(['parameters.secretIds[1]'])
    expect(fields(deleteSecrets.parameters, { secretIds: [id, id] })).toEqual(['parameters.secretIds'])
    const many = Array.from({ length: MAX_SECRETS_PER_REQUEST + 1 }, () => crypto.randomUUID())
    expect(fields(deleteSecrets.parameters, { secretIds: many })).toEqual(['parameters.secretIds'])
  })

  it('list takes an organization and pagination; its metadata has no value field', () => {
    expect(() => parseOrThrow(listSecrets.request, { organizationId: ORG, paginationOptions: { limit: '5' } }, '')).not.toThrow()
    expect(fields(listSecrets.request, { organizationId: ORG, paginationOptions: { limit: '0' } }, '')).toEqual(['paginationOptions.limit'])
    const item = listSecrets.response.shape.secrets.element
    expect(Object.keys(item.shape).sort()).toEqual(['createdAtUnixMs', 'name', 'secretId', 'staticProperties'])
  })
})

describe('policies see secrets as the SECRET resource', () => {
  it('import, export and delete are their own actions', () => {
    expect(activityResourceAction('ACTIVITY_TYPE_INIT_IMPORT_SECRETS')).toEqual({ resource: 'SECRET', action: 'IMPORT' })
    expect(activityResourceAction('ACTIVITY_TYPE_IMPORT_SECRETS')).toEqual({ resource: 'SECRET', action: 'IMPORT' })
    expect(activityResourceAction('ACTIVITY_TYPE_EXPORT_SECRETS')).toEqual({ resource: 'SECRET', action: 'EXPORT' })
    expect(activityResourceAction('ACTIVITY_TYPE_DELETE_SECRETS')).toEqual({ resource: 'SECRET', action: 'DELETE' })
  })
})
