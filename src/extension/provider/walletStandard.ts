/**
 * Sigil as a Solana wallet of the Wallet Standard (github.com/wallet-standard/wallet-standard):
 * registered through the `wallet-standard:register-wallet` event (and again for every
 * `wallet-standard:app-ready`), with `standard:connect`, `standard:disconnect`, `standard:events`,
 * `solana:signMessage`, `solana:signTransaction`, `solana:signAndSendTransaction` and `solana:signIn`
 * (Sign In With Solana: the background writes the message in the standard format). Written here
 * rather than imported to keep the inpage script small; it only forwards to the background
 * (dapp/solana/methods.ts), which checks everything and asks the user. Bytes travel as base64. Errors
 * are `ProviderRpcError`s with the EIP-1193 codes (4001 user rejected, 4100 unauthorized, …).
 */
import { RPC_ERROR } from '../protocol/rpcErrors'
import { SIGN_IN_FIELDS, signInInputProblem } from '../protocol/solanaSignIn'
import { ProviderRpcError } from './errors'
import type { Transport } from './transport'

/** Wallet Standard `WalletAccount`. */
export type StandardAccount = {
  readonly address: string
  readonly publicKey: Uint8Array
  readonly chains: readonly `${string}:${string}`[]
  readonly features: readonly `${string}:${string}`[]
}

/** The `change` event's properties (`standard:events`). */
type Change = { accounts?: readonly StandardAccount[]; chains?: readonly `${string}:${string}`[] }
type Listener = (properties: Change) => void
type WireAccount = { address: string; publicKey: string }
type AccountInput = { account: StandardAccount; chain?: string }

/** Wallet Standard `Wallet` (version 1.0.0). */
export type StandardWallet = {
  readonly version: '1.0.0'
  readonly name: string
  readonly icon: `data:image/${string}`
  readonly chains: readonly `${string}:${string}`[]
  readonly accounts: readonly StandardAccount[]
  readonly features: Readonly<Record<`${string}:${string}`, unknown>>
}

/** The window surface {@link registerSolanaWallet} uses. */
export type StandardWindow = Pick<Window, 'addEventListener' | 'dispatchEvent'>

const ACCOUNT_FEATURES = ['solana:signMessage', 'solana:signTransaction', 'solana:signAndSendTransaction', 'solana:signIn'] as const
const VERSIONS = ['legacy', 0] as const

const toBase64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''))
const fromBase64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0))
const invalid = (message: string) => new ProviderRpcError({ code: RPC_ERROR.INVALID_PARAMS, message })

/**
 * Create the wallet over `transport`, learn its chains and this origin's accounts from the
 * background, then register it (now and on every app-ready). Returns the wallet.
 */
export function registerSolanaWallet(win: StandardWindow, transport: Transport, icon: `data:image/${string}`): StandardWallet {
  let chains: `${string}:${string}`[] = []
  let accounts: StandardAccount[] = []
  const listeners = new Set<Listener>()

  const call = <T>(method: string, params?: readonly unknown[]) =>
    new Promise<T>((resolve, reject) =>
      transport.send(method, params, (o) => ('error' in o ? reject(new ProviderRpcError(o.error)) : resolve(o.result as T))),
    )

  /** Same address → same (frozen) account object, so apps can compare accounts by identity. */
  function setAccounts(wire: unknown): void {
    const next = (Array.isArray(wire) ? (wire as WireAccount[]) : []).map(
      (a) =>
        accounts.find((old) => old.address === a.address) ??
        Object.freeze({ address: a.address, publicKey: fromBase64(a.publicKey), chains, features: ACCOUNT_FEATURES }),
    )
    if (next.length === accounts.length && next.every((a, i) => a === accounts[i])) return
    accounts = next
    for (const listener of [...listeners]) {
      try {
        listener({ accounts })
      } catch (err) {
        queueMicrotask(() => {
          throw err
        })
      }
    }
  }

  transport.onEvent((event, data) => {
    if (event === 'solanaAccountsChanged') setAccounts(data)
  })

  /** The address of an input's account, when it is one of ours. */
  function ours(input: AccountInput): string {
    const address = input?.account?.address
    if (!accounts.some((a) => a.address === address)) throw invalid('Unknown account: connect first')
    return address
  }

  /** Run `one` for each input in turn (each is its own approval). */
  async function each<I, O>(inputs: I[], one: (input: I) => Promise<O>): Promise<O[]> {
    const out: O[] = []
    for (const input of inputs) out.push(await one(input))
    return out
  }

  /** The defined fields of a sign-in input (others are not read), after checking them; throws -32602 naming the field. */
  function signInParams(input: unknown): Record<string, unknown> {
    const problem = signInInputProblem(input)
    if (problem) throw invalid(problem)
    const fields = (input ?? {}) as Record<string, unknown>
    const params: Record<string, unknown> = {}
    for (const name of [...Object.keys(SIGN_IN_FIELDS), 'resources']) {
      const value = fields[name]
      if (value !== undefined) params[name] = Array.isArray(value) ? [...value] : value
    }
    return params
  }

  const features = {
    'standard:connect': {
      version: '1.0.0',
      connect: async (input?: { silent?: boolean }) => {
        const r = await call<{ accounts: WireAccount[] }>('sol_connect', input?.silent ? [{ silent: true }] : [])
        setAccounts(r.accounts)
        return { accounts }
      },
    },
    'standard:disconnect': {
      version: '1.0.0',
      disconnect: async () => {
        await call('sol_disconnect', [])
        setAccounts([])
      },
    },
    'standard:events': {
      version: '1.0.0',
      on: (event: string, listener: Listener) => {
        if (event !== 'change') return () => {}
        listeners.add(listener)
        return () => void listeners.delete(listener)
      },
    },
    'solana:signMessage': {
      version: '1.0.0',
      signMessage: (...inputs: Array<AccountInput & { message: Uint8Array }>) =>
        each(inputs, async (input) => {
          const address = ours(input)
          if (!(input.message instanceof Uint8Array)) throw invalid('message must be a Uint8Array')
          const r = await call<{ signature: string }>('sol_signMessage', [{ address, message: toBase64(input.message) }])
          return { signedMessage: input.message, signature: fromBase64(r.signature), signatureType: 'ed25519' as const }
        }),
    },
    'solana:signIn': {
      version: '1.0.0',
      // No input is one sign-in with every field chosen by the wallet; every input is checked before any is sent.
      signIn: async (...inputs: unknown[]) =>
        each((inputs.length === 0 ? [undefined] : inputs).map(signInParams), async (params) => {
          const r = await call<{ account: WireAccount; accounts: WireAccount[]; signedMessage: string; signature: string }>('sol_signIn', [
            params,
          ])
          // Connect-and-sign-in: the site's accounts (and a change event) reflect the new connection.
          setAccounts(r.accounts)
          const account = accounts.find((a) => a.address === r.account.address)
          if (!account) throw new ProviderRpcError({ code: RPC_ERROR.INTERNAL, message: 'The signed-in account is not connected' })
          return {
            account,
            signedMessage: fromBase64(r.signedMessage),
            signature: fromBase64(r.signature),
            signatureType: 'ed25519' as const,
          }
        }),
    },
    'solana:signTransaction': {
      version: '1.0.0',
      supportedTransactionVersions: VERSIONS,
      signTransaction: (...inputs: Array<AccountInput & { transaction: Uint8Array }>) =>
        each(inputs, async (input) => {
          const address = ours(input)
          if (!(input.transaction instanceof Uint8Array)) throw invalid('transaction must be a Uint8Array')
          const params: Record<string, string> = { address, transaction: toBase64(input.transaction) }
          if (input.chain !== undefined) params['chain'] = input.chain
          const r = await call<{ signedTransaction: string }>('sol_signTransaction', [params])
          return { signedTransaction: fromBase64(r.signedTransaction) }
        }),
    },
    'solana:signAndSendTransaction': {
      version: '1.0.0',
      supportedTransactionVersions: VERSIONS,
      signAndSendTransaction: (...inputs: Array<AccountInput & { transaction: Uint8Array; chain: string }>) =>
        each(inputs, async (input) => {
          const address = ours(input)
          if (!(input.transaction instanceof Uint8Array)) throw invalid('transaction must be a Uint8Array')
          const r = await call<{ signature: string }>('sol_signAndSendTransaction', [
            { address, transaction: toBase64(input.transaction), chain: input.chain },
          ])
          return { signature: fromBase64(r.signature) }
        }),
    },
  }

  const wallet: StandardWallet = {
    version: '1.0.0',
    name: 'Sigil',
    icon,
    get chains() {
      return chains.slice()
    },
    get accounts() {
      return accounts.slice()
    },
    get features() {
      return features
    },
  }

  const register = (api: unknown) => {
    const r = (api as { register?: unknown } | null)?.register
    if (typeof r === 'function') r(wallet)
  }
  const state = call<{ chains: `${string}:${string}`[]; accounts: WireAccount[] }>('sol_state', []).then(
    (s) => {
      chains = s.chains
      setAccounts(s.accounts)
    },
    () => {},
  )
  void state.then(() => win.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: register })))
  win.addEventListener('wallet-standard:app-ready', (e) => void state.then(() => register((e as CustomEvent).detail)))
  return wallet
}
