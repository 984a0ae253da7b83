/**
 * Connecting to another service (service/connect.ts) against the real local service: confirming
 * the new fingerprint ends the session and forgets everything tied to the old one — the wallet
 * password (its device key revoked while the session still can), the Ethereum and the Solana grants.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { PERMISSIONS_KEY, writeGrant } from '@/src/extension/background/dapp/evm/permissions'
import { SOLANA_PERMISSIONS_KEY, writeSolanaGrant } from '@/src/extension/background/dapp/solana/permissions'
import { confirmService, probeService } from '@/src/extension/background/service/connect'
import { setupPassword, VAULT_KEY, vaultStatus } from '@/src/extension/background/session/vault'
import { startTestService, type TestService } from '../../../../integration/helpers/service'
import { liveSession } from '../session/liveSession'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
}, 60_000)
afterAll(async () => {
  vi.useRealTimers()
  await svc?.stop()
})

describe('connect to a service', () => {
  it('forgets the wallet password (revoking its device key) and both families of site grants', async () => {
    const s = await liveSession(svc)
    await setupPassword(s.core, 'correct horse battery')
    const org = s.record.organizationId
    await writeGrant(s.f.deps.local, 'https://dapp.example', {
      accounts: ['0x1111111111111111111111111111111111111111'],
      organizationId: org,
      grantedAt: 1,
    })
    await writeSolanaGrant(s.f.deps.local, 'https://dapp.example', {
      accounts: ['So11111111111111111111111111111111111111112'],
      organizationId: org,
      grantedAt: 1,
    })
    const candidate = await probeService(s.core, { apiBaseUrl: svc.url, relayUrl: `${svc.url}/auth` })
    const from = s.paths.length
    await confirmService(s.core, { fingerprint: candidate.fingerprint })
    expect(s.paths.slice(from)).toContain('/public/v1/submit/delete_api_keys')
    expect(s.f.deps.local.data.has(VAULT_KEY)).toBe(false)
    expect(await vaultStatus(s.core)).toMatchObject({ hasPassword: false })
    expect(s.f.deps.local.data.has(PERMISSIONS_KEY)).toBe(false)
    expect(s.f.deps.local.data.has(SOLANA_PERMISSIONS_KEY)).toBe(false)
    expect(await s.core.current()).toBeNull()
  }, 60_000)
})
