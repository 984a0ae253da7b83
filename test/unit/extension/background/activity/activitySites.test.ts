/**
 * The site in activity rows: a dApp request approved in our window records its
 * origin under the activity it became, and the popup's Activity list says "for <site>"; the
 * service is never told.
 */
import { describe, expect, it } from 'vitest'
import {
  ACTIVITY_SITES_KEY,
  activitySites,
  MAX_ACTIVITY_SITES,
  recordActivitySite,
} from '@/src/extension/background/activity/activitySites'
import { ACCOUNT, activity, OTHER, setup } from '../../approvalFixture'
import { fakeDeps } from '../../fakeDeps'

const hello = `0x${Buffer.from('hello sigil').toString('hex')}`

/** The fixture's sign answers are activity `act-1`; the list has it and a login nobody asked for. */
function withActivities() {
  const signed = activity('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', {}).activity
  const list = [
    { ...signed, intent: { signRawPayloadIntentV2: { signWith: ACCOUNT.address, encoding: 'PAYLOAD_ENCODING_HEXADECIMAL' } } },
    { ...signed, id: 'act-2', type: 'ACTIVITY_TYPE_OTP_LOGIN_V2', intent: {} },
  ]
  return setup({ extra: (url) => (url.pathname === '/public/v1/query/list_activities' ? { activities: list } : undefined) })
}

describe('activity rows name the site that asked', () => {
  it('an approved personal_sign becomes "Signed a message for dapp.example"; the service hears nothing of the site', async () => {
    const t = withActivities()
    await t.connected()
    const pending = t.rpc('personal_sign', [hello, ACCOUNT.address])
    const w = await t.windowOpened(2)
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(await pending).toMatchObject({ result: expect.stringMatching(/^0x/) })
    const { result } = await t.popup('listActivities')
    expect(result.activities.map((a: { id: string; title: string; origin?: string }) => [a.id, a.title, a.origin])).toEqual([
      [
        'act-1',
        // the signer is the user's own account: it goes by its name
        'Signed a message for dapp.example with Account 1',
        'https://dapp.example',
      ],
      ['act-2', 'Logged in', undefined],
    ])
    const sent = JSON.stringify(t.calls.filter((c) => c.path.startsWith('/public/')))
    expect(sent).not.toContain('dapp.example')
  })

  it('a rejected request records nothing', async () => {
    const t = withActivities()
    await t.connected()
    const pending = t.rpc('personal_sign', [hello, ACCOUNT.address])
    const w = await t.windowOpened(2)
    await t.popup('approvalResolve', { id: w.approvalId, approved: false })
    expect(await pending).toMatchObject({ error: { code: 4001 } })
    expect((await activitySites(t.f.deps.local)).size).toBe(0)
    expect((await t.popup('listActivities')).result.activities[0].title).toMatch(/^Signed a message with /)
  })

  it('keeps the newest entries, loses none to concurrent writes, and ignores an unreadable record', async () => {
    const { deps } = fakeDeps()
    await Promise.all([
      recordActivitySite(deps.local, 'a', 'https://one.example', 1),
      recordActivitySite(deps.local, 'b', OTHER.origin as string, 2),
    ])
    expect([...(await activitySites(deps.local))]).toEqual([
      ['a', 'https://one.example'],
      ['b', 'https://other.example'],
    ])
    for (let i = 0; i < MAX_ACTIVITY_SITES; i++) await recordActivitySite(deps.local, `x${i}`, 'https://many.example', 10 + i)
    const sites = await activitySites(deps.local)
    expect(sites.size).toBe(MAX_ACTIVITY_SITES)
    expect(sites.has('a')).toBe(false)
    expect(sites.get(`x${MAX_ACTIVITY_SITES - 1}`)).toBe('https://many.example')
    await deps.local.set({ [ACTIVITY_SITES_KEY]: { v: 1, entries: 'nope' } })
    expect((await activitySites(deps.local)).size).toBe(0)
  })
})
