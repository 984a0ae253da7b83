/**
 * What dApp handlers need beyond the router: the approval window (ask the user, bound to the
 * request's id), the tabs each origin talks from (to push EIP-1193 events), and the reaction
 * to a wipe (reject everything pending, tell connected tabs `accountsChanged []`).
 * Browser APIs come in through {@link DappPlatform}; without one, every approval is rejected.
 */
import { RPC_ERROR, rpcError } from '../protocol/rpcErrors'
import type { ProviderEventName } from '../protocol/page'
import type { ProviderEventMessage } from '../protocol/runtime'
import { ALREADY_PENDING, USER_REJECTED, type ApprovalOutcome } from './approvals'
import type { ApprovalView } from './approvalView'
import type { Core } from './core'
import { loadSelectedChain } from './dappChains'
import { grantedOrigins } from './permissions'
import type { EndReason } from './sessionRecord'
import type { BackgroundState } from './state'

/** How long the approval page gets to show its result and close itself before the background closes it. */
export const CLOSE_DELAY_MS = 1000

/** Browser APIs for approvals and events (`browser.windows`, `browser.tabs`). */
export type DappPlatform = {
  /** Open `approval.html?id=<id>` in its own popup window; resolves to the window id. */
  openApprovalWindow(id: string): Promise<number>
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
  /** Settles when the persisted chain selection has been loaded into `state.chain`. */
  ready: Promise<void>
  /** Remember that `origin` talks from `tabId` (and document, when the browser says) for pushed events. */
  seen(origin: string, tabId: number, documentId?: string): void
  /** Ask the user in the approval window; a missing answer is a rejection (-32002 while `origin` has one pending). */
  ask(origin: string, method: string, view: ApprovalView): Promise<ApprovalOutcome>
  /** Push an event to every known tab of `origin`. */
  emit(origin: string, event: ProviderEventName, data: unknown): void
  /** Push an event to every known tab. */
  emitAll(event: ProviderEventName, data: unknown): void
  /** A browser window closed. */
  windowClosed(windowId: number): void
  /** Lock, logout or expiry: reject everything pending, tell connected tabs their accounts are gone. */
  onWipe(reason: EndReason): Promise<void>
}

/** Error a wipe rejects pending approvals with: 4100 when locked, 4001 otherwise. */
export function wipeError(reason: EndReason) {
  return reason === 'lock' || reason === 'auto-lock'
    ? rpcError(RPC_ERROR.UNAUTHORIZED, 'Unauthorized: the wallet was locked')
    : USER_REJECTED
}

/** Create the services; `loadChain` false skips reading the persisted chain (router fallback). */
export function createDappServices(
  state: BackgroundState,
  core: Core,
  platform: DappPlatform,
  opts: { loadChain?: boolean } = {},
): DappServices {
  /** origin → tabId → documentId ('' when unknown). A tab belongs to the last origin heard from it. */
  const tabs = new Map<string, Map<number, string>>()
  const ready =
    opts.loadChain === false
      ? Promise.resolve()
      : loadSelectedChain(core.deps.local)
          .then((chainId) => {
            if (chainId !== undefined) state.chain.chainId = chainId
          })
          .catch(() => {})

  function forget(tabId: number): void {
    for (const docs of tabs.values()) docs.delete(tabId)
  }

  function send(targets: Iterable<[number, string]>, event: ProviderEventName, data: unknown): void {
    const message: ProviderEventMessage = { kind: 'provider-event', event, data }
    for (const [tabId, documentId] of targets) {
      const sent = documentId ? platform.sendToTab(tabId, message, documentId) : platform.sendToTab(tabId, message)
      void sent.catch(() => forget(tabId))
    }
  }

  return {
    ready,
    seen(origin, tabId, documentId) {
      forget(tabId)
      let docs = tabs.get(origin)
      if (!docs) tabs.set(origin, (docs = new Map()))
      docs.set(tabId, documentId ?? '')
    },
    async ask(origin, method, view) {
      if (state.approvals.hasPendingFor(origin)) return { approved: false, error: ALREADY_PENDING }
      const { id, outcome } = state.approvals.open({ origin, method, view })
      let windowId: number | undefined
      try {
        windowId = await platform.openApprovalWindow(id)
        if (!state.approvals.attachWindow(id, windowId)) void platform.closeWindow(windowId).catch(() => {})
      } catch {
        state.approvals.reject(id, USER_REJECTED)
      }
      const result = await outcome
      if (windowId !== undefined) {
        const w = windowId
        setTimeout(() => void platform.closeWindow(w).catch(() => {}), CLOSE_DELAY_MS)
      }
      return result
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
      state.approvals.windowClosed(windowId)
    },
    async onWipe(reason) {
      state.approvals.rejectAll(wipeError(reason))
      const origins = await grantedOrigins(core.deps.local).catch(() => [])
      for (const origin of origins) send(tabs.get(origin) ?? [], 'accountsChanged', [])
    },
  }
}
