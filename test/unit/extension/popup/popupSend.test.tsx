// @vitest-environment happy-dom
/**
 * The popup's network picker, balances (loading, node-down error, faucet), Send (recipient and
 * amount checks, Max, review, status polling to a decoded failure) and History, with a fake
 * background client.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { fakeClient } from '../fakePopupClient'
import type { Network } from '@/src/extension/popup/network'
import { NetworkPicker } from '@/src/extension/popup/NetworkPicker'
import { Accounts } from '@/src/extension/popup/screens/Accounts'
import { HistoryScreen } from '@/src/extension/popup/screens/History'
import { Send } from '@/src/extension/popup/screens/Send'

afterEach(cleanup)

const ETH_ADDR = '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb'
const BOB = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
const TOKEN = '0x' + '11'.repeat(20)
const evm: Network = {
  caip2: 'eip155:31337',
  family: 'evm',
  name: 'Dev EVM',
  rpcUrl: 'http://127.0.0.1:8545',
  nativeSymbol: 'ETH',
  nativeDecimals: 18,
  dev: true,
  tokens: [{ address: TOKEN, symbol: 'TST', decimals: 6, name: 'Test', stable: false }],
}
const sol: Network = {
  ...evm,
  caip2: 'solana:dev',
  family: 'solana',
  name: 'Dev Solana',
  nativeSymbol: 'SOL',
  nativeDecimals: 9,
  tokens: [],
}
/** The account book of the same wallet: Account 1 holds ETH_ADDR; BOB is the user's own "Savings". */
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
    {
      group: 'w1/1',
      walletId: 'w1',
      walletName: 'Default Wallet',
      kind: 'derived',
      index: 1,
      name: 'Savings',
      named: true,
      hidden: true,
      addresses: [{ walletAccountId: 'a2', address: BOB, addressFormat: 'ADDRESS_FORMAT_ETHEREUM', path: "m/44'/60'/0'/0/1" }],
    },
  ],
  other: [],
}
const balances = (eth: string) => ({
  caip2: evm.caip2,
  accounts: [
    {
      address: ETH_ADDR,
      walletName: 'Default Wallet',
      name: 'Account 1',
      hidden: false,
      balances: [
        { caip19: 'eip155:31337/slip44:60', symbol: 'ETH', name: 'Ether', decimals: 18, balance: eth },
        { caip19: `eip155:31337/erc20:${TOKEN}`, symbol: 'TST', name: 'Test', decimals: 6, balance: '2500000', token: TOKEN },
      ],
    },
  ],
})
const estimate = {
  caip2: evm.caip2,
  networkName: 'Dev EVM',
  from: ETH_ADDR,
  to: BOB,
  asset: { symbol: 'ETH', decimals: 18 },
  native: { symbol: 'ETH', decimals: 18 },
  fee: '21000000000000',
  maxFee: '50400000000000',
  balance: '1500000000000000000',
  nativeBalance: '1500000000000000000',
  max: '1499949600000000000',
  evm: { gasLimit: '25200', maxFeePerGas: '2000000000', maxPriorityFeePerGas: '1000000000' },
}

const noop = () => {}

describe('network picker', () => {
  it('shows the service’s networks and persists a choice through the background', async () => {
    const chosen: string[] = []
    const client = fakeClient<any>({
      networks: () => ({ ok: true, result: { networks: [evm, sol], selected: evm } }),
      selectNetwork: (p) => ({ ok: true, result: { networks: [evm, sol], selected: p.caip2 === sol.caip2 ? sol : evm } }),
    })
    render(<NetworkPicker client={client} onChange={(n) => chosen.push(n.caip2)} onSessionLost={noop} />)
    const select = (await screen.findByLabelText('Network')) as HTMLSelectElement
    expect([...select.options].map((o) => o.textContent)).toEqual(['Dev EVM (dev)', 'Dev Solana (dev)'])
    fireEvent.change(select, { target: { value: sol.caip2 } })
    await waitFor(() => expect(chosen).toEqual([evm.caip2, sol.caip2]))
    expect(client.calls).toContainEqual(['selectNetwork', { caip2: sol.caip2 }])
  })
})

describe('accounts with balances', () => {
  it('shows formatted native and token balances, and funds from the faucet on a dev network', async () => {
    let eth = '0'
    const client = fakeClient<any>({
      accountBook: () => ({ ok: true, result: book }),
      balances: () => ({ ok: true, result: balances(eth) }),
      faucet: (p) => {
        eth = '1000000000000000000'
        return { ok: true, result: { ...p, amount: '1', baseUnits: eth, tokens: [{ amount: '100', symbol: 'USDC' }] } }
      },
    })
    render(<Accounts client={client} network={evm} onSessionLost={noop} />)
    await waitFor(() => expect(document.querySelector('li[data-symbol="TST"] .token-value')?.textContent).toBe('2.5 TST'))
    expect(document.querySelector('li[data-symbol="TST"] .monogram')?.textContent).toBe('TS')
    expect(document.querySelector('li[data-symbol="ETH"] .token-value')?.textContent).toBe('0 ETH')
    fireEvent.click(screen.getByRole('button', { name: `Fund from faucet ${ETH_ADDR}` }))
    await screen.findByText('Funded 1 ETH and 100 USDC')
    await waitFor(() => expect(document.querySelector('li[data-symbol="ETH"] .token-value')?.textContent).toBe('1 ETH'))
    expect(client.calls).toContainEqual(['faucet', { caip2: evm.caip2, address: ETH_ADDR }])
  })

  it('a fiat value only where the service gave one ("$3,675.49"); none otherwise, never "$0"', async () => {
    const priced = balances('1500000000000000000')
    const eth = priced.accounts[0]?.balances[0]
    if (eth) Object.assign(eth, { usd: '3675.49' })
    const client = fakeClient<any>({ accountBook: () => ({ ok: true, result: book }), balances: () => ({ ok: true, result: priced }) })
    render(<Accounts client={client} network={evm} onSessionLost={noop} />)
    await waitFor(() => expect(document.querySelector('li[data-symbol="ETH"] .fiat')?.textContent).toBe('$3,675.49'))
    expect(document.querySelector('li[data-symbol="TST"] .fiat')).toBeNull()
  })

  it('a watched token whose balance could not be read shows "—", never a 0 that looks real', async () => {
    const WTK = '0x7777777777777777777777777777777777777777'
    const withWatched = balances('1000000000000000000')
    withWatched.accounts[0]?.balances.push({
      caip19: `eip155:31337/erc20:${WTK}`,
      symbol: 'WTK',
      name: 'WTK',
      decimals: 18,
      balance: '0',
      token: WTK,
      watched: true,
      unavailable: true,
    } as never)
    const client = fakeClient<any>({ accountBook: () => ({ ok: true, result: book }), balances: () => ({ ok: true, result: withWatched }) })
    render(<Accounts client={client} network={evm} onSessionLost={noop} />)
    await waitFor(() => expect(document.querySelector('li[data-symbol="WTK"] .token-value')?.textContent).toBe('— WTK'))
    expect(document.querySelector('li[data-symbol="WTK"]')?.getAttribute('title')).toBe('WTK: balance could not be read')
    expect(document.querySelector('li[data-symbol="TST"] .token-value')?.textContent).toBe('2.5 TST')
  })

  it('shows a loading line, then a clear error when the node is down, and recovers on Refresh', async () => {
    let down = true
    let release: () => void = noop
    const client = fakeClient<any>({
      accountBook: () => ({ ok: true, result: book }),
      balances: () =>
        new Promise((resolve) => {
          release = () =>
            resolve(
              down
                ? { ok: false, error: { code: 'NODE_UNAVAILABLE', message: 'Dev EVM: the node does not answer' } }
                : { ok: true, result: balances('5000000000000') },
            )
        }),
    })
    render(<Accounts client={client} network={{ ...evm, dev: false }} onSessionLost={noop} />)
    await screen.findByText('Loading balances on Dev EVM…')
    release()
    expect((await screen.findByText(/Balances unavailable/)).textContent).toBe('Balances unavailable: Dev EVM: the node does not answer')
    expect(screen.queryByRole('button', { name: /from faucet/ })).toBeNull()
    down = false
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
    await waitFor(() => release())
    await waitFor(() => expect(document.querySelector('li[data-symbol="ETH"] .token-value')?.textContent).toBe('0.000005 ETH'))
    expect(screen.queryByText(/Balances unavailable/)).toBeNull()
  })
})

describe('send', () => {
  it('checks the recipient for the chain, fills Max, reviews, and polls the status to a decoded failure', async () => {
    let polls = 0
    const client = fakeClient<any>({
      balances: () => ({ ok: true, result: balances('1500000000000000000') }),
      accountNames: () => ({ ok: true, result: { names: { [ETH_ADDR]: 'Account 1', [BOB]: 'Savings', [BOB.toLowerCase()]: 'Savings' } } }),
      sendEstimate: (p) => ({ ok: true, result: p.amount === undefined ? estimate : { ...estimate, to: p.to } }),
      sendSubmit: () => ({ ok: true, result: { sendTransactionStatusId: 'send-1', activityStatus: 'ACTIVITY_STATUS_COMPLETED' } }),
      sendStatus: () =>
        ++polls < 2
          ? { ok: true, result: { state: 'pending', txStatus: 'BROADCASTING' } }
          : {
              ok: true,
              result: { state: 'failed', txStatus: 'FAILED', txHash: '0xabc', message: 'ERC20: transfer amount exceeds balance' },
            },
    })
    render(<Send client={client} network={evm} onSessionLost={noop} />)
    const recipient = await screen.findByLabelText(/^Recipient/)
    expect([...(screen.getByLabelText('From') as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([`Account 1 · ${ETH_ADDR}`])
    fireEvent.input(recipient, { target: { value: BOB.replace('aA', 'Aa') } })
    fireEvent.input(screen.getByLabelText('Amount'), { target: { value: '1,5' } })
    fireEvent.click(screen.getByRole('button', { name: 'Review' }))
    expect((await screen.findByText(/checksum/)).id).toBe('recipient-error')
    expect(document.getElementById('amount-error')?.textContent).toBe('Enter an amount such as 0.5')
    expect(client.calls.some(([m]) => m === 'sendEstimate')).toBe(false)

    fireEvent.input(recipient, { target: { value: BOB.toLowerCase() } })
    fireEvent.click(screen.getByRole('button', { name: 'Max' }))
    await waitFor(() => expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe('1.4999496'))
    fireEvent.click(screen.getByRole('button', { name: 'Review' }))
    await screen.findByRole('heading', { name: 'Review' })
    expect(client.calls.at(-1)).toEqual(['sendEstimate', { caip2: evm.caip2, from: ETH_ADDR, to: BOB, amount: '1499949600000000000' }])
    expect(document.querySelector('[data-field="amount"]')?.textContent).toBe('1.4999496 ETH')
    expect(document.querySelector('[data-field="fee"]')?.textContent).toBe('0.000021 ETH (at most 0.0000504 ETH)')
    // one of the user's own accounts on both ends goes by its name
    expect(document.querySelector('[data-field="from"]')?.textContent).toBe(`Account 1 ${ETH_ADDR}`)
    expect(document.querySelector('[data-field="to"]')?.textContent).toBe(`Savings ${BOB}`)

    fireEvent.click(screen.getByRole('button', { name: 'Confirm and send' }))
    await waitFor(() => expect(document.getElementById('send-status')?.getAttribute('data-state')).toBe('failed'), { timeout: 5000 })
    expect(document.getElementById('send-status')?.textContent).toBe('Failed: ERC20: transfer amount exceeds balance')
    expect(client.calls.find(([m]) => m === 'sendSubmit')?.[1]).toEqual({
      caip2: evm.caip2,
      from: ETH_ADDR,
      to: BOB,
      amount: '1499949600000000000',
      evm: estimate.evm,
    })
    expect(polls).toBe(2)
  })

  it('keeps Confirm disabled when the estimate finds a problem', async () => {
    const client = fakeClient<any>({
      balances: () => ({ ok: true, result: balances('1') }),
      sendEstimate: () => ({
        ok: true,
        result: { ...estimate, problem: 'Not enough ETH: the amount plus the most the fee can cost is more than the balance.' },
      }),
    })
    render(<Send client={client} network={evm} onSessionLost={noop} />)
    fireEvent.input(await screen.findByLabelText(/^Recipient/), { target: { value: BOB } })
    fireEvent.input(screen.getByLabelText('Amount'), { target: { value: '2' } })
    fireEvent.click(screen.getByRole('button', { name: 'Review' }))
    await screen.findByText(/Not enough ETH/)
    expect((screen.getByRole('button', { name: 'Confirm and send' }) as HTMLButtonElement).disabled).toBe(true)
  })
})

describe('send status polling', () => {
  it('stops asking for the status once the screen is gone', async () => {
    let polls = 0
    const client = fakeClient<any>({
      balances: () => ({ ok: true, result: balances('1500000000000000000') }),
      sendEstimate: () => ({ ok: true, result: estimate }),
      sendSubmit: () => ({ ok: true, result: { sendTransactionStatusId: 'send-2', activityStatus: 'ACTIVITY_STATUS_COMPLETED' } }),
      sendStatus: () => {
        polls++
        return { ok: true, result: { state: 'pending', txStatus: 'BROADCASTING' } }
      },
    })
    const view = render(<Send client={client} network={evm} onSessionLost={noop} />)
    fireEvent.input(await screen.findByLabelText(/^Recipient/), { target: { value: BOB } })
    fireEvent.input(screen.getByLabelText('Amount'), { target: { value: '0.1' } })
    fireEvent.click(screen.getByRole('button', { name: 'Review' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm and send' }))
    await waitFor(() => expect(document.getElementById('send-status')?.textContent).toBe('Pending (broadcasting)…'))
    view.unmount()
    const seen = polls
    await new Promise((r) => setTimeout(r, 2500))
    expect(polls).toBe(seen)
  })
})

describe('history', () => {
  it('lists transfers with amounts, statuses and failures', async () => {
    const client = fakeClient<any>({
      accountBook: () => ({ ok: true, result: book }),
      history: (p) => ({
        ok: true,
        result: {
          caip2: p.caip2,
          address: p.address,
          native: { symbol: 'ETH', decimals: 18 },
          rows: [
            { id: '0x01', status: 'CONFIRMED', failed: true, timestamp: '', fee: '1000', transfers: [] },
            {
              id: '0x02',
              status: 'CONFIRMED',
              failed: false,
              timestamp: '2026-01-01T00:00:00Z',
              fee: '21000',
              transfers: [{ direction: 'OUT', amount: '250000', symbol: 'TST', decimals: 6, counterparty: BOB }],
            },
          ],
        },
      }),
    })
    render(<HistoryScreen client={client} network={evm} onSessionLost={noop} />)
    await waitFor(() => expect(document.querySelectorAll('ul.tx-history li')).toHaveLength(2))
    const [failed, sent] = [...document.querySelectorAll('ul.tx-history li')]
    expect(failed?.getAttribute('data-status')).toBe('failed')
    expect(sent?.getAttribute('data-status')).toBe('confirmed')
    // the counterparty is the user's own (hidden) account: it goes by its name
    expect(sent?.querySelector('.transfer')?.textContent).toBe('Sent 0.25 TST to Savings')
    expect(document.getElementById('history-account')?.textContent).toBe('Account 1 · 0xD122…9aDb')
    expect(client.calls).toContainEqual(['history', { caip2: evm.caip2, address: ETH_ADDR }])
  })
})
