/**
 * The popup API: what the popup and the approval window may ask the background, with each
 * method's params and result. Derived from the background's closed popup table
 * (background/popupMethods.ts) so the two cannot drift; the pages import only this type
 * (`import type`, nothing of the background is bundled into them).
 */
import type { z } from 'zod'
import type { POPUP_METHODS } from '../background/popupMethods'

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
