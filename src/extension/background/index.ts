/**
 * Background composition root: state + core + router + P5 response style, wired by
 * entrypoints/background.ts (style.md habit 1: the entrypoint only passes browser APIs in).
 */
import { createCore, type CoreDeps } from './core'
import { respondWith, type SendResponse } from './messaging'
import { routeMessage, type Sender } from './router'
import { createBackgroundState } from './state'

/** The extension identity the background needs from `browser.runtime`. */
export type BackgroundEnv = { extensionId: string; extensionBaseUrl: string }

/** A runtime.onMessage listener. */
export type MessageListener = (
  message: unknown,
  sender: Sender,
  sendResponse?: SendResponse,
) => true | Promise<unknown> | undefined

/** The wired background: listeners for runtime messages and alarms. */
export type Background = {
  onMessage: MessageListener
  onAlarm: (alarm: { name: string }) => Promise<void>
  core: ReturnType<typeof createCore>
}

/** Create the background; session state is re-hydrated lazily from `deps` on first use. */
export function createBackground(env: BackgroundEnv, deps: CoreDeps): Background {
  const core = createCore(deps)
  const ctx = { state: createBackgroundState(), core, ...env }
  return {
    onMessage: (message, sender, sendResponse) => respondWith(routeMessage(message, sender, ctx), sendResponse),
    onAlarm: (alarm) => core.onAlarm(alarm.name),
    core,
  }
}
