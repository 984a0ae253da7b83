/**
 * A background wired to a fake platform (approval windows, tabs) and a fake key service that
 * signs for real with a fixed secp256k1 key, so signatures can be recovered with viem.
 */
import { vi } from 'vitest'
import { privateKeyToAccount } from 'viem/accounts'
import { createBackground } from '@/src/extension/background'
import type { NewSession } from '@/src/extension/background/core'
import type { DappPlatform } from '@/src/extension/background/dapp/services'
import type { Sender } from '@/src/extension/background/router'
import type { StorageAreaLike } from '@/src/extension/background/storage/storageArea'
import { signRawPayload } from '@/src/chains/sign/raw'
import { signEthereumTransaction } from '@/src/chains/sign/ethereumTransaction'
import { hexToBytes } from '@/src/crypto/encoding'
import { createP256WebCryptoKeyPair } from '@/src/crypto/stamp'
import type { ProviderEventMessage } from '@/src/extension/protocol/runtime'
import { DEFAULT_SETTINGS, SETTINGS_KEY, SETTINGS_VERSION } from '@/src/extension/background/service/settings'
import { fakeDeps, fakeIdentity } from './fakeDeps'

export const EXT_ID = 'enibeleniamgnfhbmpkkldfacbjikdfa'
export const BASE = `chrome-extension://${EXT_ID}/`
export const ORIGIN = 'https://dapp.example'
export const PAGE: Sender = { id: EXT_ID, url: `${ORIGIN}/app`, origin: ORIGIN, tab: { id: 7 } }
export const OTHER: Sender = { id: EXT_ID, url: 'https://other.example/', origin: 'https://other.example', tab: { id: 8 } }
export const APPROVAL_PAGE: Sender = { id: EXT_ID, url: `${BASE}approval.html?id=x` }

const PRIVATE_KEY = `0x${'42'.repeat(32)}` as const
/** The fake wallet's Ethereum account. */
export const ACCOUNT = privateKeyToAccount(PRIVATE_KEY)

export const ts = { seconds: '1700000000', nanos: '0' }

/** A wallet account of the fake service; `path` defaults to index 0 of the format's default path. */
export function account(id: string, address: string, addressFormat: string, path?: string) {
  return {
    walletAccountId: id,
    organizationId: 'org-1',
    walletId: 'w1',
    curve: addressFormat === 'ADDRESS_FORMAT_ETHEREUM' ? 'CURVE_SECP256K1' : 'CURVE_ED25519',
    pathFormat: 'PATH_FORMAT_BIP32',
    path: path ?? (addressFormat === 'ADDRESS_FORMAT_SOLANA' ? "m/44'/501'/0'/0'" : "m/44'/60'/0'/0/0"),
    addressFormat,
    address,
    createdAt: ts,
    updatedAt: ts,
  }
}

/** A completed activity response of `type` with `result`. */
export function activity(type: string, result: Record<string, Record<string, unknown>>) {
  return {
    activity: {
      id: 'act-1',
      organizationId: 'org-1',
      status: 'ACTIVITY_STATUS_COMPLETED',
      type,
      intent: {},
      result,
      votes: [],
      fingerprint: 'sha256:00',
      canApprove: false,
      canReject: false,
      createdAt: ts,
      updatedAt: ts,
    },
  }
}

type Call = { path: string; body: any }

/** Extra routes of the fake service, tried first: the JSON answer, or undefined to fall through. */
export type FakeRoutes = (path: string, body: any) => unknown | undefined

/** Extra answers for a test: `undefined` falls through to the fake service (404 for unknown paths). */
export type ExtraFetch = (url: URL, body: any) => unknown | Promise<unknown>

/**
 * The fake key service (`fetch`): list_wallets (one wallet, w1), list_private_keys (none),
 * list_wallet_accounts, sign_raw_payload, sign_transaction, plus `routes` / `extra`.
 */
function fakeService(calls: Call[], identity: ReturnType<typeof fakeIdentity>, routes?: FakeRoutes, extra?: ExtraFetch): typeof fetch {
  const pk = hexToBytes(PRIVATE_KEY)
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const known = identity.answer(String(input))
    if (known) return known
    const url = new URL(String(input))
    const path = url.pathname
    const body = JSON.parse(String(init?.body ?? '{}'))
    calls.push({ path, body })
    let json: unknown = routes?.(path, body)
    if (json === undefined && extra) json = await extra(url, body)
    if (json !== undefined) {
      // answered by the test's own routes
    } else if (path === '/public/v1/query/list_wallets') {
      json = { wallets: [{ walletId: 'w1', walletName: 'Default', createdAt: ts, updatedAt: ts, exported: false, imported: false }] }
    } else if (path === '/public/v1/query/list_private_keys') {
      json = { privateKeys: [] }
    } else if (path === '/public/v1/query/list_wallet_accounts') {
      json = {
        accounts: [
          account('a0', 'So11111111111111111111111111111111111111112', 'ADDRESS_FORMAT_SOLANA'),
          account('a1', ACCOUNT.address, 'ADDRESS_FORMAT_ETHEREUM'),
        ],
      }
    } else if (path === '/public/v1/submit/sign_raw_payload') {
      const p = body.parameters
      const sig = signRawPayload({
        privateKey: pk,
        curve: 'CURVE_SECP256K1',
        payload: p.payload,
        encoding: p.encoding,
        hashFunction: p.hashFunction,
      })
      json = activity('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { signRawPayloadResult: sig })
    } else if (path === '/public/v1/submit/sign_transaction') {
      const signedTransaction = signEthereumTransaction({ privateKey: pk, unsignedTransaction: body.parameters.unsignedTransaction })
      json = activity('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { signTransactionResult: { signedTransaction } })
    } else {
      return new Response('{"message":"not found"}', { status: 404 })
    }
    return new Response(JSON.stringify(json), { status: 200, headers: { 'content-type': 'application/json' } })
  }) as typeof fetch
}

/** The identity the fake service publishes (pinned in the fixture's settings). */
export const FIXTURE_IDENTITY = fakeIdentity(DEFAULT_SETTINGS.apiBaseUrl)

/**
 * A wired background with a fake platform; `login()` starts a session for org-1. `local` replaces
 * the Map-backed `storage.local` (`f.deps.local` is then unused).
 */
export function setup(
  opts: {
    local?: StorageAreaLike
    identity?: ReturnType<typeof fakeIdentity>
    routes?: FakeRoutes
    extra?: ExtraFetch
    /** Give the platform a login window (connecting while logged out opens it). */
    loginWindow?: boolean
  } = {},
) {
  const f = fakeDeps()
  const calls: Call[] = []
  const identity = opts.identity ?? FIXTURE_IDENTITY
  f.deps.fetch = fakeService(calls, identity, opts.routes, opts.extra)
  f.deps.local.data.set(SETTINGS_KEY, { v: SETTINGS_VERSION, settings: { ...DEFAULT_SETTINGS, identityKey: identity.publicKeyHex } })
  const windows: Array<{ windowId: number; approvalId: string }> = []
  const closed: number[] = []
  const events: Array<{ tabId: number; message: ProviderEventMessage; documentId?: string }> = []
  const loginWindows: number[] = []
  let nextWindow = 100
  const platform: DappPlatform = {
    openApprovalWindow: async (approvalId) => {
      const windowId = nextWindow++
      windows.push({ windowId, approvalId })
      return windowId
    },
    closeWindow: async (windowId) => void closed.push(windowId),
    sendToTab: async (tabId, message, documentId) =>
      void events.push({ tabId, message, ...(documentId === undefined ? {} : { documentId }) }),
    ...(opts.loginWindow
      ? {
          openLoginWindow: async () => {
            const windowId = nextWindow++
            loginWindows.push(windowId)
            return windowId
          },
        }
      : {}),
  }
  const bg = createBackground(
    { extensionId: EXT_ID, extensionBaseUrl: BASE },
    opts.local ? { ...f.deps, local: opts.local } : f.deps,
    platform,
  )
  let nextId = 1
  const rpc = (method: string, params?: unknown, sender: Sender = PAGE, extra: Record<string, unknown> = {}) =>
    bg.onMessage({ kind: 'dapp-rpc', id: nextId++, method, ...(params === undefined ? {} : { params }), ...extra }, sender) as Promise<any>
  const popup = (method: string, params?: unknown, sender: Sender = APPROVAL_PAGE) =>
    bg.onMessage({ kind: 'popup', method, ...(params === undefined ? {} : { params }) }, sender) as Promise<any>
  /** Wait until `n` approval windows have opened; returns the newest. */
  const windowOpened = async (n: number) => {
    await vi.waitFor(
      () => {
        if (windows.length < n) throw new Error(`waiting for window ${n}`)
      },
      { timeout: 10_000 },
    )
    return windows[n - 1]!
  }
  async function login() {
    const { keyPair, publicKeyHex } = await createP256WebCryptoKeyPair()
    const data: NewSession = {
      organizationId: 'org-1',
      userId: 'user-1',
      username: 'alice',
      publicKeyHex,
      method: 'email',
      expiresAt: f.deps.now() + 3_600_000,
    }
    await bg.core.startSession(data, keyPair.privateKey)
  }
  /** Log in and connect PAGE's origin through an approved eth_requestAccounts. */
  async function connected() {
    await login()
    const pending = rpc('eth_requestAccounts')
    const w = await windowOpened(windows.length + 1)
    await popup('approvalResolve', { id: w.approvalId, approved: true })
    await pending
  }
  return { f, bg, calls, windows, closed, events, loginWindows, rpc, popup, windowOpened, login, connected }
}
