/**
 * Send: from one of the accounts the selected network takes (by name; hidden ones left out), the native asset or one
 * of the network's tokens, to a recipient checked for the chain, an amount with Max; then a Review
 * of from / to / amount / fee / network; then the send's status polled until confirmed or failed.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import type { PopupApi } from '../../protocol/popupApi'
import { formatUnits, parseAmount, significantText } from '../../amounts'
import { checkRecipient } from '../../recipients'
import type { PopupClient } from '../client'
import type { Network } from '../network'
import { Busy, ErrorLine, Field } from '../ui'
import { useAction } from '../useAction'

type AccountBalances = PopupApi['balances']['result']['accounts']
type Estimate = PopupApi['sendEstimate']['result']
type Status = PopupApi['sendStatus']['result']

/** How often the status is asked for while pending. */
export const STATUS_POLL_MS = 1000

/** Props of {@link Send}. */
export type SendProps = { client: PopupClient; network: Network; from?: string | null; onSessionLost(): void; onHistory?: () => void }

/** "Trading · 0x1234…abcd" for one of the user's accounts, the address alone otherwise. */
function Labeled({ address, names }: { address: string; names: Record<string, string> }) {
  const name = names[address] ?? names[address.toLowerCase()]
  return name ? (
    <>
      <strong class="name">{name}</strong> <span class="address">{address}</span>
    </>
  ) : (
    <>{address}</>
  )
}

function Facts({ e, amount, names }: { e: Estimate; amount: bigint; names: Record<string, string> }) {
  return (
    <dl class="facts" aria-label="Review">
      <dt>Network</dt>
      <dd data-field="network">{e.networkName}</dd>
      <dt>From</dt>
      <dd data-field="from" class="address">
        <Labeled address={e.from} names={names} />
      </dd>
      <dt>To</dt>
      <dd data-field="to" class="address">
        <Labeled address={e.to} names={names} />
      </dd>
      <dt>Amount</dt>
      <dd data-field="amount">
        {formatUnits(amount, e.asset.decimals)} {e.asset.symbol}
      </dd>
      <dt>Network fee</dt>
      <dd data-field="fee">
        {significantText(e.fee, e.native.decimals)} {e.native.symbol}
        {e.maxFee !== e.fee && (
          <span class="hint">
            {' '}
            (at most {significantText(e.maxFee, e.native.decimals, 4, true)} {e.native.symbol})
          </span>
        )}
      </dd>
      {e.createsTokenAccount && (
        <>
          <dt>New account</dt>
          <dd data-field="creates-account">
            Creates the recipient’s {e.asset.symbol} account; you pay its rent of{' '}
            {formatUnits(e.createsTokenAccount.rent, e.native.decimals)} {e.native.symbol}
          </dd>
        </>
      )}
    </dl>
  )
}

/** The Send screen. */
export function Send({ client, network, from: initialFrom = null, onSessionLost, onHistory }: SendProps) {
  const [accounts, setAccounts] = useState<AccountBalances | null>(null)
  const [names, setNames] = useState<Record<string, string>>({})
  const [from, setFrom] = useState<string>(initialFrom ?? '')
  const [token, setToken] = useState<string>('')
  const [to, setTo] = useState('')
  const [amountText, setAmountText] = useState('')
  const [touched, setTouched] = useState(false)
  const [maxProblem, setMaxProblem] = useState<string | null>(null)
  /** The estimate's refusal of this amount (a Solana amount below rent exemption), shown under Amount. */
  const [amountProblem, setAmountProblem] = useState<string | null>(null)
  const [review, setReview] = useState<{ estimate: Estimate; amount: bigint } | null>(null)
  const [sent, setSent] = useState<{ id: string; status: Status | null } | null>(null)
  const load = useAction(onSessionLost)
  const estimate = useAction(onSessionLost)
  const submit = useAction(onSessionLost)
  const poll = useAction(onSessionLost)
  const { run } = load
  const caip2 = network.caip2
  // Retry re-reads the balances; `stale` is set when they are the last known ones (service or node not answering).
  const [attempt, setAttempt] = useState(0)
  const [stale, setStale] = useState<{ at: number; advice: string } | null>(null)

  useEffect(() => {
    setReview(null)
    setSent(null)
    void run(
      () => client.call('balances', { caip2 }),
      (r) => {
        setAccounts(r.accounts)
        setStale(r.stale ?? null)
        setFrom((f) => (r.accounts.some((a) => a.address === f) ? f : (r.accounts[0]?.address ?? '')))
      },
    )
  }, [client, run, caip2, attempt])
  // Names are labels: without them every account shows its address.
  useEffect(() => {
    void client.call('accountNames').then((r) => r.ok && setNames(r.result.names))
  }, [client])

  const account = accounts?.find((a) => a.address === from)
  const assets = account?.balances ?? []
  const asset = assets.find((b) => (b.token ?? '') === token) ?? assets[0]
  const recipient = checkRecipient(network.family, to)
  const parsed = asset ? parseAmount(amountText, asset.decimals) : ({ ok: false, reason: 'No balance read yet' } as const)
  // A token's fee is paid in the native coin, so more than its balance can never be sent.
  const amount =
    parsed.ok && asset?.token !== undefined && parsed.value > BigInt(asset.balance)
      ? ({ ok: false, reason: `More than your balance of ${formatUnits(asset.balance, asset.decimals)} ${asset.symbol}` } as const)
      : parsed
  const request = { caip2, from, to: recipient.ok ? recipient.address : to.trim(), ...(asset?.token ? { token: asset.token } : {}) }

  const onMax = () =>
    void estimate.run(
      () => client.call('sendEstimate', request),
      (e) => {
        setMaxProblem(e.problem ?? (e.max === '0' ? `Nothing to send once the fee is paid.` : null))
        if (!e.problem) setAmountText(formatUnits(e.max, e.asset.decimals))
      },
    )

  const onReview = (ev: Event) => {
    ev.preventDefault()
    setTouched(true)
    if (!recipient.ok || !amount.ok) return
    setAmountProblem(null)
    void estimate.run(
      () => client.call('sendEstimate', { ...request, amount: amount.value.toString() }),
      (e) => (e.problemField === 'amount' && e.problem ? setAmountProblem(e.problem) : setReview({ estimate: e, amount: amount.value })),
    )
  }

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  /** The send being followed; cleared on unmount and on "New send", which stops the polling. */
  const following = useRef<string | null>(null)
  const pollRun = poll.run
  const follow = useCallback(
    (id: string) => {
      if (following.current !== id) return
      void pollRun(
        () => client.call('sendStatus', { sendTransactionStatusId: id }),
        (s) => {
          if (following.current !== id) return
          setSent({ id, status: s })
          if (s.state === 'pending') timer.current = setTimeout(() => follow(id), STATUS_POLL_MS)
        },
      ).then((r) => {
        // A failed poll (service briefly away) tries again; the send itself goes on at the service.
        if (r === undefined && following.current === id) timer.current = setTimeout(() => follow(id), STATUS_POLL_MS * 3)
      })
    },
    [client, pollRun],
  )
  const stopFollowing = () => {
    following.current = null
    clearTimeout(timer.current)
  }
  useEffect(() => stopFollowing, [])

  const onConfirm = () => {
    if (!review) return
    const e = review.estimate
    void submit.run(
      () =>
        client.call('sendSubmit', {
          caip2: e.caip2,
          from: e.from,
          to: e.to,
          ...(e.asset.token ? { token: e.asset.token } : {}),
          amount: review.amount.toString(),
          ...(e.evm ? { evm: e.evm } : {}),
        }),
      (r) => {
        setSent({ id: r.sendTransactionStatusId, status: null })
        following.current = r.sendTransactionStatusId
        follow(r.sendTransactionStatusId)
      },
    )
  }

  if (sent && review) {
    const s = sent.status
    const state = s?.state ?? 'pending'
    return (
      <section aria-labelledby="send-heading">
        <h2 id="send-heading">Send status</h2>
        <Facts e={review.estimate} amount={review.amount} names={names} />
        <p
          id="send-status"
          role="status"
          aria-live="polite"
          data-state={state}
          class={state === 'failed' ? 'error' : state === 'confirmed' ? 'ok' : ''}
        >
          {state === 'pending' && `Pending (${(s?.txStatus ?? 'submitted').toLowerCase()})…`}
          {state === 'confirmed' && 'Confirmed'}
          {state === 'failed' && `Failed: ${s?.message ?? 'the transaction failed'}`}
        </p>
        {s?.txHash && (
          <p class="hint">
            Transaction{' '}
            <code class="address" data-field="tx-hash">
              {s.txHash}
            </code>
          </p>
        )}
        <ErrorLine error={poll.error} />
        <div class="row">
          <button
            type="button"
            onClick={() => {
              stopFollowing()
              setSent(null)
              setReview(null)
              setAmountText('')
              void run(
                () => client.call('balances', { caip2 }),
                (r) => setAccounts(r.accounts),
              )
            }}
          >
            New send
          </button>
          {onHistory && (
            <button type="button" onClick={onHistory}>
              History
            </button>
          )}
        </div>
      </section>
    )
  }

  if (review) {
    const e = review.estimate
    return (
      <section aria-labelledby="send-heading">
        <h2 id="send-heading">Review</h2>
        <Facts e={e} amount={review.amount} names={names} />
        {e.problem && (
          <p class="error" role="alert">
            {e.problem}
          </p>
        )}
        <div class="row">
          <button type="button" onClick={() => setReview(null)} disabled={submit.busy}>
            Back
          </button>
          <button type="button" class="primary" onClick={onConfirm} disabled={submit.busy || e.problem !== undefined}>
            Confirm and send
          </button>
        </div>
        <Busy busy={submit.busy} label="Sending…" />
        <ErrorLine error={submit.error} />
      </section>
    )
  }

  return (
    <section aria-labelledby="send-heading">
      <h2 id="send-heading">Send on {network.name}</h2>
      <Busy busy={load.busy} label="Loading accounts and balances…" />
      <ErrorLine error={load.error} />
      {(load.error || stale) && (
        <div class="stale-banner" id="send-stale" role="status">
          {stale && (
            <p>
              {stale.advice} Balances as of {new Date(stale.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}.
            </p>
          )}
          <button type="button" disabled={load.busy} onClick={() => setAttempt((n) => n + 1)}>
            Retry
          </button>
        </div>
      )}
      {accounts?.length === 0 && <p>No {network.family === 'evm' ? 'Ethereum' : 'Solana'} account to send from.</p>}
      {accounts && accounts.length > 0 && (
        <form onSubmit={onReview} noValidate>
          <Field label="From">
            <select value={from} onChange={(e) => setFrom(e.currentTarget.value)}>
              {accounts
                .filter((a) => !a.hidden || a.address === from)
                .map((a) => (
                  <option key={a.address} value={a.address}>
                    {a.name} · {a.address}
                  </option>
                ))}
            </select>
          </Field>
          <Field label="Asset">
            <select value={asset?.token ?? ''} onChange={(e) => setToken(e.currentTarget.value)}>
              {assets.map((b) => (
                <option key={b.caip19} value={b.token ?? ''}>
                  {b.symbol} (balance {formatUnits(b.balance, b.decimals)})
                </option>
              ))}
            </select>
          </Field>
          <Field label="Recipient" hint={network.family === 'evm' ? '0x… address' : 'base58 address'}>
            <input
              value={to}
              onInput={(e) => {
                setTo(e.currentTarget.value)
                setAmountProblem(null)
              }}
              onBlur={() => to && setTouched(true)}
              spellcheck={false}
              autoComplete="off"
            />
          </Field>
          {recipient.ok && (names[recipient.address] ?? names[recipient.address.toLowerCase()]) && (
            <p class="hint" id="recipient-name">
              Your account {names[recipient.address] ?? names[recipient.address.toLowerCase()]}
            </p>
          )}
          {(touched || to.length >= 32) && !recipient.ok && (
            <p class="error" id="recipient-error">
              {recipient.reason}
            </p>
          )}
          <div class="row">
            <Field label="Amount">
              <input
                value={amountText}
                inputMode="decimal"
                onInput={(e) => {
                  setAmountText(e.currentTarget.value)
                  setAmountProblem(null)
                }}
                autoComplete="off"
                aria-invalid={amountProblem !== null || (touched && !amount.ok)}
                aria-describedby={amountProblem !== null || (touched && !amount.ok) ? 'amount-error' : undefined}
              />
            </Field>
            <button type="button" onClick={onMax} disabled={estimate.busy || !recipient.ok}>
              Max
            </button>
          </div>
          {maxProblem && <p class="error">{maxProblem}</p>}
          {touched && !amount.ok ? (
            <p class="error" id="amount-error">
              {amount.reason}
            </p>
          ) : (
            amountProblem && (
              <p class="error field-error" id="amount-error" role="alert">
                {amountProblem}
              </p>
            )
          )}
          <button type="submit" class="primary" disabled={estimate.busy}>
            Review
          </button>
          <Busy busy={estimate.busy} label="Estimating the fee…" />
          <ErrorLine error={estimate.error} />
        </form>
      )}
    </section>
  )
}
