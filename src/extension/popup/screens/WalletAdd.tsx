/**
 * Add a wallet: create a new one, import a seed phrase (12 or 24 words, checked here against the
 * BIP-39 word list and checksum before anything leaves the popup) or import a private key
 * (Ethereum hex or Solana base58). The background encrypts the secret to the service's signed import
 * bundle; the fields are cleared as soon as the request is sent.
 */
import { validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { useState } from 'preact/hooks'
import type { PopupClient } from '../client'
import { Busy, ErrorLine, Field } from '../ui'
import { useAction } from '../useAction'

type Mode = 'create' | 'phrase' | 'key'

/** Why a typed phrase is refused, without repeating its words; null when it is valid. */
export function phraseProblem(phrase: string): string | null {
  const words = phrase.trim().toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length !== 12 && words.length !== 24) return `Enter 12 or 24 words (${words.length} so far).`
  const bad = words.findIndex((w) => !wordlist.includes(w))
  if (bad >= 0) return `Word ${bad + 1} is not a seed-phrase word.`
  return validateMnemonic(words.join(' '), wordlist) ? null : 'The words do not form a valid seed phrase: check their spelling and order.'
}

/** Props of {@link WalletAdd}. */
export type WalletAddProps = { client: PopupClient; onDone(): void; onBack(): void; onSessionLost(): void }

/** The "Add wallet" screen. */
export function WalletAdd({ client, onDone, onBack, onSessionLost }: WalletAddProps) {
  const [mode, setMode] = useState<Mode>('create')
  const [walletName, setWalletName] = useState('')
  const [secret, setSecret] = useState('')
  const [keyFormat, setKeyFormat] = useState<'ADDRESS_FORMAT_ETHEREUM' | 'ADDRESS_FORMAT_SOLANA'>('ADDRESS_FORMAT_ETHEREUM')
  const [local, setLocal] = useState<string | null>(null)
  const action = useAction(onSessionLost)
  const choose = (m: Mode) => {
    setMode(m)
    setSecret('')
    setLocal(null)
    action.clear()
  }
  const submit = (e: Event) => {
    e.preventDefault()
    setLocal(null)
    if (walletName.trim() === '') return setLocal('Enter a name.')
    if (mode === 'create') return void action.run(() => client.call('createWallet', { walletName }), onDone)
    if (mode === 'phrase') {
      const problem = phraseProblem(secret)
      if (problem) return setLocal(problem)
      const mnemonic = secret
      setSecret('')
      return void action.run(() => client.call('importWallet', { walletName, mnemonic }), onDone)
    }
    const privateKey = secret
    setSecret('')
    return void action.run(() => client.call('importPrivateKey', { name: walletName, addressFormat: keyFormat, privateKey }), onDone)
  }
  return (
    <section aria-labelledby="add-wallet-heading">
      <h2 id="add-wallet-heading">Add wallet</h2>
      <div class="segmented" role="group" aria-label="How to add">
        {(
          [
            ['create', 'Create new'],
            ['phrase', 'Import seed phrase'],
            ['key', 'Import private key'],
          ] as const
        ).map(([m, label]) => (
          <button key={m} type="button" aria-pressed={mode === m} onClick={() => choose(m)}>
            {label}
          </button>
        ))}
      </div>
      <form class="wallet-add" onSubmit={submit} autocomplete="off">
        <Field
          label={mode === 'key' ? 'Account name' : 'Wallet name'}
          error={action.field === 'walletName' || action.field === 'name' ? action.error : null}
        >
          <input value={walletName} maxLength={64} onInput={(e) => setWalletName(e.currentTarget.value)} />
        </Field>
        {mode === 'create' && (
          <p class="hint">A new seed phrase is made by the key service; its first Ethereum and Solana accounts are added.</p>
        )}
        {mode === 'phrase' && (
          <Field label="Seed phrase" hint="12 or 24 words separated by spaces. It is encrypted to the key service and never stored here.">
            <textarea
              value={secret}
              rows={3}
              spellcheck={false}
              autocapitalize="off"
              autocomplete="off"
              onInput={(e) => setSecret(e.currentTarget.value)}
            />
          </Field>
        )}
        {mode === 'key' && (
          <>
            <Field label="Chain of the key">
              <select value={keyFormat} onChange={(e) => setKeyFormat(e.currentTarget.value as typeof keyFormat)}>
                <option value="ADDRESS_FORMAT_ETHEREUM">Ethereum (hex)</option>
                <option value="ADDRESS_FORMAT_SOLANA">Solana (base58)</option>
              </select>
            </Field>
            <Field label="Private key" hint="Encrypted to the key service and never stored here.">
              <input type="password" value={secret} autocomplete="off" onInput={(e) => setSecret(e.currentTarget.value)} />
            </Field>
          </>
        )}
        <ErrorLine error={local} />
        <div class="row">
          <button type="submit" class="primary" disabled={action.busy}>
            {mode === 'create' ? 'Create wallet' : 'Import'}
          </button>
          <button type="button" onClick={onBack}>
            Back
          </button>
        </div>
        <Busy busy={action.busy} label={mode === 'create' ? 'Creating the wallet…' : 'Importing…'} />
        {action.field !== 'walletName' && action.field !== 'name' && <ErrorLine error={action.error} />}
      </form>
    </section>
  )
}
