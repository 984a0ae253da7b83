/**
 * Installs the provider in the page: `window.ethereum` (only if absent), EIP-6963 announcements,
 * and the Solana wallet of the Wallet Standard, both over one transport.
 */
import { announceProvider, type Eip6963ProviderDetail } from './eip6963'
import { SIGIL_ICON } from './icon'
import { createProvider, type SigilProvider } from './provider'
import { createWindowTransport, type TransportWindow } from './transport'
import { uuidV4 } from './uuid'
import { registerSolanaWallet } from './walletStandard'

/** EIP-6963 reverse-DNS id of the wallet. */
export const SIGIL_RDNS = 'app.sigil'

/** The window surface {@link installProvider} touches. */
export type InstallWindow = TransportWindow &
  Pick<Window, 'dispatchEvent'> & { ethereum?: unknown; crypto: Pick<Crypto, 'getRandomValues'> }

/** Create the provider, define `window.ethereum` if no other wallet did, and announce it. */
export function installProvider(win: InstallWindow): Eip6963ProviderDetail & { provider: SigilProvider } {
  const transport = createWindowTransport(win)
  const provider = createProvider(transport)
  if (win.ethereum === undefined) {
    Object.defineProperty(win, 'ethereum', { value: provider, configurable: true, enumerable: true, writable: true })
    win.dispatchEvent(new Event('ethereum#initialized'))
  }
  const info = { uuid: uuidV4(win.crypto), name: 'Sigil', icon: SIGIL_ICON, rdns: SIGIL_RDNS }
  registerSolanaWallet(win, transport, SIGIL_ICON)
  return announceProvider(win, info, provider)
}
