/** The popup → background allow-list. Anything not listed is refused with METHOD_NOT_FOUND. */
import { z } from 'zod'
import { popupMethod } from './methods'

const noParams = z.undefined()

/** The popup method table: `{ method: { params, handler } }`. */
export const POPUP_METHODS = {
  ping: popupMethod({
    params: noParams,
    handler: (_p, { state }) => ({ pong: ++state.pongCount }),
  }),
  getStatus: popupMethod({
    params: noParams,
    handler: (_p, { extensionId }) => ({ loggedIn: false as boolean, extensionId }),
  }),
}

type PopupTable = typeof POPUP_METHODS

/** Popup method names. */
export type PopupMethodName = keyof PopupTable

/** Params and result type of each popup method, for the typed popup client. */
export type PopupApi = {
  [K in PopupMethodName]: {
    params: z.input<PopupTable[K]['params']>
    result: Awaited<ReturnType<PopupTable[K]['handler']>>
  }
}
