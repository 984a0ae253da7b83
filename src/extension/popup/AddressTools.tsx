/** Address helpers for the wallet screens: the short form, a Copy button whose "Copied" resets, and the Receive panel (QR + full address). */
import { useEffect, useState } from 'preact/hooks'
import { QrCode } from './QrCode'

/** How long "Copied" stays before the button reads "Copy" again. */
export const COPIED_RESET_MS = 1500

/** `0x1234…abcd`: the start and end of a long address. */
export function shortAddress(a: string): string {
  return a.length > 14 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a
}

/** Copy `text` to the clipboard; reads "Copied" for {@link COPIED_RESET_MS}. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const t = setTimeout(() => setCopied(false), COPIED_RESET_MS)
    return () => clearTimeout(t)
  }, [copied])
  return (
    <button
      type="button"
      class="small"
      aria-label={label}
      onClick={() => {
        void navigator.clipboard.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        )
      }}
    >
      <span aria-live="polite">{copied ? 'Copied' : 'Copy'}</span>
    </button>
  )
}

/** Receive: the address as a QR code, in full, with Copy. */
export function ReceivePanel({ address, name }: { address: string; name: string }) {
  return (
    <div class="receive" data-receive={address}>
      <QrCode text={address} label={`QR code of address ${address}`} />
      <p class="hint">Send only to this address on its own network. Address of {name}:</p>
      <div class="row">
        <code class="address full-address">{address}</code>
        <CopyButton text={address} label={`Copy the full address of ${name}`} />
      </div>
    </div>
  )
}
