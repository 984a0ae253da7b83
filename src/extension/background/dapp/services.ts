/**
 * What dApp handlers need beyond the router: the approval window (ask the user, bound to the
 * request's id), the tabs each origin talks from (to push EIP-1193 events), and the reaction
 * to a wipe (reject everything pending, tell connected tabs `accountsChanged []`).
 * Browser APIs come in through {@link DappPlatform}; without one, every approval is rejected.
 *
 * The approval queue: requests from sites wait their turn in one FIFO queue (across origins),
 * each bound to its own id and its own 5-minute timeout (counted from the request), approved or
 * rejected on its own. One approval window exists at a time: when its request is answered (or
 * times out, or its page closes) the same window is bound to the next waiting request and the
 * page asks {@link DappServices.shownIn} what it shows now, with how many wait behind it; the
 * window closes {@link CLOSE_DELAY_MS} after the last one. Closing the window rejects only the
 * request it shows: the others stay queued and a new window opens for the next (as MetaMask
 * does; "Reject all" in the window rejects them all, each with its own 4001).
 *
 * Flood control: one window at a time, opened only after the previous one is gone, so a flood
 * cannot pile up windows or steal focus repeatedly; at most {@link MAX_PENDING_PER_ORIGIN} (10)
 * requests of one origin that may ask the user are in flight at once, counted from the moment the
 * router admits them ({@link DappServices.admit}), so while they are still being prepared (accounts
 * read, transaction simulated) too: more are refused at once with -32002 ({@link TOO_MANY_PENDING})
 * before any work; {@link createApprovalBackoff} refuses a rejecting origin's re-prompts. Lock/logout reject the
 * shown and the queued requests; a closed tab rejects the requests of an origin left without tabs.
 *
 * Connecting while logged out: instead of 4100 at once, {@link DappServices.waitForLogin}
 * opens Sigil's own window on the login screen (one window for every waiting site) and the
 * request waits for a login; closing that window, the timeout or a wipe rejects it with 4001
 * (4100 on lock). After the login the window is closed and the request goes on to its approval.
 */
import { RPC_ERROR, rpcError } from '../../protocol/rpcErrors'
import type { ProviderEventName } from '../../protocol/page'
import type { ProviderEventMessage } from '../../protocol/runtime'
import { backedOffError, createApprovalBackoff } from '../approval/backoff'
import { APPROVAL_TIMEOUT_MS, MAX_PENDING_PER_ORIGIN, TOO_MANY_PENDING, USER_REJECTED, type ApprovalOutcome } from '../approval/approvals'
import type { ApprovalView } from '../../protocol/approvalView'
import type { Core } from '../core'
import { grantedOrigins } from './evm/permissions'
import { solanaGrantedOrigins } from './solana/permissions'
import { createPhishingCheck } from './phishing'
import type { EndReason } from '../session/sessionRecord'
import type { BackgroundState } from '../state'

/** What an approval window shows now: the request's id (null when it has nothing left to show) and how many wait behind it. */
export type ShownRequest = { id: string | null; waiting: number }

/** How long the approval page gets to show its result and close itself before the background closes it. */
export const CLOSE_DELAY_MS = 1000

/** Browser APIs for approvals and events (`browser.windows`, `browser.tabs`). */
export type DappPlatform = {
  /** Open `approval.html?id=<id>` in its own popup window; resolves to the window id. */
  openApprovalWindow(id: string): Promise<number>
  /** Open Sigil's own page (the popup, on its login screen) in a window; resolves to the window id. Absent: no login window (4100). */
  openLoginWindow?(): Promise<number>
  closeWindow(windowId: number): Promise<void>
  /** Send to the tab; with `documentId` only that document gets it (not a page the tab navigated to). */
  sendToTab(tabId: number, message: ProviderEventMessage, documentId?: string): Promise<void>
}

/** A platform that cannot open windows: every approval is rejected (fail-closed default). */
export const WINDOWLESS_PLATFORM: DappPlatform = {
  openApprovalWindow: () => Promise.reject(new Error('no approval window available')),
  closeWindow: async () => {},
  sendToTab: async () => {},
}

/** The dApp services. */
export type DappServices = {
  /** Settles when the services are ready (each site's chain is read from the persistent area when needed). */
  ready: Promise<void>
  /** Remember that `origin` talks from `tabId` (and document, when the browser says) for pushed events. */
  seen(origin: string, tabId: number, documentId?: string): void
  /**
   * Ask the user in the approval window (queued behind the requests already waiting); a missing
   * answer is a rejection; -32002 at once while `origin` has {@link MAX_PENDING_PER_ORIGIN} (10)
   * requests in flight (admitted or asking). Through an admitted request's `dapp`, the request's
   * own place is used.
   */
  ask(origin: string, method: string, view: ApprovalView): Promise<ApprovalOutcome>
  /**
   * Admit one request of `origin` that may ask the user: it holds one of the site's
   * {@link MAX_PENDING_PER_ORIGIN} places until `release()` (when it settles), while it is prepared,
   * waits for a login or waits in the queue; undefined when every place is taken (the router answers
   * -32002 without running the handler). `dapp` is what the request's handler uses: its `ask` for
   * `origin` takes the admitted place instead of a new one.
   */
  admit(origin: string): { dapp: DappServices; release(): void } | undefined
  /**
   * The request the window that showed `id` shows now: `id` itself while it waits, the next
   * request once `id` is settled and the window moved on, or null (the window has nothing left).
   */
  shownIn(id: string): ShownRequest
  /** "Reject all" in the window that showed `id`: reject its request and every queued one (4001 each); returns how many. */
  rejectQueue(id: string): number
  /**
   * Nobody is logged in: open Sigil's window on the login screen and wait for a login
   * (approved), or its window closed, timeout or a wipe (rejected). Each request of a site
   * waits on its own, up to {@link MAX_PENDING_PER_ORIGIN} per site (-32002 beyond).
   */
  waitForLogin(origin: string): Promise<ApprovalOutcome>
  /** The origins waiting for a login, oldest first (named on the login screen). */
  loginWanted(): string[]
  /** Open Sigil's own window (its home and Activity when logged in); false when no window can be opened. */
  showWallet?(): Promise<boolean>
  /** Push an event to every known tab of `origin`. */
  emit(origin: string, event: ProviderEventName, data: unknown): void
  /** Push an event to every known tab. */
  emitAll(event: ProviderEventName, data: unknown): void
  /** A browser window closed. */
  windowClosed(windowId: number): void
  /** A tab closed: forget it; an origin left without tabs loses its pending requests (4001). */
  tabClosed(tabId: number): void
  /** Lock, logout or expiry: reject everything pending, tell connected tabs their accounts are gone. */
  onWipe(reason: EndReason): Promise<void>
}

/** Error a wipe rejects pending approvals with: 4100 when locked, 4001 otherwise. */
export function wipeError(reason: EndReason) {
  return reason === 'lock' || reason === 'auto-lock'
    ? rpcError(RPC_ERROR.UNAUTHORIZED, 'Unauthorized: the wallet was locked')
    : USER_REJECTED
}

/** 4100 when no login window can open (what a site got before a connection while logged out waited for a login; kept for window-less platforms). */
export const LOGIN_UNAVAILABLE = rpcError(RPC_ERROR.UNAUTHORIZED, 'Unauthorized: not logged in')

/** The 4001 of a request whose page is gone (not counted as a user rejection for the back-off). */
export const PAGE_GONE = rpcError(RPC_ERROR.USER_REJECTED, 'User rejected the request (the page was closed)')

/** Create the services. */
export function createDappServices(state: BackgroundState, core: Core, platform: DappPlatform): DappServices {
  /** Every request that asks the user is checked against the phishing list and the connected sites first. */
  const phishingCheck = createPhishingCheck({
    local: core.deps.local,
    listUrl: async () => (await core.settings()).phishingListUrl ?? '',
    connectedOrigins: async () => [...(await grantedOrigins(core.deps.local)), ...(await solanaGrantedOrigins(core.deps.local))],
    ...(core.deps.fetch ? { fetch: core.deps.fetch } : {}),
  })
  /** origin → tabId → documentId ('' when unknown). A tab belongs to the last origin heard from it. */
  const tabs = new Map<string, Map<number, string>>()
  const ready = Promise.resolve()

  function forget(tabId: number): void {
    for (const docs of tabs.values()) docs.delete(tabId)
  }

  const backoff = createApprovalBackoff(() => core.now())
  /** Requests waiting for the window, oldest first (settled ones are skipped when reached). */
  const queue: Array<{ id: string; outcome: Promise<ApprovalOutcome> }> = []
  /**
   * The window that is ours (undefined when none): the request it shows (`id`), every request it
   * has shown (so its page can ask what follows one it answered) and its id once it has opened.
   */
  let showing: { id: string; shown: Set<string>; windowId?: number } | undefined
  /** Counts wipes, so a request rejected by lock/logout is not a user rejection. */
  let wipes = 0

  /** Sites waiting for a login: origin → settle (each also has its own timeout). */
  const loginWaiters = new Map<string, Set<(outcome: ApprovalOutcome) => void>>()
  /** Sigil's login window while one is ours (windowId undefined while it opens). */
  let loginWindow: { windowId?: number } | undefined

  function settleLogins(outcome: ApprovalOutcome): void {
    const waiting = [...loginWaiters.values()].flatMap((settles) => [...settles])
    loginWaiters.clear()
    for (const settle of waiting) settle(outcome)
    const win = loginWindow
    loginWindow = undefined
    if (win?.windowId !== undefined && outcome.approved) void platform.closeWindow(win.windowId).catch(() => {})
  }

  core.onSession(() => settleLogins({ approved: true }))

  async function openLoginWindow(open: () => Promise<number>): Promise<void> {
    const current: { windowId?: number } = {}
    loginWindow = current
    try {
      current.windowId = await open()
    } catch {
      if (loginWindow === current) settleLogins({ approved: false, error: USER_REJECTED })
      return
    }
    // Logged in (or given up) while the window was opening: it is not needed any more.
    if (loginWindow !== current) await platform.closeWindow(current.windowId).catch(() => {})
  }

  function release(current: NonNullable<typeof showing>): void {
    if (showing !== current) return
    showing = undefined
    pump()
  }

  /** The oldest queued request still pending, taken off the queue. */
  function nextPending(): { id: string; outcome: Promise<ApprovalOutcome> } | undefined {
    let next = queue.shift()
    while (next && !state.approvals.get(next.id)) next = queue.shift()
    return next
  }

  /** How many queued requests are still pending. */
  function waitingCount(): number {
    return queue.filter((q) => state.approvals.get(q.id) !== undefined).length
  }

  /** Open the window for the oldest still-pending queued request, unless a window is open. */
  function pump(): void {
    if (showing) return
    const next = nextPending()
    if (!next) return
    const current = { id: next.id, shown: new Set([next.id]) }
    showing = current
    void show(current, next.outcome)
  }

  async function show(current: NonNullable<typeof showing>, first: Promise<ApprovalOutcome>): Promise<void> {
    let windowId: number
    try {
      windowId = await platform.openApprovalWindow(current.id)
    } catch {
      state.approvals.reject(current.id, USER_REJECTED)
      release(current)
      return
    }
    current.windowId = windowId
    let outcome: Promise<ApprovalOutcome> | undefined = state.approvals.attachWindow(current.id, windowId) ? first : undefined
    // The same window shows the queued requests one after another while it stays ours.
    while (outcome !== undefined) {
      await outcome
      outcome = undefined
      if (showing !== current) return // the user closed it; windowClosed moved on
      let next = nextPending()
      while (next && !state.approvals.attachWindow(next.id, windowId)) next = nextPending()
      if (next) {
        current.id = next.id
        current.shown.add(next.id)
        outcome = next.outcome
      }
    }
    setTimeout(
      () =>
        void platform.closeWindow(windowId).then(
          () => release(current),
          () => release(current),
        ),
      CLOSE_DELAY_MS,
    )
  }

  /** origin → how many of its requests that may ask the user are in flight (admitted, or asking directly). */
  const inFlight = new Map<string, number>()

  /** One of `origin`'s places, released once by the returned function; undefined when all are taken. */
  function take(origin: string): (() => void) | undefined {
    const n = inFlight.get(origin) ?? 0
    if (n >= MAX_PENDING_PER_ORIGIN) return undefined
    inFlight.set(origin, n + 1)
    let held = true
    return () => {
      if (!held) return
      held = false
      const left = (inFlight.get(origin) ?? 1) - 1
      if (left > 0) inFlight.set(origin, left)
      else inFlight.delete(origin)
    }
  }

  /** Queue a request whose place is already held: the back-off, then the window. */
  async function askHeld(origin: string, method: string, view: ApprovalView): Promise<ApprovalOutcome> {
    const wait = backoff.remainingMs(origin)
    if (wait > 0) return { approved: false, error: backedOffError(wait) }
    const verdict = await phishingCheck(origin).catch(() => ({ listed: false }) as const)
    const phishing = verdict.listed ? { reason: verdict.reason, ...(verdict.match ? { match: verdict.match } : {}) } : undefined
    const { id, outcome } = state.approvals.open({ origin, method, view, ...(phishing ? { phishing } : {}) })
    const wipesBefore = wipes
    queue.push({ id, outcome })
    pump()
    const result = await outcome
    if (result.approved) backoff.approved(origin)
    else if (result.error === USER_REJECTED && wipes === wipesBefore) backoff.rejected(origin)
    return result
  }

  function send(targets: Iterable<[number, string]>, event: ProviderEventName, data: unknown): void {
    const message: ProviderEventMessage = { kind: 'provider-event', event, data }
    for (const [tabId, documentId] of targets) {
      const sent = documentId ? platform.sendToTab(tabId, message, documentId) : platform.sendToTab(tabId, message)
      void sent.catch(() => forget(tabId))
    }
  }

  const services: DappServices = {
    ready,
    seen(origin, tabId, documentId) {
      forget(tabId)
      let docs = tabs.get(origin)
      if (!docs) tabs.set(origin, (docs = new Map()))
      docs.set(tabId, documentId ?? '')
    },
    async ask(origin, method, view) {
      const release = take(origin)
      if (!release) return { approved: false, error: TOO_MANY_PENDING }
      try {
        return await askHeld(origin, method, view)
      } finally {
        release()
      }
    },
    admit(origin) {
      const release = take(origin)
      if (!release) return undefined
      let held = true
      const dapp: DappServices = {
        ...services,
        ask: (o, method, view) => (held && o === origin ? askHeld(o, method, view) : services.ask(o, method, view)),
      }
      return {
        dapp,
        release() {
          held = false
          release()
        },
      }
    },
    shownIn(id) {
      if (state.approvals.get(id)) return { id, waiting: waitingCount() }
      if (showing?.shown.has(id) && state.approvals.get(showing.id)) return { id: showing.id, waiting: waitingCount() }
      return { id: null, waiting: 0 }
    },
    rejectQueue(id) {
      if (!showing?.shown.has(id)) return 0
      const ids = [...queue.map((q) => q.id), showing.id]
      return ids.filter((queued) => state.approvals.reject(queued, USER_REJECTED)).length
    },
    waitForLogin(origin) {
      const open = platform.openLoginWindow
      if (!open) return Promise.resolve({ approved: false, error: LOGIN_UNAVAILABLE })
      let settles = loginWaiters.get(origin)
      if ((settles?.size ?? 0) >= MAX_PENDING_PER_ORIGIN) return Promise.resolve({ approved: false, error: TOO_MANY_PENDING })
      if (!settles) loginWaiters.set(origin, (settles = new Set()))
      const mine = settles
      const outcome = new Promise<ApprovalOutcome>((resolve) => {
        const timer = setTimeout(() => {
          if (!mine.delete(settle)) return
          if (mine.size === 0 && loginWaiters.get(origin) === mine) loginWaiters.delete(origin)
          resolve({ approved: false, error: USER_REJECTED })
        }, APPROVAL_TIMEOUT_MS)
        const settle = (o: ApprovalOutcome) => {
          clearTimeout(timer)
          resolve(o)
        }
        mine.add(settle)
      })
      if (!loginWindow) void openLoginWindow(() => open.call(platform))
      return outcome
    },
    loginWanted: () => [...loginWaiters.keys()],
    async showWallet() {
      if (!platform.openLoginWindow) return false
      try {
        await platform.openLoginWindow()
        return true
      } catch {
        return false
      }
    },
    emit(origin, event, data) {
      send(tabs.get(origin) ?? [], event, data)
    },
    emitAll(event, data) {
      send(
        [...tabs.values()].flatMap((docs) => [...docs]),
        event,
        data,
      )
    },
    windowClosed(windowId) {
      if (loginWindow?.windowId === windowId) {
        loginWindow = undefined
        settleLogins({ approved: false, error: USER_REJECTED })
      }
      state.approvals.windowClosed(windowId)
      if (showing?.windowId === windowId) release(showing)
    },
    tabClosed(tabId) {
      const had = [...tabs].filter(([, docs]) => docs.has(tabId)).map(([origin]) => origin)
      forget(tabId)
      const orphaned = new Set(had.filter((origin) => (tabs.get(origin)?.size ?? 0) === 0))
      if (orphaned.size === 0) return
      for (const id of [...queue.map((q) => q.id), ...(showing ? [showing.id] : [])]) {
        const pending = state.approvals.get(id)
        if (pending && orphaned.has(pending.origin)) state.approvals.reject(id, PAGE_GONE)
      }
    },
    async onWipe(reason) {
      wipes++
      state.approvals.rejectAll(wipeError(reason))
      if (loginWaiters.size > 0) settleLogins({ approved: false, error: wipeError(reason) })
      queue.length = 0
      const origins = await grantedOrigins(core.deps.local).catch(() => [])
      for (const origin of origins) send(tabs.get(origin) ?? [], 'accountsChanged', [])
      for (const origin of await solanaGrantedOrigins(core.deps.local).catch(() => []))
        send(tabs.get(origin) ?? [], 'solanaAccountsChanged', [])
    },
  }
  return services
}
