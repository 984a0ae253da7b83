/** Error states with a way out: last known accounts and balances kept per user, shown stale with advice that matches the cause. */
import { describe, expect, it } from 'vitest'
import { SigilError, SigilRequestError } from '@/src/api/errors'
import { ExtensionError } from '@/src/extension/background/failures'
import { DEFAULT_SETTINGS } from '@/src/extension/background/service/settings'
import { adviceFor, bounded, LAST_KNOWN_KEY, ReadTimeout } from '@/src/extension/background/wallet/lastKnown'
import { ACCOUNT, setup } from '../../approvalFixture'

const SERVICE = 'https://sigil.example'
const NODE = { name: 'Sigil dev EVM', rpcUrl: 'http://127.0.0.1:8545' }

describe('adviceFor', () => {
  it('a node that is down or hung: names the network and its URL', () => {
    const err = new ExtensionError('NODE_UNAVAILABLE', 'Sigil dev EVM (eip155:31337) did not answer eth_getBalance within 10000 ms')
    expect(adviceFor(err, { serviceUrl: SERVICE, network: NODE })).toBe('The Sigil dev EVM node at http://127.0.0.1:8545 is not answering.')
  })

  it('a node that refuses the read: says so with its words', () => {
    const err = new ExtensionError('NODE_UNAVAILABLE', 'Sigil dev EVM (eip155:31337) refused eth_getBalance: header not found')
    expect(adviceFor(err, { serviceUrl: SERVICE, network: NODE })).toContain('refused the read')
  })

  it('the service not answering: names it, never "check the URLs" for a URL that is well formed', () => {
    const advice = adviceFor(new SigilError('NETWORK', 'list_wallets: request failed'), { serviceUrl: `${SERVICE}/` })
    expect(advice).toBe('Sigil service at https://sigil.example is not answering.')
    expect(advice).not.toMatch(/Settings/)
  })

  it('a malformed service URL: only then points at Settings', () => {
    expect(adviceFor(new SigilError('NETWORK', 'x'), { serviceUrl: 'sigil.example' })).toBe(
      'The service URL “sigil.example” is not a valid http(s) URL. Check it in Settings.',
    )
  })

  it('a service that hangs, and an HTTP error from the service, in words', () => {
    expect(adviceFor(new ReadTimeout(15_000), { serviceUrl: SERVICE })).toBe(
      'Sigil service at https://sigil.example did not answer within 15 s.',
    )
    const http = new SigilRequestError(503, { code: 14, message: 'database is restarting', details: [] })
    expect(adviceFor(http, { serviceUrl: SERVICE })).toBe(
      'Sigil service at https://sigil.example answered with an error (HTTP 503, unavailable): database is restarting.',
    )
  })

  it('other failures keep their own message (a refused session is not an outage)', () => {
    expect(adviceFor(new SigilRequestError(401, { code: 16, message: 'expired api key', details: [] }), { serviceUrl: SERVICE })).toBe(
      undefined,
    )
    expect(adviceFor(new ExtensionError('INVALID_ARGUMENT', 'caip2: x'), { serviceUrl: SERVICE })).toBe(undefined)
  })

  it('bounded: a read that never answers rejects with ReadTimeout', async () => {
    await expect(bounded(new Promise(() => undefined), 20)).rejects.toBeInstanceOf(ReadTimeout)
    await expect(bounded(Promise.resolve(7), 20)).resolves.toBe(7)
  })
})

describe('last known accounts and balances (popup rows)', () => {
  function down() {
    const state = { down: false }
    const t = setup({
      extra: (url) => {
        if (state.down) throw new TypeError('Failed to fetch')
        if (url.pathname === '/public/v1/query/get_wallet_address_balances')
          return {
            balances: [{ caip19: 'eip155:1/slip44:60', symbol: 'ETH', balance: '1500000000000000000', decimals: 18, name: 'Ether' }],
          }
        return undefined
      },
    })
    return { t, state }
  }

  it('service stopped: the accounts stay and the last balances come back marked stale with the time read and the advice', async () => {
    const { t, state } = down()
    await t.login()
    const fresh = await t.popup('balances', { caip2: 'eip155:1' })
    expect(fresh.ok).toBe(true)
    expect(fresh.result.stale).toBeUndefined()
    const book = await t.popup('accountBook')
    expect(book.result.stale).toBeUndefined()
    const readAt = t.f.deps.now()

    t.f.advance(60_000)
    state.down = true
    const stale = await t.popup('balances', { caip2: 'eip155:1' })
    expect(stale).toMatchObject({ ok: true, result: { caip2: 'eip155:1', stale: { at: readAt } } })
    expect(stale.result.stale.advice).toBe(`Sigil service at ${DEFAULT_SETTINGS.apiBaseUrl.replace(/\/+$/, '')} is not answering.`)
    const eth = stale.result.accounts.find((a: any) => a.address === ACCOUNT.address)
    expect(eth.balances[0]).toMatchObject({ symbol: 'ETH', balance: '1500000000000000000' })
    const offline = await t.popup('accountBook')
    expect(offline.ok).toBe(true)
    expect(offline.result.stale.at).toBe(readAt)
    expect(offline.result.groups.flatMap((g: any) => g.addresses.map((a: any) => a.address))).toContain(ACCOUNT.address)

    // Retry once the service is back: fresh again.
    state.down = false
    const back = await t.popup('balances', { caip2: 'eip155:1' })
    expect(back.ok).toBe(true)
    expect(back.result.stale).toBeUndefined()
  })

  it('nothing read before: the failure says the cause, not "check the URLs"', async () => {
    const { t, state } = down()
    await t.login()
    state.down = true
    const r = await t.popup('balances', { caip2: 'eip155:1' })
    expect(r).toMatchObject({ ok: false, error: { code: 'NETWORK' } })
    expect(r.error.message).toMatch(/^Sigil service at .* is not answering\.$/)
    expect(r.error.message).not.toMatch(/Settings/)
  })

  it('kept per user in storage.local, public data only', async () => {
    const { t } = down()
    await t.login()
    await t.popup('balances', { caip2: 'eip155:1' })
    await t.popup('accountBook')
    const stored = (await t.f.deps.local.get(LAST_KNOWN_KEY))[LAST_KNOWN_KEY] as { v: number; users: Record<string, any> }
    expect(stored.v).toBe(1)
    expect(Object.keys(stored.users)).toEqual(['org-1/user-1'])
    expect(Object.keys(stored.users['org-1/user-1'].balances)).toEqual(['eip155:1'])
    expect(JSON.stringify(stored)).not.toMatch(/privateKey|mnemonic|password|stamp/i)
  })
})
