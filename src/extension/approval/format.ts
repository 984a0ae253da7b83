/** Display helpers for the approval page (text only). */

/** Wei (decimal string) → ETH with up to 18 decimals, trailing zeros trimmed. */
export function formatEth(wei: string): string {
  const n = BigInt(wei)
  const unit = 10n ** 18n
  const whole = n / unit
  const frac = (n % unit).toString().padStart(18, '0').replace(/0+$/, '')
  return frac ? `${whole}.${frac}` : whole.toString()
}

/** Title of the approval window for a method. */
export function titleOf(method: string): string {
  switch (method) {
    case 'eth_requestAccounts':
    case 'wallet_requestPermissions':
      return 'Connect to this site?'
    case 'personal_sign':
      return 'Sign this message?'
    case 'eth_signTypedData_v4':
      return 'Sign this typed data?'
    case 'eth_signTransaction':
      return 'Sign this transaction?'
    case 'wallet_switchEthereumChain':
      return 'Switch network?'
    default:
      return 'Approve this request?'
  }
}

/**
 * Whether the requesting origin is plain `http:` (issue 22): anyone on the network path can
 * change what such a page asks, so the approval window flags it with a visible badge.
 */
export function isInsecureOrigin(origin: string): boolean {
  return origin.toLowerCase().startsWith('http:')
}
