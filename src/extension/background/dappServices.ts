/**
 * What dApp handlers need beyond the router: the approval window (ask the user, bound to the
 * request's id), the tabs each origin talks from (to push EIP-1193 events), and the reaction
 * to a wipe (reject everything pending, tell connected tabs `accountsChanged []`).
 * Browser APIs come in through {@link DappPlatform}; without one, every approval is rejected.
 */
import { RPC_ERROR, rpcError } from '../protocol/rpcErrors'
import type { ProviderEventName } from '../protocol/page'
import type { ProviderEventMessage } from '../protocol/runtime'
import { USER_REJECTED, type ApprovalOutcome } from './approvals'
import type { ApprovalView } from './approvalView'
import type { Core } from './core'
import { loadSelectedChain } from './dappChains'
import { grantedOrigins } from './permissions'
import type { EndReason } from './sessionRecord'
import type { BackgroundState } from './state'

/** Browser APIs for approvals and events (`browser.windows`, `browser.tabs`). */
export type DappPlatform = {
  /** Open `approval.html?id=<id>` in its own popup window; resolves to the window id. */
  openApprovalWindow(id: string): Promise<number>
  closeWindow(windowId: number): Promise<void>
  sendToTab(tabId: number, message: ProviderEventMessage): Promise<void>
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
  /** Remember that `origin` talks from `tabId` (for pushed events). */
  seen(origin: string, tabId: number): void
  /** Ask the user in the approval window; a missing answer is a rejection. */
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
  const tabs = new Map<string, Set<number>>()
  const ready =
    opts.loadChain === false
      ? Promise.resolve()
      : loadSelectedChain(core.deps.local)
          .then((chainId) => {
            if (chainId !== undefined) state.chain.chainId = chainId
          })
          .catch(() => {})

  function send(tabIds: Iterable<number>, event: ProviderEventName, data: unknown): void {
    const message: ProviderEventMessage = { kind: 'provider-event', event, data }
    for (const tabId of tabIds) void platform.sendToTab(tabId, message).catch(() => {})
  }

  return {
    ready,
    seen(origin, tabId) {
      let set = tabs.get(origin)
      if (!set) tabs.set(origin, (set = new Set()))
      set.add(tabId)
    },
    async ask(origin, method, view) {
      const { id, outcome } = state.approvals.open({ origin, method, view })
      let windowId: number | undefined
      try {
        windowId = await platform.openApprovalWindow(id)
        if (!state.approvals.attachWindow(id, windowId)) void platform.closeWindow(windowId).catch(() => {})
      } catch {
        state.approvals.reject(id, USER_REJECTED)
      }
      const result = await outcome
      if (windowId !== undefined) void platform.closeWindow(windowId).catch(() => {})
      return result
    },
    emit(origin, event, data) {
      send(tabs.get(origin) ?? [], event, data)
    },
    emitAll(event, data) {
      send(new Set([...tabs.values()].flatMap((s) => [...s])), event, data)
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
