import { describe, expect, it, vi } from 'vitest'
import { restrictStorageToTrustedContexts } from '@/src/extension/background/storageAccess'

describe('restrictStorageToTrustedContexts', () => {
  it('sets TRUSTED_CONTEXTS on each area that supports it and reports the others, never throwing', async () => {
    const local = { setAccessLevel: vi.fn(async () => {}) }
    const session = { setAccessLevel: vi.fn(async () => Promise.reject(new Error('nope'))) }
    const result = await restrictStorageToTrustedContexts({ local, session, sync: {}, managed: undefined })
    expect(local.setAccessLevel).toHaveBeenCalledWith({ accessLevel: 'TRUSTED_CONTEXTS' })
    expect(session.setAccessLevel).toHaveBeenCalledWith({ accessLevel: 'TRUSTED_CONTEXTS' })
    expect(result).toEqual({ local: 'restricted', session: 'failed: nope', sync: 'unsupported', managed: 'unsupported' })
  })
})
