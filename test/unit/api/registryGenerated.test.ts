/**
 * The operation tables are what `npm run registry` makes of the operation, activity and query files
 * (scripts/registry.ts): a schema or handler added without regenerating fails here, naming the file.
 */
import { describe, expect, it } from 'vitest'
import { render, stale } from '../../../scripts/registry.js'
import { SUBMIT_OPERATIONS } from '../../../src/api/registry.js'
import { ACTIVITY_HANDLERS } from '../../../src/service/activities/index.js'

describe('generated operation tables', () => {
  it('are up to date with the files they are made from', () => {
    expect(stale()).toEqual([])
  }, 30_000)

  it('give every submit type but the engine’s votes a handler, the versioned one where a file has it', () => {
    const engine = new Set(['ACTIVITY_TYPE_APPROVE_ACTIVITY', 'ACTIVITY_TYPE_REJECT_ACTIVITY'])
    const types = SUBMIT_OPERATIONS.map((d) => d.type).filter((t) => !engine.has(t))
    expect(Object.keys(ACTIVITY_HANDLERS).sort()).toEqual([...types].sort())
    const text = [...render().values()].join('\n')
    expect(text).toContain('ACTIVITY_TYPE_CREATE_USERS_V2: createUsersV2,')
    expect(text).toContain('ACTIVITY_TYPE_CREATE_USERS_V3: createUsers,')
    expect(text).toContain('ACTIVITY_TYPE_INIT_OTP_AUTH: initOtpAuthV1,')
  }, 30_000)
})
