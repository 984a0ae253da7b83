/**
 * The popup's router over a real background core, as the popup calls it: `call` gives the reply,
 * `ok` its result (throwing on a refusal), `settle` polls a send until it is no longer pending.
 * `core` is read at each call, so a test may create it in `beforeAll`.
 */
import type { Core } from '@/src/extension/background/core'
import { routePopup, type RouterContext } from '@/src/extension/background/router'
import { createBackgroundState } from '@/src/extension/background/state'

export const EXT_ID = 'enibeleniamgnfhbmpkkldfacbjikdfa'
const popup = { id: EXT_ID, url: `chrome-extension://${EXT_ID}/popup.html` }

export function popupRouter(core: () => Core) {
  async function call(method: string, params?: unknown): Promise<any> {
    const ctx: RouterContext = {
      state: createBackgroundState(),
      extensionId: EXT_ID,
      extensionBaseUrl: `chrome-extension://${EXT_ID}/`,
      core: core(),
    }
    return routePopup({ kind: 'popup', method, ...(params === undefined ? {} : { params }) }, popup, ctx)
  }
  async function ok(method: string, params?: unknown): Promise<any> {
    const reply = await call(method, params)
    if (!reply.ok) throw new Error(`${method}: ${JSON.stringify(reply.error)}`)
    return reply.result
  }
  async function settle(id: string): Promise<any> {
    const deadline = Date.now() + 20_000
    for (;;) {
      const s = await ok('sendStatus', { sendTransactionStatusId: id })
      if (s.state !== 'pending' || Date.now() > deadline) return s
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  return { call, ok, settle }
}
