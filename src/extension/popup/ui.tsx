/** Small shared pieces: error and progress lines, labelled fields. */
import type { ComponentChildren } from 'preact'

/** An error announced to screen readers. */
export function ErrorLine({ error }: { error: string | null }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null
}

/** A progress line, announced politely. */
export function Busy({ busy, label }: { busy: boolean; label: string }) {
  return (
    <p class="busy" role="status" aria-live="polite">
      {busy ? label : ''}
    </p>
  )
}

/**
 * A label wrapping its control; `error` is shown right under it. The wrapper is
 * the same with or without an error, so the control is not re-created (and keeps its focus) when
 * an error appears.
 */
export function Field({
  label,
  children,
  hint,
  error,
}: {
  label: string
  children: ComponentChildren
  hint?: string
  error?: string | null
}) {
  const field = (
    <label class="field">
      <span class="label">{label}</span>
      {children}
      {hint && <span class="hint">{hint}</span>}
    </label>
  )
  return (
    <div class={error ? 'field field-with-error' : 'field'} {...(error ? { 'data-invalid': 'true' } : {})}>
      {field}
      {error && (
        <p class="error field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  )
}
