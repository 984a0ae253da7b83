import { describe, expect, it, vi } from 'vitest'
import { BACKOFF_MAX_MS, backoffDelayMs, createApprovalBackoff } from '@/src/extension/background/approval/backoff'
import type { Sender } from '@/src/extension/background/router'
import { MAX_PENDING_PER_ORIGIN } from '@/src/extension/background/approval/approvals'
import { verifyMessage } from 'viem'
import { ACCOUNT, EXT_ID, OTHER, PAGE, setup } from '../../approvalFixture'

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
  it('8 sites asking at once: one window at a time, in arrival order, each bound to its own id; an answer moves the window on, a close opens the next', async () => {
    const t = setup()
    await t.login()
    const replies: Array<Promise<any>> = []
    for (let i = 0; i < 8; i++) {
      replies.push(t.rpc('eth_requestAccounts', undefined, site(i)))
      await tick()
    }
    let w = await t.windowOpened(1)
    let id = w.approvalId
    let userCloses = 0
    for (let i = 0; i < 8; i++) {
      await tick()
      expect(t.windows).toHaveLength(1 + userCloses) // never a second window while one is open
      const shown = await t.popup('approvalGet', { id })
      expect(shown.result.origin).toBe(site(i).origin)
      expect((await t.popup('approvalShown', { id })).result).toEqual({ id, waiting: 7 - i })
      if (i % 2 === 0) {
        await t.popup('approvalResolve', { id, approved: false })
        const next = (await t.popup('approvalShown', { id })).result
        if (i === 7) break
        expect(next.id).not.toBe(id) // the same window shows the next request
        id = next.id
      } else {
        t.bg.onWindowRemoved(w.windowId) // the user closes the window: the next one opens
        userCloses++
        if (i === 7) break
        w = await t.windowOpened(1 + userCloses)
        id = w.approvalId
      }
    }
    for (const r of await Promise.all(replies)) expect(r).toMatchObject({ error: { code: 4001 } })
    expect(t.windows).toHaveLength(4)
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
    expect((await t.popup('approvalShown', { id: w.approvalId })).result).toEqual({ id: w.approvalId, waiting: 0 })
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect((await first).result).toHaveLength(1)
    expect((await t.popup('approvalShown', { id: w.approvalId })).result).toEqual({ id: null, waiting: 0 })
    await tick(1200)
    expect(t.closed).toEqual([w.windowId])
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

const hex = (text: string) => `0x${Buffer.from(text).toString('hex')}`

/** Connect PAGE, then have it ask for `n` personal_sign signatures, one after the other in arrival order. */
async function queued(n: number) {
  const t = setup()
  await t.connected()
  const replies: Array<Promise<any>> = []
  for (let i = 0; i < n; i++) {
    replies.push(t.rpc('personal_sign', [hex(`message ${i}`), ACCOUNT.address]))
    await vi.waitFor(() => expect(t.bg.state.approvals.size()).toBe(i + 1), { timeout: 10_000 })
  }
  const w = await t.windowOpened(2)
  return { t, replies, w }
}

describe('the approval queue of one window', () => {
  it('3 requests from one site wait in one window: counter 2, 1, 0; answered in order, each with its own result', async () => {
    const { t, replies, w } = await queued(3)
    let id = w.approvalId
    const texts: string[] = []
    for (let i = 0; i < 3; i++) {
      expect((await t.popup('approvalShown', { id })).result).toEqual({ id, waiting: 2 - i })
      const shown = await t.popup('approvalGet', { id })
      texts.push(shown.result.view.text)
      // the window names the account the request signs with
      expect(shown.result.names).toEqual({ [ACCOUNT.address]: 'Account 1' })
      expect(await t.popup('approvalResolve', { id, approved: true })).toEqual({ ok: true, result: { settled: true } })
      const next = (await t.popup('approvalShown', { id })).result
      if (i < 2) expect(next.id).not.toBe(id)
      else expect(next).toEqual({ id: null, waiting: 0 })
      id = next.id
    }
    expect(texts).toEqual(['message 0', 'message 1', 'message 2'])
    const results = await Promise.all(replies)
    for (let i = 0; i < 3; i++) {
      expect(await verifyMessage({ address: ACCOUNT.address, message: `message ${i}`, signature: results[i].result })).toBe(true)
    }
    expect(t.windows).toHaveLength(2) // the connect window, then one for all three
    await vi.waitFor(() => expect(t.closed).toContain(w.windowId), { timeout: 3000 })
  })

  it(`a site may have ${MAX_PENDING_PER_ORIGIN} requests waiting; more are refused at once with -32002, other sites still queue`, async () => {
    const { t, replies, w } = await queued(MAX_PENDING_PER_ORIGIN)
    const t0 = Date.now()
    expect(await t.rpc('personal_sign', [hex('one too many'), ACCOUNT.address])).toEqual({
      error: {
        code: -32002,
        message: `Too many requests from this site are waiting for approval (${MAX_PENDING_PER_ORIGIN}); wait for the user to answer them`,
      },
    })
    expect(Date.now() - t0).toBeLessThan(1000)
    const other = t.rpc('eth_requestAccounts', undefined, OTHER)
    await vi.waitFor(() => expect(t.bg.state.approvals.size()).toBe(MAX_PENDING_PER_ORIGIN + 1), { timeout: 10_000 })
    expect((await t.popup('approvalShown', { id: w.approvalId })).result.waiting).toBe(MAX_PENDING_PER_ORIGIN)
    expect(t.windows).toHaveLength(2)
    // a request holds its place until it settles (signed after the approval); then there is room for one more
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect((await replies[0]).result).toMatch(/^0x[0-9a-f]{130}$/)
    const more = t.rpc('personal_sign', [hex('room again'), ACCOUNT.address])
    await vi.waitFor(() => expect(t.bg.state.approvals.size()).toBe(MAX_PENDING_PER_ORIGIN + 1), { timeout: 10_000 })
    expect(await t.rpc('personal_sign', [hex('full again'), ACCOUNT.address])).toMatchObject({ error: { code: -32002 } })
    await t.bg.core.wipe('logout')
    for (const r of await Promise.all([...replies.slice(1), other, more])) expect(r).toMatchObject({ error: { code: 4001 } })
  })

  it(`100 concurrent requests from one site: ${MAX_PENDING_PER_ORIGIN} are prepared and queued, the other 90 are refused before any service read`, async () => {
    const t = setup()
    await t.login()
    // what one connect request costs the service (its accounts are read to fill the window)
    let before = t.calls.length
    const one = t.rpc('eth_requestAccounts', undefined, OTHER)
    const w = await t.windowOpened(1)
    const perRequest = t.calls.length - before
    expect(perRequest).toBeGreaterThan(0)
    before = t.calls.length
    const replies = Array.from({ length: 100 }, () => t.rpc('eth_requestAccounts'))
    const refused: any[] = []
    const rejected: any[] = []
    for (const r of replies)
      void r.then((reply) => (reply.error?.code === -32002 ? refused : reply.error?.code === 4001 ? rejected : []).push(reply))
    // 90 are refused; only the 10 admitted ones are prepared (their accounts read from the service)
    await vi.waitFor(() => expect(refused).toHaveLength(100 - MAX_PENDING_PER_ORIGIN), { timeout: 10_000 })
    for (const r of refused)
      expect(r).toEqual({
        error: {
          code: -32002,
          message: `Too many requests from this site are waiting for approval (${MAX_PENDING_PER_ORIGIN}); wait for the user to answer them`,
        },
      })
    await vi.waitFor(() => expect(t.bg.state.approvals.size()).toBe(MAX_PENDING_PER_ORIGIN + 1), { timeout: 10_000 })
    expect(t.calls.length - before).toBeLessThanOrEqual(MAX_PENDING_PER_ORIGIN * perRequest)
    // answering one makes room for exactly one more
    const queued = (await t.popup('approvalShown', { id: w.approvalId })).result
    expect(queued.waiting).toBe(MAX_PENDING_PER_ORIGIN)
    await t.popup('approvalResolve', { id: w.approvalId, approved: false })
    await one
    const next = (await t.popup('approvalShown', { id: w.approvalId })).result.id
    await t.popup('approvalResolve', { id: next, approved: false })
    await vi.waitFor(() => expect(rejected).toHaveLength(1), { timeout: 10_000 })
    t.f.advance(1000) // past the site's back-off after that rejection
    const [room, full] = [t.rpc('eth_requestAccounts'), t.rpc('eth_requestAccounts')]
    expect(await full).toMatchObject({ error: { code: -32002 } })
    await vi.waitFor(() => expect(t.bg.state.approvals.size()).toBe(MAX_PENDING_PER_ORIGIN), { timeout: 10_000 })
    await t.bg.core.wipe('logout')
    for (const r of await Promise.all([...replies, room])) expect(r).toMatchObject({ error: { code: expect.any(Number) } })
  })

  it('"Reject all" rejects the shown and every waiting request (4001 each, other sites too) and the window closes', async () => {
    const { t, replies, w } = await queued(3)
    const other = t.rpc('eth_requestAccounts', undefined, OTHER)
    await vi.waitFor(() => expect(t.bg.state.approvals.size()).toBe(4), { timeout: 10_000 })
    // only a window that showed a request may reject the queue
    expect(await t.popup('approvalRejectAll', { id: crypto.randomUUID() })).toEqual({ ok: true, result: { rejected: 0 } })
    expect(await t.popup('approvalRejectAll', { id: 'not-an-id' })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
    expect(t.bg.state.approvals.size()).toBe(4)
    expect(await t.popup('approvalRejectAll', { id: w.approvalId })).toEqual({ ok: true, result: { rejected: 4 } })
    for (const r of await Promise.all([...replies, other]))
      expect(r).toEqual({ error: { code: 4001, message: 'User rejected the request' } })
    expect((await t.popup('approvalShown', { id: w.approvalId })).result).toEqual({ id: null, waiting: 0 })
    await vi.waitFor(() => expect(t.closed).toContain(w.windowId), { timeout: 3000 })
    expect(t.calls.filter((c) => c.path.includes('/submit/'))).toHaveLength(0)
  })

  it('lock rejects the shown and the waiting requests (4100) and closes the window', async () => {
    const { t, replies, w } = await queued(3)
    await t.bg.core.wipe('lock')
    for (const r of await Promise.all(replies)) expect(r).toEqual({ error: { code: 4100, message: 'Unauthorized: the wallet was locked' } })
    expect((await t.popup('approvalShown', { id: w.approvalId })).result).toEqual({ id: null, waiting: 0 })
    await vi.waitFor(() => expect(t.closed).toContain(w.windowId), { timeout: 3000 })
    expect(t.windows).toHaveLength(2)
    expect(t.calls.filter((c) => c.path.includes('/submit/'))).toHaveLength(0)
  })

  it('closing the window rejects only the request it shows; the others stay queued and a new window shows the next', async () => {
    const { t, replies, w } = await queued(3)
    t.bg.onWindowRemoved(w.windowId)
    expect(await replies[0]).toEqual({ error: { code: 4001, message: 'User rejected the request' } })
    const w2 = await t.windowOpened(3)
    expect((await t.popup('approvalGet', { id: w2.approvalId })).result.view.text).toBe('message 1')
    expect((await t.popup('approvalShown', { id: w2.approvalId })).result).toEqual({ id: w2.approvalId, waiting: 1 })
    // the closed window's page has nothing left to show
    expect((await t.popup('approvalShown', { id: w.approvalId })).result).toEqual({ id: null, waiting: 0 })
    await t.popup('approvalRejectAll', { id: w2.approvalId })
    for (const r of await Promise.all(replies.slice(1))) expect(r).toMatchObject({ error: { code: 4001 } })
  })

  it('a closed tab rejects its own waiting requests; the window moves on to the other site', async () => {
    const { t, replies, w } = await queued(2)
    const other = t.rpc('eth_requestAccounts', undefined, OTHER)
    await vi.waitFor(() => expect(t.bg.state.approvals.size()).toBe(3), { timeout: 10_000 })
    t.bg.onTabRemoved(7) // PAGE's only tab
    for (const r of await Promise.all(replies))
      expect(r).toEqual({ error: { code: 4001, message: 'User rejected the request (the page was closed)' } })
    const next = (await t.popup('approvalShown', { id: w.approvalId })).result
    expect((await t.popup('approvalGet', { id: next.id })).result.origin).toBe(OTHER.origin)
    await t.popup('approvalResolve', { id: next.id, approved: false })
    expect(await other).toMatchObject({ error: { code: 4001 } })
    expect(t.windows).toHaveLength(2)
  })

  it(`logged out: each request of a site waits for the one login window, up to ${MAX_PENDING_PER_ORIGIN}; more get -32002; closing it rejects them all`, async () => {
    const t = setup({ loginWindow: true })
    const waiting = Array.from({ length: MAX_PENDING_PER_ORIGIN }, () => t.rpc('eth_requestAccounts'))
    await vi.waitFor(() => expect(t.bg.dapp.loginWanted()).toEqual([PAGE.origin]))
    await tick(100)
    expect(await t.rpc('eth_requestAccounts')).toMatchObject({
      error: { code: -32002, message: expect.stringContaining('Too many requests') },
    })
    expect(t.loginWindows).toHaveLength(1)
    t.bg.onWindowRemoved(t.loginWindows[0]!)
    for (const r of await Promise.all(waiting)) expect(r).toEqual({ error: { code: 4001, message: 'User rejected the request' } })
    expect(t.windows).toHaveLength(0)
  })
})
