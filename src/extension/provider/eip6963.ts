/** EIP-6963 multi-injected provider discovery: announce on load and on every request. */
import type { SigilProvider } from './provider'

/** EIP-6963 `EIP6963ProviderInfo`. */
export type Eip6963ProviderInfo = {
  readonly uuid: string
  readonly name: string
  readonly icon: string
  readonly rdns: string
}

/** EIP-6963 `EIP6963ProviderDetail`. */
export type Eip6963ProviderDetail = {
  readonly info: Eip6963ProviderInfo
  readonly provider: SigilProvider
}

/** The event target the announcer uses (a real `Window` in the page). */
export type AnnounceTarget = Pick<Window, 'addEventListener' | 'dispatchEvent'>

/**
 * Dispatch `eip6963:announceProvider` now and again on each `eip6963:requestProvider`.
 * The detail (and its info) is frozen, as EIP-6963 requires.
 */
export function announceProvider(target: AnnounceTarget, info: Eip6963ProviderInfo, provider: SigilProvider): Eip6963ProviderDetail {
  const detail: Eip6963ProviderDetail = Object.freeze({ info: Object.freeze({ ...info }), provider })
  const announce = () => {
    target.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  }
  target.addEventListener('eip6963:requestProvider', announce)
  announce()
  return detail
}
