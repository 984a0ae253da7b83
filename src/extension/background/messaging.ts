/**
 * onMessage response style that works in Chromium, Firefox and both fake-browser versions
 * (shared/notes/toolchain.md §7 P5): call `sendResponse` and return `true` when it exists,
 * otherwise return the Promise.
 */

/** `sendResponse` as passed to a runtime.onMessage listener (absent in WXT 0.20's fakeBrowser). */
export type SendResponse = (response?: unknown) => void

/**
 * Answer with `reply`; `undefined` means "not for us" and leaves the channel to other listeners.
 * @example return respondWith(route(message, sender), sendResponse)
 */
export function respondWith<T>(reply: Promise<T> | undefined, sendResponse: SendResponse | undefined): true | Promise<T> | undefined {
  if (reply === undefined) return undefined
  if (typeof sendResponse === 'function') {
    void reply.then(sendResponse)
    return true
  }
  return reply
}
