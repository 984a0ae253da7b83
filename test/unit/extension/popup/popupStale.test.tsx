// @vitest-environment happy-dom
/**
 * Error states with a way out on the wallet home and Send: last known balances marked stale with
 * the time read and the background's advice, and Retry re-reading them.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import type { Network } from '@/src/extension/popup/network'
import { Accounts } from '@/src/extension/popup/screens/Accounts'
import { Send } from '@/src/extension/popup/screens/Send'
import { fakeClient } from '../fakePopupClient'

afterEach(cleanup)

const ETH_ADDR = '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb'
const evm: Network = {
  caip2: 'eip155:31337',
  family: 'evm',
  name: 'Dev EVM',
  rpcUrl: 'http://127.0.0.1:8545',
  nativeSymbol: 'ETH',
  nativeDecimals: 18,
  dev: false,
  tokens: [],
}
const book = {
  groups: [
    {
      group: 'w1/0',
      walletId: 'w1',
      walletName: 'Default Wallet',
      kind: 'derived',
      index: 0,
      name: 'Account 1',
      named: false,
      hidden: false,
      addresses: [{ walletAccountId: 'a1', address: ETH_ADDR, addressFormat: 'ADDRESS_FORMAT_ETHEREUM', path: "m/44'/60'/0'/0/0" }],
    },
  ],
  other: [],
}
const READ_AT = new Date(2026, 10, 28, 12, 3).getTime()
const ADVICE = 'Sigil service at https://sigil.example is not answering.'
const balances = (eth: string, stale?: { at: number; advice: string }) => ({
  caip2: evm.caip2,
  accounts: [
    {
      address: ETH_ADDR,
      walletName: 'Default Wallet',
      name: 'Account 1',
      hidden: false,
      balances: [{ caip19: 'eip155:31337/slip44:60', symbol: 'ETH', name: 'Ether', decimals: 18, balance: eth }],
    },
  ],
  ...(stale ? { stale } : {}),
})
const noop = () => undefined
const time = new Date(READ_AT).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })

describe('stale balances and Retry', () => {
  it('wallet home: the last known total stays, marked stale with the time read; the banner says the cause; Retry re-reads', async () => {
    let down = true
    const client = fakeClient({
      accountBook: () => ({ ok: true, result: down ? { ...book, stale: { at: READ_AT, advice: ADVICE } } : book }),
      balances: () => ({
        ok: true,
        result: down ? balances('100000000000000000', { at: READ_AT, advice: ADVICE }) : balances('200000000000000000'),
      }),
    })
    render(<Accounts client={client} network={evm} onSessionLost={noop} />)
    await waitFor(() => expect(document.querySelector('#wallet-total')?.textContent).toBe('0.1 ETH'))
    expect(document.querySelector('.total .stale-tag')?.textContent).toBe(`stale · as of ${time}`)
    const banner = document.querySelector('#wallet-stale')
    expect(banner?.querySelector('p')?.textContent).toBe(`${ADVICE} Showing the last known balances · as of ${time}.`)
    expect(banner?.textContent).not.toMatch(/Settings/)
    down = false
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    await waitFor(() => expect(document.querySelector('#wallet-total')?.textContent).toBe('0.2 ETH'))
    expect(document.querySelector('#wallet-stale')).toBeNull()
    expect(document.querySelector('.total .stale-tag')).toBeNull()
    expect(client.calls.filter(([m]) => m === 'balances')).toHaveLength(2)
  })

  it('wallet home: nothing known yet, the error has Retry', async () => {
    let down = true
    const client = fakeClient({
      accountBook: () => ({ ok: true, result: book }),
      balances: () =>
        down
          ? { ok: false, error: { code: 'NODE_UNAVAILABLE', message: 'The Dev EVM node at http://127.0.0.1:8545 is not answering.' } }
          : { ok: true, result: balances('5') },
    })
    render(<Accounts client={client} network={evm} onSessionLost={noop} />)
    expect((await screen.findByText(/Balances unavailable/)).textContent).toBe(
      'Balances unavailable: The Dev EVM node at http://127.0.0.1:8545 is not answering.',
    )
    down = false
    fireEvent.click(await screen.findByRole('button', { name: 'Retry' }))
    await waitFor(() => expect(screen.queryByText(/Balances unavailable/)).toBeNull())
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
  })

  it('Send: a failed balance read offers Retry, which loads the form', async () => {
    let down = true
    const client = fakeClient({
      accountNames: () => ({ ok: true, result: { names: {} } }),
      balances: () =>
        down
          ? { ok: false, error: { code: 'NODE_UNAVAILABLE', message: 'The Dev EVM node at http://127.0.0.1:8545 is not answering.' } }
          : { ok: true, result: balances('100000000000000000') },
    })
    render(<Send client={client} network={evm} onSessionLost={noop} />)
    await screen.findByText('The Dev EVM node at http://127.0.0.1:8545 is not answering.')
    expect(screen.queryByRole('button', { name: 'Review' })).toBeNull()
    down = false
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    await screen.findByRole('button', { name: 'Review' })
    expect(document.querySelector('#send-stale')).toBeNull()
  })
})
