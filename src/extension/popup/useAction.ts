/** One network action with progress and a clear failure message. */
import { useCallback, useState } from 'preact/hooks'
import type { PopupReply } from '../protocol/runtime'
import { failureText, isSessionLost } from './messages'

/** State and runner of one action. */
export type Action = {
  busy: boolean
  error: string | null
  /** The form field the last failure is about, when the background named one. */
  field: string | null
  run<T>(call: () => Promise<PopupReply<T>>, onOk?: (result: T) => void): Promise<T | undefined>
  clear(): void
}

/**
 * Why passkeys cannot work here: Firefox refuses `navigator.credentials` on `moz-extension://`
 * pages whatever the rp.id (Chromium allows its extension origin, toolchain.md §5). The Firefox
 * build shows it beside its disabled passkey buttons (webauthn.ts `unavailable`), and any browser
 * shows it when WebAuthn throws SecurityError.
 */
export const PASSKEYS_UNAVAILABLE =
  'Passkeys are not available in Firefox: Firefox does not let add-ons use passkeys on their own pages. Log in or sign up with an email or SMS code instead.'

/** The sentence for an exception thrown in the popup itself (not a background reply). */
function thrownText(e: unknown): string {
  if (!(e instanceof Error)) return 'The action failed.'
  if (e.name === 'NotAllowedError') return 'The passkey prompt was cancelled.'
  if (e.name === 'SecurityError') return PASSKEYS_UNAVAILABLE
  return 'The action failed.'
}

/** `onSessionLost` runs when the background says the session is gone. */
export function useAction(onSessionLost?: () => void): Action {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [field, setField] = useState<string | null>(null)
  const run = useCallback(
    async <T>(call: () => Promise<PopupReply<T>>, onOk?: (result: T) => void): Promise<T | undefined> => {
      setBusy(true)
      setError(null)
      setField(null)
      try {
        const reply = await call()
        if (reply.ok) {
          onOk?.(reply.result)
          return reply.result
        }
        setError(failureText(reply))
        setField(reply.error.field ?? null)
        if (isSessionLost(reply)) onSessionLost?.()
        return undefined
      } catch (e) {
        setError(thrownText(e))
        return undefined
      } finally {
        setBusy(false)
      }
    },
    [onSessionLost],
  )
  return {
    busy,
    error,
    field,
    run,
    clear: () => {
      setError(null)
      setField(null)
    },
  }
}
