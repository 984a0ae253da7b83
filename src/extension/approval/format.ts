/** Display helpers for the approval page (text only). */
import { parse as parseDomain } from 'tldts'

/** Title of the approval window for a method and the kind of its view (some methods show more than one kind). */
export function titleOf(method: string, kind?: string): string {
  if (kind === 'deploy') return 'Deploy a contract?'
  if (kind === 'signIn') return 'Sign in?'
  // wallet_addEthereumChain for a chain the wallet knows asks for the switch only.
  if (kind === 'switchChain') return 'Switch network?'
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
    case 'standard:connect':
      return 'Connect to this site (Solana)?'
    case 'solana:signMessage':
      return 'Sign this message?'
    case 'solana:signTransaction':
      return 'Sign this Solana transaction?'
    case 'solana:signAndSendTransaction':
      return 'Sign and send this Solana transaction?'
    case 'eth_sendTransaction':
    case 'wallet_sendTransaction':
      return 'Send this transaction?'
    case 'wallet_sendCalls':
      return 'Send these calls?'
    case 'wallet_addEthereumChain':
      return 'Add this network?'
    case 'wallet_watchAsset':
      return 'Add this token?'
    default:
      return 'Approve this request?'
  }
}

/**
 * What the site asks, in words, under its origin ("wants you to send a transaction"), from what
 * the window shows; the method's wire name is kept for the folded technical details only.
 */
export function describeRequest(method: string, kind?: string): string {
  switch (kind) {
    case 'deploy':
      return 'wants you to deploy a contract from your account'
    case 'signIn':
      return 'wants you to sign in with your account'
    case 'switchChain':
      return 'wants to switch the network it uses'
    case 'connect':
    case 'solanaConnect':
      return 'wants to see your account address and ask you for approvals'
    case 'message':
      return 'wants your signature on a message'
    case 'typedData':
      return 'wants your signature on structured data'
    case 'transaction':
      return 'wants you to sign a transaction it will send itself'
    case 'sendTransaction':
      return 'wants you to send a transaction'
    case 'sendCalls':
      return 'wants you to send several calls together'
    case 'addChain':
      return 'wants to add a network to your wallet'
    case 'watchAsset':
      return 'wants to add a token to your wallet'
    case 'solanaTransaction':
      return method === 'solana:signAndSendTransaction'
        ? 'wants you to send a transaction'
        : 'wants you to sign a transaction it will send itself'
    default:
      return 'asks for your approval'
  }
}

/** An address shortened for display, its start and end kept ("0x5b9F…39BF"); short ones unchanged. */
export function shortAddress(address: string): string {
  const head = address.startsWith('0x') ? 6 : 4
  return address.length <= head + 6 ? address : `${address.slice(0, head)}…${address.slice(-4)}`
}

/** Title of a sign-in window: the site the message says the user signs in to (its domain, as text). */
export function signInTitle(domain: string): string {
  return `Sign in to ${domain}`
}

/**
 * Whether the requesting origin is plain `http:`: anyone on the network path can
 * change what such a page asks, so the approval window flags it with a visible badge.
 */
export function isInsecureOrigin(origin: string): boolean {
  return origin.toLowerCase().startsWith('http:')
}

/** An origin split for display: the registrable domain is what identifies the site. */
export type OriginParts = { scheme: string; subdomain: string; registrable: string; port: string }

/**
 * Split `origin` so the registrable domain (public-suffix list, `tldts`) can be emphasised, as
 * a lookalike host hides it: `https://login.example.co.uk.evil.io:8443` → sub `login.example.co.uk.`,
 * registrable `evil.io`. IP addresses and single-label hosts are their own registrable part.
 */
export function originParts(origin: string): OriginParts {
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return { scheme: '', subdomain: '', registrable: origin, port: '' }
  }
  const host = url.hostname
  const domain = parseDomain(host, { allowPrivateDomains: true }).domain
  const registrable = domain && host.endsWith(domain) ? domain : host
  return {
    scheme: `${url.protocol}//`,
    subdomain: host.slice(0, host.length - registrable.length),
    registrable,
    port: url.port ? `:${url.port}` : '',
  }
}
