/**
 * Background composition root: state + core + router + P5 response style, wired by
 * entrypoints/background.ts (style.md habit 1: the entrypoint only passes browser APIs in).
 */
import { createCore, type CoreDeps } from './core'
import { createDappServices, WINDOWLESS_PLATFORM, type DappPlatform, type DappServices } from './dapp/services'
import { respondWith, type SendResponse } from './messaging'
import { routeMessage, type Sender } from './router'
import { type BackgroundState, createBackgroundState } from './state'

/** The extension identity the background needs from `browser.runtime`. */
export type BackgroundEnv = { extensionId: string; extensionBaseUrl: string }

/** A runtime.onMessage listener. */
export type MessageListener = (message: unknown, sender: Sender, sendResponse?: SendResponse) => true | Promise<unknown> | undefined

/** The wired background: listeners for runtime messages and alarms. */
export type Background = {
  onMessage: MessageListener
  onAlarm: (alarm: { name: string }) => Promise<void>
  /** `browser.windows.onRemoved`: a closed approval window rejects its request. */
  onWindowRemoved: (windowId: number) => void
  /** `browser.tabs.onRemoved`: requests of an origin left without tabs are rejected. */
  onTabRemoved: (tabId: number) => void
  core: ReturnType<typeof createCore>
  /** In-memory state and the dApp services (for a site's chain switch from elsewhere, and tests). */
  state: BackgroundState
  dapp: DappServices
}

/**
 * Create the background; session state is re-hydrated lazily from `deps` on first use.
 * Without `platform` no approval window can open, so every approval is rejected.
 */
export function createBackground(env: BackgroundEnv, deps: CoreDeps, platform: DappPlatform = WINDOWLESS_PLATFORM): Background {
  const core = createCore(deps)
  const state = createBackgroundState()
  const dapp = createDappServices(state, core, platform)
  core.onWipe((reason) => void dapp.onWipe(reason))
  // Delete a key slot left without a live session, retry a revocation that was offline.
  void core.startup().catch(() => undefined)
  const ctx = { state, core, dapp, ...env }
  return {
    onMessage: (message, sender, sendResponse) => respondWith(routeMessage(message, sender, ctx), sendResponse),
    onAlarm: (alarm) => core.onAlarm(alarm.name),
    onWindowRemoved: (windowId) => dapp.windowClosed(windowId),
    onTabRemoved: (tabId) => dapp.tabClosed(tabId),
    core,
    state,
    dapp,
  }
}
