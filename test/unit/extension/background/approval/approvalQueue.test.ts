import { describe, expect, it } from 'vitest'
import { BACKOFF_MAX_MS, backoffDelayMs, createApprovalBackoff } from '@/src/extension/background/approval/backoff'
import type { Sender } from '@/src/extension/background/router'
import { EXT_ID, setup } from '../../approvalFixture'

const site = (i: number): Sender => ({
  id: EXT_ID,
  url: `https://s${i}.flood.example/`,
  origin: `https://s${i}.flood.example`,
  tab: { id: 100 + i },
})
const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms))

describe('approval back-off', () => {
  it('1 s, 2 s, 4 s, 8 s, 16 s, then 30 s; counted from the rejection; an approval resets', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 100].map(backoffDelayMs)).toEqual([0, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000])
    expect(BACKOFF_MAX_MS).toBe(30_000)
    let t = 0
    const b = createApprovalBackoff(() => t)
    expect(b.remainingMs('https://a.example')).toBe(0)
    expect(b.rejected('https://a.example')).toBe(1000)
    expect(b.remainingMs('https://a.example')).toBe(1000)
    expect(b.remainingMs('https://b.example')).toBe(0)
    t += 1000
    expect(b.remainingMs('https://a.example')).toBe(0)
    expect(b.rejected('https://a.example')).toBe(2000)
    t += 1999
    expect(b.remainingMs('https://a.example')).toBe(1)
    b.approved('https://a.example')
    expect(b.remainingMs('https://a.example')).toBe(0)
    expect(b.rejected('https://a.example')).toBe(1000)
  })
})

describe('approval queue (one window at a time)', () => {
  it('8 sites asking at once get one window at a time, in arrival order, each bound to its own id', async () => {
    const t = setup()
    await t.login()
    const replies: Array<Promise<any>> = []
    for (let i = 0; i < 8; i++) {
      replies.push(t.rpc('eth_requestAccounts', undefined, site(i)))
      await tick()
    }
    for (let i = 0; i < 8; i++) {
      const w = await t.windowOpened(i + 1)
      await tick()
      expect(t.windows).toHaveLength(i + 1) // never a second window while one is open
      const shown = await t.popup('approvalGet', { id: w.approvalId })
      expect(shown.result.origin).toBe(site(i).origin)
      if (i % 2 === 0) await t.popup('approvalResolve', { id: w.approvalId, approved: false })
      else t.bg.onWindowRemoved(w.windowId) // the user closes the window
    }
    for (const r of await Promise.all(replies)) expect(r).toMatchObject({ error: { code: 4001 } })
  })

  it('a queued request is rejected when its last tab closes, and never shown', async () => {
    const t = setup()
    await t.login()
    const first = t.rpc('eth_requestAccounts', undefined, site(1))
    const w = await t.windowOpened(1)
    const queued = t.rpc('eth_requestAccounts', undefined, site(2))
    await tick()
    t.bg.onTabRemoved(102)
    expect(await queued).toEqual({ error: { code: 4001, message: 'User rejected the request (the page was closed)' } })
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect((await first).result).toHaveLength(1)
    await tick(1200)
    expect(t.windows).toHaveLength(1)
    // the page being gone is not a user rejection: no back-off for site 2
    const again = t.rpc('eth_requestAccounts', undefined, site(2))
    await t.windowOpened(2)
    t.bg.onWindowRemoved(t.windows[1]!.windowId)
    expect(await again).toMatchObject({ error: { code: 4001, message: 'User rejected the request' } })
  })

  it('after a rejection the origin is refused without a window for 1 s, then 2 s; then an approval goes through', async () => {
    const t = setup()
    await t.login()
    const ask = () => t.rpc('eth_requestAccounts', undefined, site(3))
    const answer = async (n: number, approved: boolean, reply: Promise<any>) => {
      const w = await t.windowOpened(n)
      await t.popup('approvalResolve', { id: w.approvalId, approved })
      return reply
    }
    expect(await answer(1, false, ask())).toEqual({ error: { code: 4001, message: 'User rejected the request' } })
    expect(await ask()).toEqual({
      error: { code: 4001, message: 'User rejected the request (this site asked again too soon; retry in 1 s)' },
    })
    t.f.advance(1000)
    expect(await answer(2, false, ask())).toMatchObject({ error: { code: 4001 } })
    t.f.advance(1999)
    expect(await ask()).toMatchObject({ error: { code: 4001, message: expect.stringContaining('too soon') } })
    expect(t.windows).toHaveLength(2)
    t.f.advance(1)
    expect((await answer(3, true, ask())).result).toHaveLength(1)
  })
})
