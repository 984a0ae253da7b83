/** One network action with progress and a clear failure message (issue 7 UI rule). */
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
        setError(e instanceof Error && e.name === 'NotAllowedError' ? 'The passkey prompt was cancelled.' : 'The action failed.')
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
