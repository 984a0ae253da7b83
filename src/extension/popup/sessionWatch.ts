/**
 * A popup already open notices a login, lock or logout made elsewhere (the login window Sigil opens
 * for a site, another popup, auto-lock) without a reload: the background keeps the session record
 * and the last end in `storage.session` (session/sessionRecord.ts), whose changes every extension page
 * hears. Injected into the popup (tests fake it); only those two keys count, so a code being sent
 * or a pending sign-up in this popup does not reload it.
 */
import { LAST_END_KEY, SESSION_KEY } from '../background/session/sessionRecord'

/** Calls `onChange` when the session starts or ends elsewhere; returns the unsubscribe. */
export type WatchSession = (onChange: () => void) => () => void

/** No watching (the default outside the browser). */
export const noSessionWatch: WatchSession = () => () => {}

/** The slice of `browser.storage.session` the watch needs. */
export type ChangeSource = {
  onChanged: {
    addListener(listener: (changes: Record<string, unknown>) => void): void
    removeListener(listener: (changes: Record<string, unknown>) => void): void
  }
}

/** Watch the session record and the last end in `area` (the browser's `storage.session`). */
export function storageSessionWatch(area: ChangeSource): WatchSession {
  return (onChange) => {
    const listener = (changes: Record<string, unknown>) => {
      if (SESSION_KEY in changes || LAST_END_KEY in changes) onChange()
    }
    area.onChanged.addListener(listener)
    return () => area.onChanged.removeListener(listener)
  }
}
