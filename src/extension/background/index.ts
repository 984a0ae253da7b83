/** Background composition root: state + router + P5 response style, wired by entrypoints/background.ts. */
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

/** Create the background with fresh in-memory state; returns its onMessage listener. */
export function createBackground(env: BackgroundEnv): { onMessage: MessageListener } {
  const ctx = { state: createBackgroundState(), ...env }
  return {
    onMessage: (message, sender, sendResponse) => respondWith(routeMessage(message, sender, ctx), sendResponse),
  }
}
