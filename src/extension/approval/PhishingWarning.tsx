/**
 * The full-page warning a deceptive site's request gets before its approval (dapp/phishing.ts):
 * "Back to safety" rejects the request; only the small "I understand the risk, continue" goes on
 * to the normal approval of the same request id. Closing the window rejects, as always.
 */
import { useEffect, useRef } from 'preact/hooks'
import type { PhishingFlag } from '../protocol/approvalView'

/** Why the site is flagged, in words. */
export function phishingReasonText(flag: PhishingFlag): string {
  switch (flag.reason) {
    case 'blocklist':
      return "This site is on MetaMask's phishing list: it is known to steal funds and passwords."
    case 'fuzzy':
      return `This site's address looks like ${flag.match ?? 'a well-known crypto site'}, a site scammers often imitate. It is not that site.`
    case 'lookalike':
      return `This site's address looks like ${flag.match ?? 'a site you connected to before'}, a site you connected to before. It is not that site.`
  }
}

export type PhishingWarningProps = { origin: string; flag: PhishingFlag; busy: boolean; onBack(): void; onContinue(): void }

export function PhishingWarning({ origin, flag, busy, onBack, onContinue }: PhishingWarningProps) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  return (
    <section class="phishing-warning" data-testid="phishing-warning" aria-labelledby="phishing-title">
      <h1 id="phishing-title" ref={heading} tabIndex={-1}>
        Deceptive site ahead
      </h1>
      <p class="phishing-origin" data-testid="phishing-origin">
        {origin}
      </p>
      <p data-testid="phishing-reason">{phishingReasonText(flag)}</p>
      <p>If you approve its requests, it may take your tokens or NFTs. Sigil has not shared anything with it.</p>
      <button type="button" class="phishing-back" disabled={busy} onClick={onBack}>
        Back to safety
      </button>
      <button type="button" class="phishing-continue" disabled={busy} onClick={onContinue}>
        I understand the risk, continue
      </button>
    </section>
  )
}
