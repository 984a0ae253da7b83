/**
 * The approval window's body for a sign-in (EIP-4361 through personal_sign, Sign In With Solana
 * through `solana:signIn`): the account that signs in, the site's statement, the message's fields in
 * message order, its resources and the exact text signed. When the message names another site than
 * the one asking, a red panel says so and Approve stays disabled until the user ticks the override
 * (the background also refuses an approval without it, bound to this request). Everything from the
 * dApp is shown as text.
 */
import { useContext } from 'preact/hooks'
import type { SignInMismatch, SignInView } from '../protocol/approvalView'
import { AccountNames, Rows } from './parts'

/** The sentence the blocking panel shows for one disagreement between the message and the site. */
export function mismatchText(m: SignInMismatch): string {
  return m.field === 'domain'
    ? `This site (${m.site}) is asking you to sign in to ${m.stated}. It may be trying to steal your login there.`
    : `The message's URI (${m.stated}) is not on this site (${m.site}).`
}

/** Whether approving `view` needs the user's override first. */
export function needsOverride(view: { kind: string; mismatches?: unknown[] }): boolean {
  return view.kind === 'signIn' && (view.mismatches?.length ?? 0) > 0
}

export type SignInBodyProps = {
  view: SignInView
  /** The override box's state, and how to change it. */
  acknowledged: boolean
  onAcknowledge(next: boolean): void
}

/** The body of a sign-in window; the title ("Sign in to <domain>") is the window's (format.ts `signInTitle`). */
export function SignInBody({ view, acknowledged, onAcknowledge }: SignInBodyProps) {
  const name = useContext(AccountNames)[view.address]
  const family = view.chain === 'solana' ? 'Solana' : 'Ethereum'
  return (
    <>
      <p class="signin-as" data-testid="signin-as">
        <span class="signin-as-line">
          as
          {name !== undefined && (
            <>
              {' '}
              <strong class="approval-account-name" data-testid="approval-account-name">
                {name}
              </strong>
            </>
          )}
        </span>
        <code class="address" data-testid="approval-account">
          {view.address}
        </code>
        <span class="hint">{family} account</span>
      </p>
      {view.connects && (
        <p class="hint" data-testid="signin-connects">
          Approving also connects this site to {view.connects.name} (<code>{view.connects.address}</code>).
        </p>
      )}
      {view.mismatches.length > 0 && (
        <section class="signin-mismatch" data-testid="signin-mismatch" aria-labelledby="signin-mismatch-title">
          <h2 id="signin-mismatch-title">This sign-in is not for this site</h2>
          <div role="alert">
            <ul>
              {view.mismatches.map((m) => (
                <li key={`${m.field}-${m.stated}`}>{mismatchText(m)}</li>
              ))}
            </ul>
          </div>
          <label class="signin-override">
            <input
              type="checkbox"
              data-testid="signin-override"
              checked={acknowledged}
              onChange={(e) => onAcknowledge((e.currentTarget as HTMLInputElement).checked)}
            />
            <span>I understand, sign in anyway</span>
          </label>
        </section>
      )}
      {view.statement !== null && view.statement !== '' && (
        <blockquote class="signin-statement" data-testid="signin-statement" aria-label="The site's statement">
          {view.statement}
        </blockquote>
      )}
      <Rows rows={view.rows} label="Sign-in fields" testId="signin-rows" />
      {view.resources.length > 0 && (
        <section aria-labelledby="signin-resources-title">
          <h3 id="signin-resources-title">Resources ({view.resources.length})</h3>
          <ul class="signin-resources" data-testid="signin-resources">
            {view.resources.map((r, i) => (
              <li key={`${i}-${r}`}>
                <code>{r}</code>
              </li>
            ))}
          </ul>
        </section>
      )}
      <details class="signin-text" data-testid="signin-text">
        <summary>Message (the exact text you sign)</summary>
        <pre class="message" tabIndex={0} aria-label="Message text">
          {view.text}
        </pre>
      </details>
      <p class="hint">Signing in proves to the site that you control this account. It does not send a transaction or cost a fee.</p>
    </>
  )
}
