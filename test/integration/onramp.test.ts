/**
 * Fiat on-ramp: init_fiat_on_ramp validation and URLs, provider credentials kept
 * sealed, URL signatures, the built-in sandbox provider (delivering real coins on the dev EVM
 * chain, a real anvil here) and get_on_ramp_transaction_status.
 */
import { createHmac } from 'node:crypto'
import { encryptOnRampSecret } from '@turnkey/crypto'
import { Turnkey } from '@turnkey/sdk-server'
import { getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex, hexToBytes, utf8Encode } from '../../src/crypto/encoding.js'
import { hpkeEncrypt } from '../../src/crypto/hpke.js'
import { compressP256PublicKey } from '../../src/crypto/p256.js'
import { DEV_EVM_CAIP2, DEV_SOLANA_CAIP2, resolveNetworks } from '../../src/chains/networks.js'
import { type RunningEvmNode, startEvmNode } from '../../src/devchain/evm.js'
import { newApiKey, rootUser } from './helpers/keys.js'
import { freePort } from './helpers/process.js'
import { startTestService, submitBody, type TestService } from './helpers/service.js'

const ALPHA = 'FIAT_ON_RAMP_PROVIDER_ALPHA'
const BETA = 'FIAT_ON_RAMP_PROVIDER_BETA'
// The hosted service's names of the same two providers (src/api/enumLists.ts HOSTED_ON_RAMP_PROVIDER).
const COINBASE = 'FIAT_ON_RAMP_PROVIDER_COINBASE'
const MOONPAY = 'FIAT_ON_RAMP_PROVIDER_MOONPAY'
const ALPHA_LIVE = 'https://live.alpha.example/buy'
const ALPHA_SANDBOX = 'https://sandbox.alpha.example/widget?theme=dark'
const ETH_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
const SOL_ADDRESS = 'Vote111111111111111111111111111111111111111'
const BTC_ADDRESSES = [
  '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
  '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
  'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297',
]

const TYPES = {
  init_fiat_on_ramp: 'ACTIVITY_TYPE_INIT_FIAT_ON_RAMP',
  create_fiat_on_ramp_credential: 'ACTIVITY_TYPE_CREATE_FIAT_ON_RAMP_CREDENTIAL',
  update_fiat_on_ramp_credential: 'ACTIVITY_TYPE_UPDATE_FIAT_ON_RAMP_CREDENTIAL',
  delete_fiat_on_ramp_credential: 'ACTIVITY_TYPE_DELETE_FIAT_ON_RAMP_CREDENTIAL',
} as const

let svc: TestService
let node: RunningEvmNode
let onRampKey: string
let root: string

beforeAll(async () => {
  node = await startEvmNode({ port: await freePort() })
  svc = await startTestService({
    // The dev EVM chain is a real node; the dev Solana network's node does not answer.
    networks: resolveNetworks(`${DEV_EVM_CAIP2}=${node.url},${DEV_SOLANA_CAIP2}=http://127.0.0.1:9`),
    onRampUrls: {
      FIAT_ON_RAMP_PROVIDER_ALPHA: { live: ALPHA_LIVE, sandbox: ALPHA_SANDBOX },
      FIAT_ON_RAMP_PROVIDER_BETA: { live: undefined, sandbox: undefined },
    },
  })
  root = svc.admin.organizationId
  onRampKey = (await (await fetch(`${svc.url}/healthz`)).json()).onRampEncryptionPublicKey
})
afterAll(async () => {
  await svc?.stop()
  await node?.close()
})

/** A JSON-RPC call to the dev EVM node. */
async function nodeCall<T>(method: string, params: unknown[]): Promise<T> {
  const res = await fetch(node.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await res.json()) as { result: T }).result
}
const balanceOf = async (address: string) => BigInt(await nodeCall<string>('eth_getBalance', [address, 'latest']))

type Op = keyof typeof TYPES
const submit = (op: Op, parameters: Record<string, unknown>, orgId = root, stamper = svc.adminStamper) =>
  svc.post(`/public/v1/submit/${op}`, submitBody(TYPES[op], orgId, parameters), stamper)
const query = (name: string, body: Record<string, unknown>, stamper = svc.adminStamper) =>
  svc.post(`/public/v1/query/${name}`, body, stamper)

/** `{encappedPublic, ciphertext}` JSON envelope (wire-formats B2) to the service's on-ramp key. */
async function envelope(secret: string): Promise<string> {
  const { encappedPublic, ciphertext } = await hpkeEncrypt({ plaintext: utf8Encode(secret), targetPublicKey: hexToBytes(onRampKey) })
  return JSON.stringify({ encappedPublic: bytesToHex(encappedPublic), ciphertext: bytesToHex(ciphertext) })
}

const hmac = (secret: string, data: string) => createHmac('sha256', secret).update(data).digest('base64')
const queryOf = (url: string) => new URL(url).search.slice(1)

const order = (over: Record<string, unknown> = {}) => ({
  onrampProvider: ALPHA,
  walletAddress: ETH_ADDRESS,
  network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM',
  cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH',
  fiatCurrencyCode: 'FIAT_ON_RAMP_CURRENCY_USD',
  fiatCurrencyAmount: '100',
  paymentMethod: 'FIAT_ON_RAMP_PAYMENT_METHOD_CREDIT_DEBIT_CARD',
  countryCode: 'US',
  countrySubdivisionCode: 'NY',
  ...over,
})

async function countRows(sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await svc.rt.db.query<{ n: string | number }>(sql, params)
  return Number(row?.n)
}

/** Every row of every table, as JSON text. */
async function dumpDatabase(): Promise<string> {
  const tables = await svc.rt.db.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
  )
  const parts: string[] = []
  for (const { table_name } of tables) {
    const rows = await svc.rt.db.query<{ j: string }>(`SELECT row_to_json(t)::text AS j FROM "${table_name}" t`)
    parts.push(...rows.map((r) => r.j))
  }
  return parts.join('\n')
}

function expectRefused(r: { status: number; json: any }, field: string, status = 400) {
  expect(r.status).toBe(status)
  expect(r.json.message).toContain(field)
  const bad = r.json.details.find((d: any) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest')
  expect(bad.fieldViolations.map((v: any) => v.field)).toContain(field)
}

describe('init_fiat_on_ramp validation', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['US without subdivision', { countrySubdivisionCode: undefined }, 'parameters.countrySubdivisionCode'],
    ['US (lower case) without subdivision', { countryCode: 'us', countrySubdivisionCode: undefined }, 'parameters.countrySubdivisionCode'],
    ['amount of exactly 20', { fiatCurrencyAmount: '20' }, 'parameters.fiatCurrencyAmount'],
    ['amount below 20', { fiatCurrencyAmount: '19.99' }, 'parameters.fiatCurrencyAmount'],
    ['amount not a number', { fiatCurrencyAmount: 'lots' }, 'parameters.fiatCurrencyAmount'],
    ['lower-case Ethereum address (no EIP-55)', { walletAddress: ETH_ADDRESS.toLowerCase() }, 'parameters.walletAddress'],
    ['wrong EIP-55 checksum', { walletAddress: `${ETH_ADDRESS.slice(0, -1)}D` }, 'parameters.walletAddress'],
    ['short Ethereum address', { walletAddress: ETH_ADDRESS.slice(0, 40) }, 'parameters.walletAddress'],
    ['Solana address on Ethereum', { walletAddress: SOL_ADDRESS }, 'parameters.walletAddress'],
    ['empty address', { walletAddress: '' }, 'parameters.walletAddress'],
    [
      'Ethereum address on Solana',
      { network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA', cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_SOL' },
      'parameters.walletAddress',
    ],
    [
      'Solana address of 31 bytes',
      {
        network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA',
        cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_SOL',
        walletAddress: '1111111111111111111111111111111',
      },
      'parameters.walletAddress',
    ],
    [
      'Bitcoin testnet address',
      {
        network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BITCOIN',
        cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_BTC',
        walletAddress: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
      },
      'parameters.walletAddress',
    ],
    [
      'Bitcoin address with a bad checksum',
      {
        network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BITCOIN',
        cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_BTC',
        walletAddress: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3',
      },
      'parameters.walletAddress',
    ],
    ['BTC on Ethereum', { cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_BTC' }, 'parameters.cryptoCurrencyCode'],
    [
      'SOL on Base',
      { network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE', cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_SOL' },
      'parameters.cryptoCurrencyCode',
    ],
    [
      'ETH on Solana',
      {
        network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA',
        cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH',
        walletAddress: SOL_ADDRESS,
      },
      'parameters.cryptoCurrencyCode',
    ],
    [
      'USDC on Bitcoin',
      {
        network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BITCOIN',
        cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_USDC',
        walletAddress: BTC_ADDRESSES[0],
      },
      'parameters.cryptoCurrencyCode',
    ],
    ['unknown network', { network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_DOGE' }, 'parameters.network'],
    ['unknown provider', { onrampProvider: 'FIAT_ON_RAMP_PROVIDER_GAMMA' }, 'parameters.onrampProvider'],
    ['unknown crypto currency', { cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_DOGE' }, 'parameters.cryptoCurrencyCode'],
    ['unknown fiat currency', { fiatCurrencyCode: 'FIAT_ON_RAMP_CURRENCY_XXX' }, 'parameters.fiatCurrencyCode'],
    ['unknown payment method', { paymentMethod: 'FIAT_ON_RAMP_PAYMENT_METHOD_CASH' }, 'parameters.paymentMethod'],
    ['three-letter country code', { countryCode: 'USA' }, 'parameters.countryCode'],
    ['subdivision of another country', { countrySubdivisionCode: 'CA-QC' }, 'parameters.countrySubdivisionCode'],
    ['sandboxMode not a boolean', { sandboxMode: 'yes' }, 'parameters.sandboxMode'],
  ]
  for (const [name, over, field] of cases) {
    it(`refuses ${name}, naming ${field}`, async () => {
      const r = await submit('init_fiat_on_ramp', order(over))
      expectRefused(r, field)
    })
  }

  it('stored nothing for the refused requests: no transaction, no COMPLETED activity', async () => {
    expect(await countRows('SELECT count(*) AS n FROM onramp_transactions')).toBe(0)
    expect(
      await countRows("SELECT count(*) AS n FROM activities WHERE type = $1 AND status = 'ACTIVITY_STATUS_COMPLETED'", [
        TYPES.init_fiat_on_ramp,
      ]),
    ).toBe(0)
  })

  it('accepts valid addresses and currencies on every network', async () => {
    const ok: Array<Record<string, unknown>> = [
      { network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE', cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_USDC' },
      { network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE', cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH' },
      { cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_USDC', countryCode: 'GB', countrySubdivisionCode: undefined },
      {
        network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA',
        cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_SOL',
        walletAddress: SOL_ADDRESS,
      },
      {
        network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA',
        cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_USDC',
        walletAddress: SOL_ADDRESS,
      },
      ...BTC_ADDRESSES.map((walletAddress) => ({
        network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BITCOIN',
        cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_BTC',
        walletAddress,
      })),
      {
        fiatCurrencyAmount: undefined,
        fiatCurrencyCode: undefined,
        paymentMethod: undefined,
        countryCode: undefined,
        countrySubdivisionCode: undefined,
      },
      { countrySubdivisionCode: 'US-CA', fiatCurrencyAmount: '20.01' },
    ]
    for (const over of ok) {
      const r = await submit('init_fiat_on_ramp', order(over))
      expect(r.status, JSON.stringify({ over, r: r.json })).toBe(200)
      expect(r.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    }
    expect(await countRows('SELECT count(*) AS n FROM onramp_transactions')).toBe(ok.length)
  })
})

describe('init_fiat_on_ramp without credentials: the built-in sandbox provider', () => {
  it('returns a sandbox page URL carrying the order and stores a PENDING transaction', async () => {
    const r = await submit('init_fiat_on_ramp', order())
    expect(r.status).toBe(200)
    const res = r.json.activity.result.initFiatOnRampResult
    expect(res.onRampTransactionId).toMatch(/^[0-9a-f-]{36}$/)
    expect(res.onRampUrlSignature).toBeUndefined()
    const url = new URL(res.onRampUrl)
    expect(`${url.origin}${url.pathname}`).toBe(`${svc.url}/sandbox/onramp/${res.onRampTransactionId}`)
    expect(Object.fromEntries(url.searchParams)).toEqual({
      walletAddress: ETH_ADDRESS,
      network: 'ETHEREUM',
      cryptoCurrency: 'ETH',
      fiatCurrency: 'USD',
      fiatAmount: '100',
      paymentMethod: 'CREDIT_DEBIT_CARD',
      countryCode: 'US',
      countrySubdivisionCode: 'NY',
      sandbox: 'false',
      onRampTransactionId: res.onRampTransactionId,
    })
    const [row] = await svc.rt.db.query<any>('SELECT * FROM onramp_transactions WHERE id = $1', [res.onRampTransactionId])
    expect(row).toMatchObject({
      organization_id: root,
      activity_id: r.json.activity.id,
      provider: ALPHA,
      wallet_address: ETH_ADDRESS,
      network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM',
      fiat_amount: '100',
      status: 'PENDING',
      hosted_by_sigil: true,
    })
    expect(Number(row.created_at)).toBeGreaterThan(0)
    const status = await query('get_on_ramp_transaction_status', { organizationId: root, transactionId: res.onRampTransactionId })
    expect(status.json).toEqual({ transactionStatus: 'PENDING' })
  })

  it('signs urlForSignature with the sandbox provider’s own key when no credential is stored; the sandbox checks it', async () => {
    const r = await submit('init_fiat_on_ramp', order({ urlForSignature: 'yes' }))
    expect(r.status).toBe(200)
    const { onRampUrl, onRampUrlSignature, onRampTransactionId } = r.json.activity.result.initFiatOnRampResult
    expect(onRampUrl).toContain(`/sandbox/onramp/${onRampTransactionId}`)
    expect(onRampUrlSignature).toMatch(/^[A-Za-z0-9+/]{43}=$/)
    const page = (url: string) => fetch(url, { headers: { Accept: 'text/html' } })
    const signed = `${onRampUrl}&signature=${encodeURIComponent(onRampUrlSignature)}`
    expect((await page(signed)).status).toBe(200)
    const forged = `${onRampUrl}&walletAddress=0x0000000000000000000000000000000000000001`
    expect((await page(`${forged}&signature=${encodeURIComponent(onRampUrlSignature)}`)).status).toBe(403)
    expect((await page(onRampUrl)).status).toBe(200)
    // The hosted service's path spelling answers the same query (the old one stays as an alias).
    const hosted = await svc.post('/public/v1/query/get_onramp_transaction_status', {
      organizationId: root,
      transactionId: onRampTransactionId,
    })
    expect(hosted.json).toEqual({ transactionStatus: 'PENDING' })
  })

  it('get_on_ramp_transaction_status: unknown id → 404', async () => {
    const r = await query('get_on_ramp_transaction_status', { organizationId: root, transactionId: crypto.randomUUID() })
    expect(r.status).toBe(404)
    expect(r.json.message).toContain('transactionId')
  })
})

describe('sandbox provider routes', () => {
  async function start(over: Record<string, unknown> = {}) {
    const r = await submit('init_fiat_on_ramp', order(over))
    expect(r.status).toBe(200)
    return r.json.activity.result.initFiatOnRampResult as { onRampUrl: string; onRampTransactionId: string }
  }
  const post = (id: string, action: string, accept = 'application/json') =>
    fetch(`${svc.url}/sandbox/onramp/${id}/${action}`, { method: 'POST', headers: { Accept: accept }, redirect: 'manual' })
  const status = async (transactionId: string) =>
    (await query('get_on_ramp_transaction_status', { organizationId: root, transactionId })).json

  it('serves the order page with its buttons, no script and a strict CSP', async () => {
    const { onRampUrl } = await start()
    const res = await fetch(onRampUrl)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'")
    const html = await res.text()
    expect(html).toContain('Complete purchase')
    expect(html).toContain('>Fail<')
    expect(html).toContain(ETH_ADDRESS)
    expect(html).not.toContain('<script')
    const css = await fetch(`${svc.url}/sandbox/onramp/assets/sandbox.css`)
    expect(css.headers.get('content-type')).toContain('text/css')
  })

  it('completes once: the bought ETH arrives from the faucet with a real transaction hash; then refuses again with 409', async () => {
    const { onRampUrl, onRampTransactionId: id } = await start()
    // 100 USD at the dev chain's 2000 USD per ETH.
    expect(await (await fetch(onRampUrl)).text()).toContain('0.05 ETH on Sigil dev EVM')
    const before = await balanceOf(ETH_ADDRESS)
    const done = await post(id, 'complete')
    expect(done.status).toBe(200)
    const body = await done.json()
    expect(body).toMatchObject({ transactionStatus: 'COMPLETED', amount: '0.05', symbol: 'ETH', caip2: DEV_EVM_CAIP2 })
    const receipt = await nodeCall<{ status: string; to: string } | null>('eth_getTransactionReceipt', [body.txHash])
    expect(receipt?.status).toBe('0x1')
    expect(receipt?.to).toBe(ETH_ADDRESS.toLowerCase())
    expect((await balanceOf(ETH_ADDRESS)) - before).toBe(5n * 10n ** 16n)
    expect(await status(id)).toEqual({ transactionStatus: 'COMPLETED', txHash: body.txHash })
    expect((await post(id, 'complete')).status).toBe(409)
    expect((await post(id, 'fail')).status).toBe(409)
    expect((await status(id)).transactionStatus).toBe('COMPLETED')
    expect(await balanceOf(ETH_ADDRESS)).toBe(before + 5n * 10n ** 16n)
  })

  it('as users do: @turnkey/sdk-server init_fiat_on_ramp, the browser posts the page’s Complete form, the balance rises by the bought amount', async () => {
    const sdk = new Turnkey({
      apiBaseUrl: svc.url,
      apiPublicKey: svc.admin.publicKey,
      apiPrivateKey: svc.admin.privateKey,
      defaultOrganizationId: root,
    }).apiClient()
    const wallet = getAddress(`0x${bytesToHex(crypto.getRandomValues(new Uint8Array(20)))}`)
    const init = await sdk.initFiatOnRamp({
      onrampProvider: COINBASE,
      walletAddress: wallet,
      network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM',
      cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH',
      fiatCurrencyCode: 'FIAT_ON_RAMP_CURRENCY_EUR',
      fiatCurrencyAmount: '30',
      paymentMethod: 'FIAT_ON_RAMP_PAYMENT_METHOD_CREDIT_DEBIT_CARD',
      sandboxMode: true,
    })
    const page = await (await fetch(init.onRampUrl)).text()
    const action = /<form method="post" action="([^"]+\/complete)"><button type="submit" class="primary">Complete purchase</.exec(page)?.[1]
    expect(action).toBe(`/sandbox/onramp/${init.onRampTransactionId}/complete`)
    // What a browser sends for the form: an empty urlencoded body, HTML accepted; then it follows the 303.
    const posted = await fetch(new URL(action ?? '', svc.url), {
      method: 'POST',
      headers: { Accept: 'text/html,application/xhtml+xml', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: '',
      redirect: 'manual',
    })
    expect(posted.status).toBe(303)
    const result = await sdk.getOnRampTransactionStatus({ transactionId: init.onRampTransactionId, refresh: true })
    expect(result.transactionStatus).toBe('COMPLETED')
    // The official type declares only transactionStatus; the service also answers the hash.
    const { txHash } = result as { txHash?: string }
    expect(txHash).toMatch(/^0x[0-9a-f]{64}$/)
    const receipt = await nodeCall<{ status: string } | null>('eth_getTransactionReceipt', [txHash])
    expect(receipt?.status).toBe('0x1')
    // 30 EUR counted as 30 USD at 2000 USD per ETH: 0.015 ETH, to a fresh address.
    expect(await balanceOf(wallet)).toBe(15n * 10n ** 15n)
    const after = await (await fetch(init.onRampUrl)).text()
    expect(after).toContain(txHash ?? 'no hash')
    expect(after).not.toContain('Complete purchase')
  })

  it('caps one order at 1000 worth: 5000 USD delivers 0.5 ETH and says so', async () => {
    const { onRampUrl, onRampTransactionId: id } = await start({ fiatCurrencyAmount: '5000' })
    expect(await (await fetch(onRampUrl)).text()).toContain('at most 1000 worth per order')
    const before = await balanceOf(ETH_ADDRESS)
    const body = await (await post(id, 'complete')).json()
    expect(body).toMatchObject({ transactionStatus: 'COMPLETED', amount: '0.5' })
    expect((await balanceOf(ETH_ADDRESS)) - before).toBe(5n * 10n ** 17n)
  })

  it('networks and coins the sandbox cannot deliver: "nothing is delivered", never completed, nothing sent', async () => {
    const cases = [
      {
        network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BITCOIN',
        cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_BTC',
        walletAddress: BTC_ADDRESSES[2],
      },
      { network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE', cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH' },
      { cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_USDC' },
    ]
    const before = await balanceOf(ETH_ADDRESS)
    for (const over of cases) {
      const { onRampUrl, onRampTransactionId: id } = await start(over)
      const page = await (await fetch(onRampUrl)).text()
      expect(page).toContain('Sandbox: nothing is delivered')
      expect(page).toContain('Complete (nothing is delivered)')
      const r = await post(id, 'complete')
      expect(r.status).toBe(200)
      const body = await r.json()
      expect(body.transactionStatus).toBe('NOT_DELIVERED')
      expect(body.message).toContain('sandbox: nothing is delivered')
      expect(body.txHash).toBeUndefined()
      expect(await status(id)).toEqual({ transactionStatus: 'NOT_DELIVERED' })
      const after = await (await fetch(onRampUrl)).text()
      expect(after).toContain('Sandbox: nothing is delivered.')
      expect(after).not.toContain('Completed')
      expect((await post(id, 'complete')).status).toBe(409)
    }
    expect(await balanceOf(ETH_ADDRESS)).toBe(before)
  })

  it('a dev chain that does not answer: 503 naming it, nothing sent, the order stays open', async () => {
    const sol = await start({
      network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA',
      cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_SOL',
      walletAddress: SOL_ADDRESS,
    })
    const r = await post(sol.onRampTransactionId, 'complete')
    expect(r.status).toBe(503)
    expect((await r.json()).message).toContain('http://127.0.0.1:9')
    expect(await status(sol.onRampTransactionId)).toEqual({ transactionStatus: 'PENDING' })
    const html = await post(sol.onRampTransactionId, 'complete', 'text/html')
    expect(html.status).toBe(503)
    expect(await html.text()).toContain('nothing was sent, the order is still open')
    expect((await post(sol.onRampTransactionId, 'fail')).status).toBe(200)
  })

  it('unknown order → 404 (page and POST)', async () => {
    const id = crypto.randomUUID()
    expect((await fetch(`${svc.url}/sandbox/onramp/${id}`)).status).toBe(404)
    const r = await post(id, 'complete')
    expect(r.status).toBe(404)
    expect((await r.json()).code).toBe(5)
  })
})

describe('on-ramp credentials', () => {
  const SECRET = 'sk_test_alpha_0123456789_super_secret'
  const SECRET2 = 'sk_test_alpha_rotated_9876543210'
  const PRIVATE = 'pk_private_alpha_shh_42'
  let credentialId: string

  it('refuses a secret not encrypted to the service key, naming the field; nothing stored', async () => {
    const r = await submit('create_fiat_on_ramp_credential', {
      onrampProvider: ALPHA,
      publishableApiKey: 'pk_x',
      encryptedSecretApiKey: 'not-encrypted',
      sandboxMode: true,
    })
    expectRefused(r, 'parameters.encryptedSecretApiKey')
    const otherKey = newApiKey().publicKey
    const wrongTarget = await hpkeEncrypt({ plaintext: utf8Encode('x'), targetPublicKey: hexToBytes(otherKey) })
    const r2 = await submit('create_fiat_on_ramp_credential', {
      onrampProvider: ALPHA,
      publishableApiKey: 'pk_x',
      encryptedSecretApiKey: JSON.stringify({
        encappedPublic: bytesToHex(wrongTarget.encappedPublic),
        ciphertext: bytesToHex(wrongTarget.ciphertext),
      }),
      sandboxMode: true,
    })
    expectRefused(r2, 'parameters.encryptedSecretApiKey')
    expect(await countRows('SELECT count(*) AS n FROM fiat_onramp_credentials')).toBe(0)
  })

  it('creates a credential (JSON envelope); the URL uses the provider sandbox base and the publishable key', async () => {
    const r = await submit('create_fiat_on_ramp_credential', {
      onrampProvider: ALPHA,
      projectId: 'proj-1',
      publishableApiKey: 'pk_test_alpha_1',
      encryptedSecretApiKey: await envelope(SECRET),
      encryptedPrivateApiKey: await envelope(PRIVATE),
      sandboxMode: true,
    })
    expect(r.status).toBe(200)
    credentialId = r.json.activity.result.createFiatOnRampCredentialResult.fiatOnRampCredentialId
    expect(credentialId).toMatch(/^[0-9a-f-]{36}$/)

    const init = await submit('init_fiat_on_ramp', order({ sandboxMode: true, urlForSignature: 'sign' }))
    expect(init.status).toBe(200)
    const res = init.json.activity.result.initFiatOnRampResult
    const url = new URL(res.onRampUrl)
    expect(`${url.origin}${url.pathname}`).toBe('https://sandbox.alpha.example/widget')
    expect(url.searchParams.get('theme')).toBe('dark')
    expect(url.searchParams.get('publishableKey')).toBe('pk_test_alpha_1')
    expect(url.searchParams.get('projectId')).toBe('proj-1')
    expect(url.searchParams.get('sandbox')).toBe('true')
    expect(url.searchParams.get('onRampTransactionId')).toBe(res.onRampTransactionId)
    // The signature verifies with the same secret over the query string without `?`.
    expect(res.onRampUrlSignature).toBe(hmac(SECRET, queryOf(res.onRampUrl)))
    expect(res.onRampUrlSignature).not.toBe(hmac('wrong', queryOf(res.onRampUrl)))

    // live mode has no credential: still the built-in sandbox page.
    const live = await submit('init_fiat_on_ramp', order())
    expect(live.json.activity.result.initFiatOnRampResult.onRampUrl.startsWith(`${svc.url}/sandbox/onramp/`)).toBe(true)
  })

  it('signs a widget URL given in urlForSignature over its own query string', async () => {
    const widget = 'https://sandbox.alpha.example/widget?apiKey=pk_test_alpha_1&walletAddress=0xabc&currencyCode=eth'
    const r = await submit('init_fiat_on_ramp', order({ sandboxMode: true, urlForSignature: widget }))
    expect(r.status).toBe(200)
    expect(r.json.activity.result.initFiatOnRampResult.onRampUrlSignature).toBe(hmac(SECRET, queryOf(widget)))
  })

  it('refuses a second credential for the same organization, provider and mode (409)', async () => {
    const r = await submit('create_fiat_on_ramp_credential', {
      onrampProvider: ALPHA,
      publishableApiKey: 'pk_dup',
      encryptedSecretApiKey: await envelope('dup'),
      sandboxMode: true,
    })
    expectRefused(r, 'parameters.onrampProvider', 409)
    expect(await countRows('SELECT count(*) AS n FROM fiat_onramp_credentials')).toBe(1)
  })

  it('the hosted names are the same providers (COINBASE = ALPHA, MOONPAY = BETA); the intent keeps the name sent', async () => {
    // A sandbox COINBASE credential is the sandbox ALPHA one the organization already has.
    const dup = await submit('create_fiat_on_ramp_credential', {
      onrampProvider: COINBASE,
      publishableApiKey: 'pk_dup',
      encryptedSecretApiKey: await envelope('dup'),
      sandboxMode: true,
    })
    expectRefused(dup, 'parameters.onrampProvider', 409)
    expect(await countRows('SELECT count(*) AS n FROM fiat_onramp_credentials')).toBe(1)

    // COINBASE finds ALPHA's credential and configured URL; the transaction is stored under ALPHA.
    const init = await submit('init_fiat_on_ramp', order({ onrampProvider: COINBASE, sandboxMode: true, urlForSignature: 'sign' }))
    expect(init.status, JSON.stringify(init.json)).toBe(200)
    expect(init.json.activity.intent.initFiatOnRampIntent.onrampProvider).toBe(COINBASE)
    const res = init.json.activity.result.initFiatOnRampResult
    expect(res.onRampUrl.startsWith('https://sandbox.alpha.example/widget?')).toBe(true)
    expect(new URL(res.onRampUrl).searchParams.get('publishableKey')).toBe('pk_test_alpha_1')
    expect(res.onRampUrlSignature).toBe(hmac(SECRET, queryOf(res.onRampUrl)))
    const [tx] = await svc.rt.db.query<any>('SELECT provider FROM onramp_transactions WHERE id = $1', [res.onRampTransactionId])
    expect(tx.provider).toBe(ALPHA)

    // MOONPAY is BETA: no base URL configured and no credential, so the built-in sandbox page.
    const moon = await submit('init_fiat_on_ramp', order({ onrampProvider: MOONPAY }))
    expect(moon.status).toBe(200)
    expect(moon.json.activity.intent.initFiatOnRampIntent.onrampProvider).toBe(MOONPAY)
    const moonRes = moon.json.activity.result.initFiatOnRampResult
    expect(moonRes.onRampUrl.startsWith(`${svc.url}/sandbox/onramp/${moonRes.onRampTransactionId}?`)).toBe(true)
    const [moonTx] = await svc.rt.db.query<any>('SELECT provider FROM onramp_transactions WHERE id = $1', [moonRes.onRampTransactionId])
    expect(moonTx.provider).toBe(BETA)
  })

  it('refuses an unknown provider name on create and update with 400 INVALID_ARGUMENT naming the field', async () => {
    for (const onrampProvider of ['FIAT_ON_RAMP_PROVIDER_GAMMA', 'COINBASE', 'fiat_on_ramp_provider_moonpay']) {
      const create = await submit('create_fiat_on_ramp_credential', {
        onrampProvider,
        publishableApiKey: 'pk_x',
        encryptedSecretApiKey: await envelope('x'),
        sandboxMode: false,
      })
      expectRefused(create, 'parameters.onrampProvider')
      expect(create.json.code).toBe(3)
      const update = await submit('update_fiat_on_ramp_credential', {
        fiatOnrampCredentialId: credentialId,
        onrampProvider,
        publishableApiKey: 'pk_x',
        encryptedSecretApiKey: await envelope('x'),
      })
      expectRefused(update, 'parameters.onrampProvider')
      expect(update.json.code).toBe(3)
    }
    expect(await countRows('SELECT count(*) AS n FROM fiat_onramp_credentials')).toBe(1)
  })

  it('never returns or stores the secret: list, get_activity and every database row', async () => {
    const list = await query('list_fiat_on_ramp_credentials', { organizationId: root })
    expect(list.status).toBe(200)
    expect(list.json.fiatOnRampCredentials).toHaveLength(1)
    expect(list.json.fiatOnRampCredentials[0]).toMatchObject({
      fiatOnrampCredentialId: credentialId,
      organizationId: root,
      // Created as ALPHA; listings give the hosted name, the one the official client's types know.
      onrampProvider: COINBASE,
      projectId: 'proj-1',
      publishableApiKey: 'pk_test_alpha_1',
      sandboxMode: true,
    })
    const activities = await query('list_activities', { organizationId: root })
    const everything = [
      JSON.stringify(list.json),
      JSON.stringify(activities.json),
      ...(await Promise.all(
        activities.json.activities.map(async (a: any) =>
          JSON.stringify((await query('get_activity', { organizationId: root, activityId: a.id })).json),
        ),
      )),
      await dumpDatabase(),
    ].join('\n')
    expect(everything).toContain('pk_test_alpha_1')
    for (const secret of [SECRET, PRIVATE]) {
      expect(everything).not.toContain(secret)
      expect(everything.toLowerCase()).not.toContain(bytesToHex(utf8Encode(secret)))
      expect(everything).not.toContain(Buffer.from(secret).toString('base64'))
    }
    const [row] = await svc.rt.db.query<any>('SELECT * FROM fiat_onramp_credentials WHERE id = $1', [credentialId])
    expect(row.secret_api_key_sealed).toMatch(/^v1:/)
    expect(row.private_api_key_sealed).toMatch(/^v1:/)
  })

  it('accepts the @turnkey/crypto encryptOnRampSecret form and the hex of the JSON envelope', async () => {
    // The official helper takes the compressed form (like its production constant); /healthz publishes 65 bytes.
    expect(() => encryptOnRampSecret('x', onRampKey)).toThrow()
    const official = encryptOnRampSecret('sk_beta_official', bytesToHex(compressP256PublicKey(hexToBytes(onRampKey))))
    expect(official).toMatch(/^[1-9A-HJ-NP-Za-km-z]+$/)
    const r = await submit('create_fiat_on_ramp_credential', {
      onrampProvider: BETA,
      publishableApiKey: 'pk_beta_1',
      encryptedSecretApiKey: official,
      sandboxMode: false,
    })
    expect(r.status, JSON.stringify(r.json)).toBe(200)
    const betaId = r.json.activity.result.createFiatOnRampCredentialResult.fiatOnRampCredentialId
    // BETA has no configured base URL: the built-in sandbox page, with the publishable key and a signature.
    const init = await submit('init_fiat_on_ramp', order({ onrampProvider: BETA, urlForSignature: 'sign' }))
    const res = init.json.activity.result.initFiatOnRampResult
    expect(res.onRampUrl.startsWith(`${svc.url}/sandbox/onramp/${res.onRampTransactionId}?`)).toBe(true)
    expect(new URL(res.onRampUrl).searchParams.get('publishableKey')).toBe('pk_beta_1')
    expect(res.onRampUrlSignature).toBe(hmac('sk_beta_official', queryOf(res.onRampUrl)))

    const hexForm = bytesToHex(utf8Encode(await envelope('sk_beta_hex')))
    const upd = await submit('update_fiat_on_ramp_credential', {
      fiatOnrampCredentialId: betaId,
      onrampProvider: BETA,
      publishableApiKey: 'pk_beta_2',
      encryptedSecretApiKey: hexForm,
    })
    expect(upd.status, JSON.stringify(upd.json)).toBe(200)
    const init2 = await submit('init_fiat_on_ramp', order({ onrampProvider: BETA, urlForSignature: 'sign' }))
    const res2 = init2.json.activity.result.initFiatOnRampResult
    expect(res2.onRampUrlSignature).toBe(hmac('sk_beta_hex', queryOf(res2.onRampUrl)))
    expect((await submit('delete_fiat_on_ramp_credential', { fiatOnrampCredentialId: betaId })).status).toBe(200)
  })

  it('an update changes the publishable key, the secret and (with the provider) the base URL', async () => {
    const upd = await submit('update_fiat_on_ramp_credential', {
      fiatOnrampCredentialId: credentialId,
      onrampProvider: ALPHA,
      publishableApiKey: 'pk_test_alpha_2',
      encryptedSecretApiKey: await envelope(SECRET2),
    })
    expect(upd.status).toBe(200)
    expect(upd.json.activity.result.updateFiatOnRampCredentialResult.fiatOnRampCredentialId).toBe(credentialId)
    const init = await submit('init_fiat_on_ramp', order({ sandboxMode: true, urlForSignature: 'sign' }))
    const res = init.json.activity.result.initFiatOnRampResult
    const url = new URL(res.onRampUrl)
    expect(url.searchParams.get('publishableKey')).toBe('pk_test_alpha_2')
    expect(url.searchParams.get('projectId')).toBeNull()
    expect(res.onRampUrlSignature).toBe(hmac(SECRET2, queryOf(res.onRampUrl)))
    expect(res.onRampUrlSignature).not.toBe(hmac(SECRET, queryOf(res.onRampUrl)))

    // Moving the credential to BETA (no base URL configured): ALPHA falls back, BETA uses the sandbox page.
    expect(
      (
        await submit('update_fiat_on_ramp_credential', {
          fiatOnrampCredentialId: credentialId,
          onrampProvider: BETA,
          publishableApiKey: 'pk_test_beta_3',
          encryptedSecretApiKey: await envelope(SECRET2),
        })
      ).status,
    ).toBe(200)
    const alpha = (await submit('init_fiat_on_ramp', order({ sandboxMode: true }))).json.activity.result.initFiatOnRampResult
    expect(alpha.onRampUrl.startsWith(`${svc.url}/sandbox/onramp/`)).toBe(true)
    expect(new URL(alpha.onRampUrl).searchParams.get('publishableKey')).toBeNull()
    const beta = (await submit('init_fiat_on_ramp', order({ onrampProvider: BETA, sandboxMode: true }))).json.activity.result
      .initFiatOnRampResult
    expect(beta.onRampUrl.startsWith(`${svc.url}/sandbox/onramp/`)).toBe(true)
    expect(new URL(beta.onRampUrl).searchParams.get('publishableKey')).toBe('pk_test_beta_3')
    // ... and back.
    expect(
      (
        await submit('update_fiat_on_ramp_credential', {
          fiatOnrampCredentialId: credentialId,
          onrampProvider: ALPHA,
          publishableApiKey: 'pk_test_alpha_4',
          encryptedSecretApiKey: await envelope(SECRET2),
        })
      ).status,
    ).toBe(200)
    const back = (await submit('init_fiat_on_ramp', order({ sandboxMode: true }))).json.activity.result.initFiatOnRampResult
    expect(back.onRampUrl.startsWith('https://sandbox.alpha.example/widget?')).toBe(true)
  })

  it('update or delete of an unknown credential → 404 naming fiatOnrampCredentialId', async () => {
    const upd = await submit('update_fiat_on_ramp_credential', {
      fiatOnrampCredentialId: crypto.randomUUID(),
      onrampProvider: ALPHA,
      publishableApiKey: 'pk',
      encryptedSecretApiKey: await envelope('s'),
    })
    expectRefused(upd, 'parameters.fiatOnrampCredentialId', 404)
    const del = await submit('delete_fiat_on_ramp_credential', { fiatOnrampCredentialId: crypto.randomUUID() })
    expectRefused(del, 'parameters.fiatOnrampCredentialId', 404)
  })

  it('a sub-organization uses its parent organization credential; status is scoped to the organization', async () => {
    const key = newApiKey('sub-user')
    const sub = await svc.post(
      '/public/v1/submit/create_sub_organization',
      submitBody('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', root, {
        subOrganizationName: 'onramp-buyer',
        rootUsers: [rootUser('buyer', [key.param])],
        rootQuorumThreshold: 1,
      }),
    )
    expect(sub.status).toBe(200)
    const subOrgId = sub.json.activity.result.createSubOrganizationResultV8.subOrganizationId
    const r = await submit('init_fiat_on_ramp', order({ sandboxMode: true, urlForSignature: 'sign' }), subOrgId, key.stamper)
    expect(r.status, JSON.stringify(r.json)).toBe(200)
    const res = r.json.activity.result.initFiatOnRampResult
    expect(new URL(res.onRampUrl).searchParams.get('publishableKey')).toBe('pk_test_alpha_4')
    expect(res.onRampUrlSignature).toBe(hmac(SECRET2, queryOf(res.onRampUrl)))
    const mine = await query(
      'get_on_ramp_transaction_status',
      { organizationId: subOrgId, transactionId: res.onRampTransactionId },
      key.stamper,
    )
    expect(mine.json.transactionStatus).toBe('PENDING')
    const other = await query('get_on_ramp_transaction_status', { organizationId: root, transactionId: res.onRampTransactionId })
    expect(other.status).toBe(404)
    const subList = await query('list_fiat_on_ramp_credentials', { organizationId: subOrgId }, key.stamper)
    expect(subList.json.fiatOnRampCredentials).toEqual([])
  })

  it('deleting the credential falls back to the built-in sandbox URL', async () => {
    const del = await submit('delete_fiat_on_ramp_credential', { fiatOnrampCredentialId: credentialId })
    expect(del.status).toBe(200)
    expect(del.json.activity.result.deleteFiatOnRampCredentialResult.fiatOnRampCredentialId).toBe(credentialId)
    const r = await submit('init_fiat_on_ramp', order({ sandboxMode: true }))
    const res = r.json.activity.result.initFiatOnRampResult
    expect(res.onRampUrl.startsWith(`${svc.url}/sandbox/onramp/${res.onRampTransactionId}?`)).toBe(true)
    expect(new URL(res.onRampUrl).searchParams.get('publishableKey')).toBeNull()
    expect((await query('list_fiat_on_ramp_credentials', { organizationId: root })).json.fiatOnRampCredentials).toEqual([])
    expect(await countRows('SELECT count(*) AS n FROM fiat_onramp_credentials')).toBe(0)
  })
})
