/**
 * NFTs on the home screen and sending one, as MetaMask and Rabby show them: per Ethereum account,
 * the ERC-721 and ERC-1155 tokens it holds on the selected network (found on chain by
 * background/wallet/nfts.ts), each row with its collection (or the short contract address when
 * the contract has no name), `#id` and for ERC-1155 how many ("×3"), and a Send button. Sending:
 * the recipient (and for ERC-1155 how many), a review in words ("Send NFT TestNft721 #7 to
 * 0x7099…79C8", the fee in ETH), then the transaction's status until it is confirmed. "Import NFT"
 * adds one by contract and token id that discovery does not find (checked on chain: the account
 * must hold it).
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { significantText } from '../../amounts'
import type { PopupApi } from '../../protocol/popupApi'
import { shortAddress } from '../AddressTools'
import type { PopupClient } from '../client'
import { Monogram } from '../Identicon'
import type { Network } from '../network'
import { Busy, ErrorLine, Field } from '../ui'
import { useAction } from '../useAction'
import { STATUS_POLL_MS } from './Send'

type NftAccounts = PopupApi['nfts']['result']['accounts']
/** One NFT as the background lists it. */
export type Nft = NftAccounts[number]['nfts'][number]
type Estimate = PopupApi['nftSendEstimate']['result']
type Status = PopupApi['sendStatus']['result']

/** "TestNft721", or the short contract address when the collection has no name. */
export function collectionOf(nft: Pick<Nft, 'collection' | 'contract'>): string {
  return nft.collection ?? shortAddress(nft.contract)
}

/** "TestNft721 #7" (and "×3" after it for an ERC-1155 balance above 1). */
export function nftLabel(nft: Pick<Nft, 'collection' | 'contract' | 'tokenId'>): string {
  return `${collectionOf(nft)} #${nft.tokenId}`
}

/** Props of {@link NftList}. */
export type NftListProps = { accounts: NftAccounts; onSend(from: string, nft: Nft): void }

/** The NFT rows of each account that holds any; "No NFTs on this network" when none does. */
export function NftList({ accounts, onSend }: NftListProps) {
  const holding = accounts.filter((a) => a.nfts.length > 0)
  if (holding.length === 0) return <p class="hint">No NFTs on this network</p>
  return (
    <>
      {holding.map((a) => (
        <ul key={a.address} class="nfts" aria-label={`NFTs of ${a.name}`}>
          {holding.length > 1 && <li class="nft-owner hint">{a.name}</li>}
          {a.nfts.map((n) => (
            <li
              key={`${n.contract}:${n.tokenId}`}
              class="nft"
              data-contract={n.contract}
              data-token-id={n.tokenId}
              data-amount={n.amount}
              title={`${collectionOf(n)} #${n.tokenId} · contract ${n.contract}`}
            >
              <Monogram symbol={collectionOf(n)} id={n.contract} size={28} />
              <span class="nft-name">
                <span class="nft-collection">{collectionOf(n)}</span> <span class="nft-id">#{n.tokenId}</span>
                {n.standard === 'erc1155' && <span class="nft-amount"> ×{n.amount}</span>}
              </span>
              <button type="button" class="small" aria-label={`Send ${nftLabel(n)}`} onClick={() => onSend(a.address, n)}>
                Send
              </button>
            </li>
          ))}
        </ul>
      ))}
    </>
  )
}

/** Props of {@link ImportNftForm}. */
export type ImportNftFormProps = {
  client: PopupClient
  network: Network
  /** The Ethereum accounts the NFT may belong to (the first is chosen). */
  accounts: ReadonlyArray<{ address: string; name: string }>
  onImported(nft: Nft): void
  onCancel(): void
  onSessionLost(): void
}

/** "Import NFT": the account, the contract address and the token id, checked on chain. */
export function ImportNftForm({ client, network, accounts, onImported, onCancel, onSessionLost }: ImportNftFormProps) {
  const [address, setAddress] = useState(accounts[0]?.address ?? '')
  const [contract, setContract] = useState('')
  const [tokenId, setTokenId] = useState('')
  const save = useAction(onSessionLost)
  const fieldError = (field: string) => (save.field === field && save.error ? save.error.replace(new RegExp(`^${field}: `), '') : null)
  const onSubmit = (e: Event) => {
    e.preventDefault()
    void save.run(() => client.call('importNft', { caip2: network.caip2, address, contract, tokenId }), onImported)
  }
  return (
    <form class="import-nft" onSubmit={onSubmit} noValidate aria-label="Import NFT">
      {accounts.length > 1 && (
        <Field label="Account">
          <select value={address} onChange={(e) => setAddress(e.currentTarget.value)}>
            {accounts.map((a) => (
              <option key={a.address} value={a.address}>
                {a.name} · {shortAddress(a.address)}
              </option>
            ))}
          </select>
        </Field>
      )}
      <Field label="NFT contract address" error={fieldError('contract')}>
        <input
          name="contract"
          value={contract}
          autoComplete="off"
          spellcheck={false}
          placeholder="0x…"
          aria-invalid={fieldError('contract') ? 'true' : undefined}
          onInput={(e) => {
            setContract(e.currentTarget.value)
            save.clear()
          }}
        />
      </Field>
      <Field label="Token ID" error={fieldError('tokenId')}>
        <input
          name="tokenId"
          value={tokenId}
          inputMode="numeric"
          autoComplete="off"
          aria-invalid={fieldError('tokenId') ? 'true' : undefined}
          onInput={(e) => {
            setTokenId(e.currentTarget.value)
            save.clear()
          }}
        />
      </Field>
      {save.error && !fieldError('contract') && !fieldError('tokenId') && <ErrorLine error={save.error} />}
      <Busy busy={save.busy} label="Checking the NFT on the network…" />
      <div class="row">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" class="primary" disabled={save.busy || contract.trim() === '' || tokenId.trim() === ''}>
          Import
        </button>
      </div>
    </form>
  )
}

/** Props of {@link NftSection}. */
export type NftSectionProps = {
  client: PopupClient
  network: Network | null
  /** Changes when the home screen refreshes: the NFTs are read again. */
  refreshKey: number
  onSend(from: string, nft: Nft): void
  onSessionLost(): void
}

/** The home screen's "NFTs" section (EVM networks only). */
export function NftSection({ client, network, refreshKey, onSend, onSessionLost }: NftSectionProps) {
  const [listed, setListed] = useState<{ caip2: string; accounts: NftAccounts } | null>(null)
  const [importing, setImporting] = useState(false)
  const [imported, setImported] = useState<string | null>(null)
  const [reads, setReads] = useState(0)
  const load = useAction(onSessionLost)
  const { run } = load
  const caip2 = network?.family === 'evm' ? network.caip2 : undefined
  useEffect(() => {
    if (caip2 === undefined) return
    void run(
      () => client.call('nfts', { caip2 }),
      (r) => setListed(r),
    )
  }, [client, run, caip2, refreshKey, reads])
  if (caip2 === undefined) return null
  const shown = listed?.caip2 === caip2 ? listed.accounts : null
  return (
    <section class="nft-section" aria-labelledby="nfts-heading">
      <h3 id="nfts-heading">NFTs</h3>
      <Busy busy={load.busy} label="Looking for your NFTs…" />
      {load.error && (
        <p class="error" id="nfts-error">
          NFTs unavailable: {load.error}
        </p>
      )}
      {shown && <NftList accounts={shown} onSend={onSend} />}
      {imported && <p class="ok">{imported}</p>}
      {network && shown && shown.length > 0 && importing && (
        <ImportNftForm
          client={client}
          network={network}
          accounts={shown}
          onImported={(n) => {
            setImporting(false)
            setImported(`Imported ${nftLabel(n)}`)
            setReads((r) => r + 1)
          }}
          onCancel={() => setImporting(false)}
          onSessionLost={onSessionLost}
        />
      )}
      {shown && shown.length > 0 && !importing && (
        <button
          type="button"
          class="link"
          onClick={() => {
            setImported(null)
            setImporting(true)
          }}
        >
          Import NFT
        </button>
      )}
    </section>
  )
}

/** Props of {@link SendNft}. */
export type SendNftProps = {
  client: PopupClient
  network: Network
  from: string
  nft: Nft
  /** Back to the home screen (after the send, or Cancel). */
  onDone(): void
  onSessionLost(): void
}

/** The "Send NFT" screen: recipient (and amount for ERC-1155), review, status. */
export function SendNft({ client, network, from, nft, onDone, onSessionLost }: SendNftProps) {
  const [to, setTo] = useState('')
  const [amount, setAmount] = useState('1')
  const [review, setReview] = useState<Estimate | null>(null)
  const [sent, setSent] = useState<{ id: string; status: Status | null } | null>(null)
  const estimate = useAction(onSessionLost)
  const submit = useAction(onSessionLost)
  const poll = useAction(onSessionLost)
  const multiple = nft.standard === 'erc1155'
  const fieldError = (field: string) =>
    estimate.field === field && estimate.error ? estimate.error.replace(new RegExp(`^${field}: `), '') : null

  const onReview = (e: Event) => {
    e.preventDefault()
    setReview(null)
    void estimate.run(
      () =>
        client.call('nftSendEstimate', {
          caip2: network.caip2,
          from,
          to: to.trim(),
          contract: nft.contract,
          tokenId: nft.tokenId,
          ...(multiple ? { amount: amount.trim() } : {}),
        }),
      setReview,
    )
  }

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
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
        if (r === undefined && following.current === id) timer.current = setTimeout(() => follow(id), STATUS_POLL_MS * 3)
      })
    },
    [client, pollRun],
  )
  useEffect(
    () => () => {
      following.current = null
      clearTimeout(timer.current)
    },
    [],
  )

  const onConfirm = () => {
    if (!review?.evm) return
    const evm = review.evm
    void submit.run(
      () =>
        client.call('nftSendSubmit', {
          caip2: review.caip2,
          from: review.from,
          to: review.to,
          contract: review.nft.contract,
          tokenId: review.nft.tokenId,
          ...(multiple ? { amount: review.amount } : {}),
          evm,
        }),
      (r) => {
        setSent({ id: r.sendTransactionStatusId, status: null })
        following.current = r.sendTransactionStatusId
        follow(r.sendTransactionStatusId)
      },
    )
  }

  const title = `${nftLabel(nft)}`
  if (review) {
    const what = `${multiple ? `${review.amount} × ` : ''}${nftLabel(review.nft)}`
    const state = sent?.status?.state ?? (sent ? 'pending' : null)
    return (
      <section aria-labelledby="send-nft-heading">
        <h2 id="send-nft-heading">{sent ? 'Send status' : 'Review'}</h2>
        <p class="nft-summary" id="send-nft-summary">
          Send NFT {what} to <span title={review.to}>{shortAddress(review.to)}</span>
        </p>
        <dl class="facts" aria-label="Review">
          <dt>Network</dt>
          <dd data-field="network">{review.networkName}</dd>
          <dt>NFT</dt>
          <dd data-field="nft">
            {what}
            {multiple && <span class="hint"> (you hold {review.nft.amount})</span>}
          </dd>
          <dt>From</dt>
          <dd data-field="from" class="address">
            {review.from}
          </dd>
          <dt>To</dt>
          <dd data-field="to" class="address">
            {review.to}
          </dd>
          <dt>Network fee</dt>
          <dd data-field="fee">
            {significantText(review.fee, review.native.decimals)} {review.native.symbol}
            {review.maxFee !== review.fee && (
              <span class="hint">
                {' '}
                (at most {significantText(review.maxFee, review.native.decimals, 4, true)} {review.native.symbol})
              </span>
            )}
          </dd>
        </dl>
        {review.problem && (
          <p class="error" role="alert">
            {review.problem}
          </p>
        )}
        {state && (
          <p
            id="send-status"
            role="status"
            aria-live="polite"
            data-state={state}
            class={state === 'failed' ? 'error' : state === 'confirmed' ? 'ok' : ''}
          >
            {state === 'pending' && 'Pending…'}
            {state === 'confirmed' && 'Confirmed'}
            {state === 'failed' && `Failed: ${sent?.status?.message ?? 'the transaction failed'}`}
          </p>
        )}
        <Busy busy={submit.busy} label="Sending…" />
        <ErrorLine error={submit.error ?? poll.error} />
        <div class="row">
          {sent ? (
            <button type="button" class="primary" onClick={onDone}>
              Done
            </button>
          ) : (
            <>
              <button type="button" onClick={() => setReview(null)} disabled={submit.busy}>
                Back
              </button>
              <button type="button" class="primary" onClick={onConfirm} disabled={submit.busy || review.problem !== undefined}>
                Confirm
              </button>
            </>
          )}
        </div>
      </section>
    )
  }

  return (
    <section aria-labelledby="send-nft-heading">
      <h2 id="send-nft-heading">Send NFT</h2>
      <p class="nft-summary">
        {title}
        {multiple && <span class="hint"> · you hold {nft.amount}</span>}
      </p>
      <form onSubmit={onReview} noValidate>
        <Field label="Recipient address" error={fieldError('to')}>
          <input
            name="to"
            value={to}
            autoComplete="off"
            spellcheck={false}
            placeholder="0x…"
            aria-invalid={fieldError('to') ? 'true' : undefined}
            onInput={(e) => {
              setTo(e.currentTarget.value)
              estimate.clear()
            }}
          />
        </Field>
        {multiple && (
          <Field label={`How many (at most ${nft.amount})`} error={fieldError('amount')}>
            <input
              name="amount"
              inputMode="numeric"
              value={amount}
              aria-invalid={fieldError('amount') ? 'true' : undefined}
              onInput={(e) => {
                setAmount(e.currentTarget.value)
                estimate.clear()
              }}
            />
          </Field>
        )}
        {estimate.error && !fieldError('to') && !fieldError('amount') && <ErrorLine error={estimate.error} />}
        <Busy busy={estimate.busy} label="Estimating the fee…" />
        <div class="row">
          <button type="button" onClick={onDone}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={estimate.busy || to.trim() === ''}>
            Review
          </button>
        </div>
      </form>
    </section>
  )
}
