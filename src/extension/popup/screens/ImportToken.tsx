/**
 * "Import token": the user pastes an ERC-20 contract address on the selected EVM network; the
 * wallet reads its symbol and decimals on chain (background/wallet/importToken.ts) and shows them;
 * "Import" adds it to the user's tokens, shown on the home screen with its balance.
 */
import { useState } from 'preact/hooks'
import type { PopupApi } from '../../protocol/popupApi'
import type { PopupClient } from '../client'
import type { Network } from '../network'
import { Busy, ErrorLine, Field } from '../ui'
import { useAction } from '../useAction'

type Preview = PopupApi['previewToken']['result']

/** Props of {@link ImportTokenLink}. */
export type ImportTokenLinkProps = { network: Pick<Network, 'family' | 'name'> | null | undefined; onImport: () => void }

/** "Import token" link for the home screen; renders nothing off EVM networks (they take no ERC-20 tokens). */
export function ImportTokenLink({ network, onImport }: ImportTokenLinkProps) {
  if (network?.family !== 'evm') return null
  return (
    <button type="button" class="link" data-testid="import-token-link" onClick={onImport}>
      Import token
    </button>
  )
}

/** Props of {@link ImportToken}. */
export type ImportTokenProps = {
  client: PopupClient
  network: Network
  /** After an import (or Cancel): back to the home screen. */
  onDone: () => void
  onSessionLost: () => void
}

/** The "Import token" screen. */
export function ImportToken({ client, network, onDone, onSessionLost }: ImportTokenProps) {
  const [address, setAddress] = useState('')
  const [preview, setPreview] = useState<Preview | null>(null)
  const find = useAction(onSessionLost)
  const save = useAction(onSessionLost)
  const fieldError = find.field === 'address' && find.error ? find.error.replace(/^address: /, '') : null

  const onFind = async (e: Event) => {
    e.preventDefault()
    setPreview(null)
    await find.run(() => client.call('previewToken', { caip2: network.caip2, address }), setPreview)
  }
  const onImport = async () => {
    if (!preview) return
    const done = await save.run(() => client.call('importToken', { caip2: network.caip2, address: preview.address }))
    if (done) onDone()
  }

  return (
    <section aria-labelledby="import-token-heading">
      <h2 id="import-token-heading">Import token on {network.name}</h2>
      <form onSubmit={onFind} noValidate>
        <Field label="Token contract address" hint="Sigil reads the token’s symbol and decimals from the network." error={fieldError}>
          <input
            name="address"
            value={address}
            autoComplete="off"
            spellcheck={false}
            placeholder="0x…"
            aria-invalid={fieldError ? 'true' : undefined}
            onInput={(e) => {
              setAddress(e.currentTarget.value)
              setPreview(null)
              find.clear()
            }}
          />
        </Field>
        <div class="row">
          <button type="button" onClick={onDone}>
            Cancel
          </button>
          <button type="submit" class={preview ? undefined : 'primary'} disabled={find.busy || address.trim() === ''}>
            Find token
          </button>
        </div>
        <Busy busy={find.busy} label="Reading the token…" />
        {!fieldError && <ErrorLine error={find.error} />}
      </form>
      {preview && (
        <div data-testid="token-preview">
          <dl class="facts">
            <dt>Symbol</dt>
            <dd data-field="symbol">{preview.symbol}</dd>
            <dt>Decimals</dt>
            <dd data-field="decimals">{preview.decimals}</dd>
            <dt>Network</dt>
            <dd>{network.name}</dd>
            <dt>Contract</dt>
            <dd class="address" data-field="contract">
              {preview.address}
            </dd>
          </dl>
          {preview.alreadyListed ? (
            <p class="notice">This token is already in your list.</p>
          ) : (
            <p class="hint">Anyone can make a token with any name. Import only tokens you trust.</p>
          )}
          <button type="button" class="primary" onClick={onImport} disabled={save.busy || preview.alreadyListed}>
            Import {preview.symbol}
          </button>
          <Busy busy={save.busy} label="Importing…" />
          <ErrorLine error={save.error} />
        </div>
      )}
    </section>
  )
}
