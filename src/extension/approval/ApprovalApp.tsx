/**
 * The approval window (DEVELOPERS.md "Wallet invariants"): loads ONE pending request by the id
 * in its URL and answers exactly that id. Keyboard: Escape rejects; Enter acts only on the
 * focused button (nothing is focused by default, so a stray Enter approves nothing). Approve
 * is armed after a short delay so a click meant for another window cannot land on it. Typed data
 * shows every field (the page scrolls, nothing is truncated) and Approve stays disabled until the end of
 * the fields has been scrolled into view.
 *
 * Requests queue (background/dapp/services.ts): after an answer the same window shows the next
 * waiting request (asked by `approvalShown`, bound to its own id, re-armed), and closes when none
 * is left. A live counter says how many more wait; "Reject all" rejects the shown one and every
 * waiting one, each with its own 4001.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import type { ApprovalDetails, ApprovalView, DecodedCall as Call, FieldRow } from '../protocol/approvalView'
import type { PopupClient } from '../popup/client'
import { failureText } from '../popup/messages'
import { describeRequest, originParts, isInsecureOrigin, signInTitle, titleOf } from './format'
import { Account, AccountNames, RawData, Rows, Warnings } from './parts'
import { SolanaViewBody } from './SolanaViews'
import { AccountPicker, orderedChoice } from './AccountPicker'
import { SendCallsBody } from './BatchView'
import { BalanceChanges } from './BalanceChanges'
import { needsOverride, SignInBody } from './SignInView'
import { PhishingWarning } from './PhishingWarning'

/** Delay before Approve accepts clicks. */
export const ARM_DELAY_MS = 400

type State = { s: 'loading' } | { s: 'ready'; details: ApprovalDetails } | { s: 'gone'; message: string } | { s: 'done'; approved: boolean }

/** Props: the background client, the id from the URL, and how to close the window. */
export type ApprovalAppProps = { client: PopupClient; id: string | null; closeWindow: () => void }

/** One request of the queue: answered, it hands over to the window ({@link ApprovalApp}) with its id. */
type RequestProps = ApprovalAppProps & { onAnswered(id: string): void; queue: preact.ComponentChildren }

/**
 * Calls `onSeen` once the element after the last field has been in the window's view (the page
 * scrolls; the fields are above Approve). Without IntersectionObserver it never fires: Approve stays disabled.
 */
function EndOfFields({ onSeen }: { onSeen: () => void }) {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = ref.current
    if (!el || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        observer.disconnect()
        onSeen()
      }
    })
    observer.observe(el)
    return () => observer.disconnect()
  }, [onSeen])
  return <div ref={ref} class="end-of-fields" data-testid="approval-end" aria-hidden="true" />
}

/** A contract call decoded with the organization's ABIs or the well-known ones (dapp/evm/calldata.ts). */
function DecodedCall({ call }: { call: Call }) {
  return (
    <section class="summary" data-testid="approval-call" aria-label="Decoded call">
      <h3>
        Call: <code>{call.method}</code>
      </h3>
      <Warnings warnings={call.warnings} />
      <Rows rows={call.rows} label="Decoded call" />
    </section>
  )
}

/** The network fee and the total, as the background built them (feeRows): gwei per gas, the native unit for amounts. */
/** Per-gas prices and limits: how the fee is made, folded under the fee itself. */
const FEE_DETAIL_ROWS = new Set(['Max fee per gas', 'Priority fee per gas', 'Gas limit', 'Gas price', 'Base fee'])

function Fees({ rows }: { rows: FieldRow[] }) {
  const details = rows.filter(([k]) => FEE_DETAIL_ROWS.has(k))
  return (
    <section class="fees" data-testid="approval-fees" aria-labelledby="approval-fees-title">
      <h3 id="approval-fees-title">Network fee</h3>
      <Rows rows={rows.filter(([k]) => !FEE_DETAIL_ROWS.has(k))} label="Network fee" />
      {details.length > 0 && (
        <details class="fee-details">
          <summary>Fee details</summary>
          <Rows rows={details} label="Fee details" />
        </details>
      )}
    </section>
  )
}

/** The accounts checked in a connect window, and how to change them. */
type Choice = { checked: ReadonlySet<string>; onChange(next: Set<string>): void }
/** A sign-in's override of its blocking warning, and how to change it. */
type Override = { acknowledged: boolean; onChange(next: boolean): void }

function ViewBody({
  view,
  onEndSeen,
  choice,
  override,
}: {
  view: ApprovalView
  onEndSeen: () => void
  choice: Choice
  override: Override
}) {
  switch (view.kind) {
    case 'signIn':
      return <SignInBody view={view} acknowledged={override.acknowledged} onAcknowledge={override.onChange} />
    case 'connect':
      return (
        <>
          <AccountPicker accounts={view.accounts} checked={choice.checked} onChange={choice.onChange} family="Ethereum" />
          <p class="hint">
            The site will see the accounts you check (the first one as active) and the network ({view.chain.name}). It can ask for
            signatures; each one needs your approval here.
          </p>
        </>
      )
    case 'message':
      return (
        <>
          <Account address={view.address} />
          <h2>Message</h2>
          {view.text !== null ? (
            <pre class="message" data-testid="approval-message">
              {view.text}
            </pre>
          ) : (
            <>
              <p class="hint">This message is not readable text. Raw bytes ({view.byteLength}):</p>
              <pre class="message" data-testid="approval-message">
                {view.hex}
              </pre>
            </>
          )}
        </>
      )
    case 'typedData':
      return (
        <>
          <Account address={view.address} />
          <h2>
            Type: <code data-testid="approval-primary-type">{view.primaryType}</code>
          </h2>
          <Warnings warnings={view.warnings} />
          {view.summary && (
            <section class="summary" data-testid="approval-summary" aria-label="Summary">
              <h3>{view.summary.title}</h3>
              <Rows rows={view.summary.rows} label="Summary" />
            </section>
          )}
          <h3>All fields ({view.domain.length + view.message.length})</h3>
          <div class="all-fields" data-testid="approval-fields">
            <h4>Domain</h4>
            <Rows rows={view.domain} label="Domain" />
            <h4>Message</h4>
            <Rows rows={view.message} label="Message fields" />
            <EndOfFields onSeen={onEndSeen} />
          </div>
        </>
      )
    case 'transaction':
      return (
        <>
          <Account address={view.address} />
          <Warnings warnings={view.warnings} />
          {view.call && <DecodedCall call={view.call} />}
          <Rows
            label="Transaction"
            rows={[
              ['To', view.to ?? '(contract creation)'],
              ['Value', `${view.value} (${view.valueWei} wei)`],
              ['Network', `${view.chain.name} (chain ${BigInt(view.chain.chainId).toString(10)})`],
              ['Nonce', view.nonce],
            ]}
          />
          <RawData label="Transaction data" rows={[['Data', view.data === '0x' ? '(none)' : view.data]]} />
          <Fees rows={view.fees} />
          {view.filled.length > 0 && (
            <p class="hint" data-testid="approval-filled">
              The site left out the {view.filled.join(', ')}: Sigil filled {view.filled.length === 1 ? 'it' : 'them'} in from{' '}
              {view.chain.name}.
            </p>
          )}
          <p class="hint">The signed transaction goes back to the site; Sigil does not broadcast it.</p>
        </>
      )
    case 'solanaConnect':
    case 'solanaTransaction':
      return <SolanaViewBody view={view} choice={choice} />
    case 'sendCalls':
      return <SendCallsBody view={view} />
    case 'sendTransaction':
      return (
        <>
          <Account address={view.address} />
          <Warnings warnings={view.warnings} />
          <BalanceChanges changes={view.balanceChanges} />
          {view.call && <DecodedCall call={view.call} />}
          <Rows
            label="Transaction"
            rows={[
              ['From', view.address],
              ['To', view.to],
              ['Value', `${view.value} (${view.valueWei} wei)`],
              ['Network', `${view.chain.name} (chain ${BigInt(view.chain.chainId).toString(10)})`],
            ]}
          />
          <RawData
            label="Transaction data"
            rows={[
              ...(view.selector !== null ? [['Function selector', view.selector] as FieldRow] : []),
              ['Data', view.data === '0x' ? '(none)' : view.data],
            ]}
          />
          <Fees rows={view.fees} />
          {view.warnings.length === 0 && (
            <p class="hint ok" data-testid="approval-simulation">
              Simulated on {view.chain.name}: the transaction succeeds.
            </p>
          )}
          <p class="hint">Sigil signs and broadcasts this transaction when you approve.</p>
        </>
      )
    case 'deploy':
      return (
        <>
          <Account address={view.address} />
          <Warnings warnings={view.warnings} />
          <Rows
            label="Contract deployment"
            testId="approval-deploy"
            rows={[
              ['From', view.address],
              ['Contract address', view.predictedAddress],
              ['Code size', `${view.codeBytes.toLocaleString('en-US')} bytes`],
              ...(view.valueWei !== '0' ? [['Value sent to the contract', `${view.value} (${view.valueWei} wei)`] as FieldRow] : []),
              ['Network', `${view.chain.name} (chain ${BigInt(view.chain.chainId).toString(10)})`],
              ['Nonce', view.nonce],
            ]}
          />
          <details class="creation-code" data-testid="approval-creation-code">
            <summary>Creation code ({view.codeBytes.toLocaleString('en-US')} bytes)</summary>
            <pre class="message" tabIndex={0} aria-label="Creation code">
              {view.data}
            </pre>
          </details>
          <Fees rows={view.fees} />
          {view.warnings.length === 0 && (
            <p class="hint ok" data-testid="approval-simulation">
              Simulated on {view.chain.name}: the deployment succeeds.
            </p>
          )}
          <p class="hint">
            The contract's address follows from your account and its nonce ({view.nonce}). Sigil signs and broadcasts this transaction when
            you approve; the site learns the contract's address from its receipt.
          </p>
        </>
      )
    case 'addChain':
      return (
        <>
          <Rows
            label="Network"
            rows={[
              ['Network name', view.chain.name],
              ['Chain id', `${BigInt(view.chain.chainId).toString(10)} (${view.chain.chainId})`],
              ['RPC URL', view.rpcUrl],
              ['Currency', `${view.nativeSymbol} (${view.nativeDecimals} decimals)`],
              ['Block explorer', view.explorerUrl ?? '(none)'],
            ]}
          />
          <p class="hint">
            Sigil contacts this RPC only if you approve, and adds the network only if it answers this chain id. It will see the addresses
            and transactions you look up on this network: add only a provider you trust.
          </p>
          <p class="hint" data-testid="approval-add-switch">
            Approving also switches this site to {view.chain.name}.
          </p>
        </>
      )
    case 'watchAsset':
      return (
        <>
          <Account address={view.address} />
          <Rows
            label="Token"
            rows={[
              ['Token contract', view.token],
              ['Symbol', view.symbol],
              ['Decimals', String(view.decimals)],
              ['Network', `${view.chain.name} (chain ${BigInt(view.chain.chainId).toString(10)})`],
            ]}
          />
          <p class="hint">Anyone can create a token with any symbol: add only tokens you know.</p>
        </>
      )
    case 'switchChain':
      return (
        <Rows
          label="Network change"
          rows={[
            ['From', `${view.from.name} (${view.from.chainId})`],
            ['To', `${view.to.name} (${view.to.chainId})`],
          ]}
        />
      )
  }
}

/** How many more requests wait, for the counter ("2 more requests waiting"). */
export function waitingText(waiting: number): string {
  return waiting <= 0 ? '' : `${waiting} more ${waiting === 1 ? 'request' : 'requests'} waiting`
}

/** How often the window asks how many requests wait behind the shown one. */
const QUEUE_POLL_MS = 1000

/**
 * The approval page's root: the request shown now (the URL's, then each next one in the queue),
 * the counter of those waiting behind it, and "Reject all".
 */
export function ApprovalApp({ client, id, closeWindow }: ApprovalAppProps) {
  const [current, setCurrent] = useState(id)
  const [waiting, setWaiting] = useState(0)
  const [rejectedAll, setRejectedAll] = useState<number | null>(null)

  // The counter follows the queue; a request settled elsewhere (timed out, its page closed) gives way to the next.
  useEffect(() => {
    if (current === null || rejectedAll !== null) return
    let stopped = false
    const poll = async () => {
      const reply = await client.call('approvalShown', { id: current })
      if (stopped || !reply.ok) return
      setWaiting(reply.result.waiting)
      if (typeof reply.result.id === 'string' && reply.result.id !== current) setCurrent(reply.result.id)
    }
    void poll()
    const timer = setInterval(() => void poll(), QUEUE_POLL_MS)
    return () => {
      stopped = true
      clearInterval(timer)
    }
  }, [client, current, rejectedAll])

  const onAnswered = useCallback(
    async (answered: string) => {
      const reply = await client.call('approvalShown', { id: answered })
      const next = reply.ok ? reply.result.id : null
      if (typeof next === 'string' && next !== answered) {
        setWaiting(reply.ok ? reply.result.waiting : 0)
        setCurrent(next)
      } else {
        setWaiting(0)
        setTimeout(closeWindow, 300)
      }
    },
    [client, closeWindow],
  )

  const rejectAll = useCallback(async () => {
    if (current === null) return
    const reply = await client.call('approvalRejectAll', { id: current })
    setRejectedAll(reply.ok ? reply.result.rejected : 0)
    setWaiting(0)
    setTimeout(closeWindow, 300)
  }, [client, current, closeWindow])

  if (rejectedAll !== null)
    return (
      <div class="shell approval" data-state="done">
        <header class="app-header">
          <img src="/icon-48.png" alt="" width={24} height={24} />
          <span class="brand">Sigil</span>
        </header>
        <main class="app-main">
          <p role="status" class="error" data-testid="approval-result">
            Rejected {rejectedAll} {rejectedAll === 1 ? 'request' : 'requests'}.
          </p>
        </main>
      </div>
    )

  const queue = (
    <div class="queue" data-testid="approval-queue">
      <p class="queue-count" aria-live="polite" data-testid="approval-queue-count">
        {waitingText(waiting)}
      </p>
      {waiting > 0 && (
        <button type="button" class="queue-reject-all" onClick={() => void rejectAll()}>
          Reject all ({waiting + 1})
        </button>
      )}
    </div>
  )
  return (
    <ApprovalRequest
      key={current ?? ''}
      client={client}
      id={current}
      closeWindow={closeWindow}
      onAnswered={(answered) => void onAnswered(answered)}
      queue={queue}
    />
  )
}

/** One pending request: loads it by id, shows it, answers exactly that id. */
function ApprovalRequest({ client, id, closeWindow, onAnswered, queue }: RequestProps) {
  const [state, setState] = useState<State>({ s: 'loading' })
  const [armed, setArmed] = useState(false)
  const [busy, setBusy] = useState(false)
  const [endSeen, setEndSeen] = useState(false)
  const onEndSeen = useCallback(() => setEndSeen(true), [])
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set())
  const [acknowledged, setAcknowledged] = useState(false)
  const [passedWarning, setPassedWarning] = useState(false)
  const heading = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    if (id === null) {
      setState({ s: 'gone', message: 'No request to show.' })
      return
    }
    void client.call('approvalGet', { id }).then((reply) => {
      if (reply.ok) {
        const v = reply.result.view
        if (v.kind === 'connect' || v.kind === 'solanaConnect') setChecked(new Set(v.selected))
      }
      setState(reply.ok ? { s: 'ready', details: reply.result } : { s: 'gone', message: failureText(reply) })
    })
  }, [client, id])

  useEffect(() => {
    if (state.s !== 'ready') return
    heading.current?.focus()
    const t = setTimeout(() => setArmed(true), ARM_DELAY_MS)
    return () => clearTimeout(t)
  }, [state.s])

  const answer = useCallback(
    async (approved: boolean) => {
      if (state.s !== 'ready' || busy) return
      setBusy(true)
      const v = state.details.view
      // A connect window answers with the accounts checked, in order (the site's active one first).
      const accounts =
        approved && (v.kind === 'connect' || v.kind === 'solanaConnect') ? { accounts: orderedChoice(v.accounts, v.selected, checked) } : {}
      // A sign-in for another site carries the user's override; the background refuses it otherwise.
      const override = approved && needsOverride(v) && acknowledged ? { acknowledged: true as const } : {}
      const passed = approved && state.details.phishing && passedWarning ? { passedWarning: true as const } : {}
      const reply = await client.call('approvalResolve', { id: state.details.id, approved, ...accounts, ...override, ...passed })
      setState(reply.ok ? { s: 'done', approved } : { s: 'gone', message: failureText(reply) })
      setBusy(false)
      if (reply.ok) onAnswered(state.details.id)
    },
    [client, state, busy, onAnswered, checked, acknowledged, passedWarning],
  )

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault()
        void answer(false)
      }
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [answer])

  let body
  if (state.s === 'loading') body = <p role="status">Loading the request…</p>
  else if (state.s === 'gone')
    body = (
      <>
        <p class="error" role="alert">
          {state.message}
        </p>
        <button type="button" onClick={closeWindow}>
          Close
        </button>
      </>
    )
  else if (state.s === 'done')
    body = (
      <p role="status" class={state.approved ? 'ok' : 'error'} data-testid="approval-result">
        {state.approved ? 'Approved.' : 'Rejected.'}
      </p>
    )
  else if (state.details.phishing && !passedWarning)
    body = (
      <PhishingWarning
        origin={state.details.origin}
        flag={state.details.phishing}
        busy={busy}
        onBack={() => void answer(false)}
        onContinue={() => setPassedWarning(true)}
      />
    )
  else {
    const { details } = state
    const mustScroll = details.view.kind === 'typedData' && !endSeen
    const noAccount = (details.view.kind === 'connect' || details.view.kind === 'solanaConnect') && checked.size === 0
    const notAcknowledged = needsOverride(details.view) && !acknowledged
    body = (
      <>
        <h1 ref={heading} tabIndex={-1} class="approval-title">
          {details.view.kind === 'signIn' ? signInTitle(details.view.domain) : titleOf(details.method, details.view.kind)}
        </h1>
        <section class="origin" aria-label="Requesting site">
          <span class="label">Requested by</span>
          <OriginLine origin={details.origin} />
          {isInsecureOrigin(details.origin) && (
            <span
              class="badge insecure"
              data-testid="approval-insecure"
              title="This site does not use HTTPS: its requests can be altered on the network."
            >
              Not secure (http)
            </span>
          )}
          <p class="request-what" data-testid="approval-what">
            {describeRequest(details.method, details.view.kind)}
          </p>
          <details class="technical">
            <summary>Technical details</summary>
            <code class="method" data-testid="approval-method">
              {details.method}
            </code>
          </details>
        </section>
        <AccountNames.Provider value={details.names ?? {}}>
          <ViewBody
            view={details.view}
            onEndSeen={onEndSeen}
            choice={{ checked, onChange: setChecked }}
            override={{ acknowledged, onChange: setAcknowledged }}
          />
        </AccountNames.Provider>
        <div class="actions">
          <button type="button" class="danger" disabled={busy} onClick={() => void answer(false)}>
            Reject
          </button>
          <button
            type="button"
            class="primary"
            disabled={!armed || busy || mustScroll || noAccount || notAcknowledged}
            onClick={() => void answer(true)}
          >
            Approve
          </button>
        </div>
        {notAcknowledged && (
          <p class="hint" data-testid="signin-override-hint">
            Approve is enabled once you tick "I understand, sign in anyway" above.
          </p>
        )}
        {mustScroll && (
          <p class="hint" data-testid="approval-scroll-hint">
            Scroll to the end of all fields: Approve is enabled once every field has been shown.
          </p>
        )}
        <p class="hint">Escape rejects. Closing this window rejects.</p>
      </>
    )
  }

  return (
    <div
      class="shell approval"
      data-state={state.s}
      data-phishing={state.s === 'ready' && state.details.phishing && !passedWarning ? 'warning' : undefined}
    >
      <header class="app-header">
        <img src="/icon-48.png" alt="" width={24} height={24} />
        <span class="brand">Sigil</span>
      </header>
      <main class="app-main">
        {queue}
        {body}
      </main>
    </div>
  )
}

/** The requesting origin in full, its registrable domain emphasised (the part that names the site). */
function OriginLine({ origin }: { origin: string }) {
  const p = originParts(origin)
  return (
    <strong data-testid="approval-origin" title={origin}>
      <span class="origin-muted">{p.scheme}</span>
      <span class="origin-muted">{p.subdomain}</span>
      <span class="origin-domain" data-testid="approval-domain">
        {p.registrable}
      </span>
      <span class="origin-muted">{p.port}</span>
    </strong>
  )
}
