// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApprovalApp } from '@/src/extension/approval/ApprovalApp'
import type { ApprovalView } from '@/src/extension/protocol/approvalView'
import type { PopupClient } from '@/src/extension/popup/client'

const ID = '11111111-2222-4333-8444-555555555555'

/** A controllable IntersectionObserver: `showAll()` reports every observed element as in view. */
class FakeObserver {
  static live: FakeObserver[] = []
  readonly targets: Element[] = []
  constructor(readonly callback: IntersectionObserverCallback) {
    FakeObserver.live.push(this)
  }
  observe(el: Element) {
    this.targets.push(el)
  }
  disconnect() {
    FakeObserver.live = FakeObserver.live.filter((o) => o !== this)
  }
  static showAll() {
    for (const o of [...FakeObserver.live]) {
      o.callback(
        o.targets.map((target) => ({ target, isIntersecting: true }) as unknown as IntersectionObserverEntry),
        o as unknown as IntersectionObserver,
      )
    }
  }
}

function client(view: ApprovalView): PopupClient & { calls: Array<[string, unknown]> } {
  const calls: Array<[string, unknown]> = []
  return {
    calls,
    call: (async (method: string, params?: unknown) => {
      calls.push([method, params])
      if (method === 'approvalGet')
        return { ok: true, result: { id: ID, origin: 'https://dapp.example', method: 'eth_signTypedData_v4', view, expiresAt: 0 } }
      return { ok: true, result: { settled: true } }
    }) as PopupClient['call'],
  }
}

const rows = Array.from({ length: 80 }, (_, i): [string, string] => [`offer[${i}].token`, `0x${String(i).padStart(40, '0')}`])
const typedView: ApprovalView = {
  kind: 'typedData',
  address: '0x4242424242424242424242424242424242424242',
  primaryType: 'OrderComponents',
  warnings: ['Consideration #1 goes to 0xbdbd, not to your account.'],
  summary: { title: 'Marketplace order (Seaport)', rows: [['You give #1', 'ERC-721 0x11, id 1, amount 1']] },
  domain: [['name', 'Seaport']],
  message: [...rows, ['consideration[0].recipient', '0xBdBd000000000000000000000000000000000000']],
}

beforeEach(() => {
  FakeObserver.live = []
  vi.stubGlobal('IntersectionObserver', FakeObserver)
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('approval window: typed data', () => {
  it('renders every row, the summary and the warnings; Approve stays disabled until the end of the fields is in view', async () => {
    const c = client(typedView)
    render(<ApprovalApp client={c} id={ID} closeWindow={() => {}} />)
    await screen.findByText('consideration[0].recipient')
    expect(screen.getByText('0xBdBd000000000000000000000000000000000000')).toBeTruthy()
    expect(document.querySelectorAll('[aria-label="Message fields"] .field-row')).toHaveLength(81)
    expect(screen.getByTestId('approval-warnings').textContent).toContain('not to your account')
    expect(screen.getByTestId('approval-summary').textContent).toContain('You give #1')
    const approve = screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement
    // armed after the delay, but still disabled: the end of the fields has not been seen
    await new Promise((r) => setTimeout(r, 500))
    expect(approve.disabled).toBe(true)
    expect(screen.getByTestId('approval-scroll-hint')).toBeTruthy()
    fireEvent.click(approve)
    expect(c.calls.some(([m]) => m === 'approvalResolve')).toBe(false)
    // the observed element is the one after the last row
    expect(FakeObserver.live[0]?.targets[0]?.previousElementSibling?.textContent).toContain('consideration[0].recipient')
    FakeObserver.showAll()
    await waitFor(() => expect(approve.disabled).toBe(false))
    expect(screen.queryByTestId('approval-scroll-hint')).toBeNull()
    fireEvent.click(approve)
    await waitFor(() => expect(c.calls).toContainEqual(['approvalResolve', { id: ID, approved: true }]))
  })

  it('without IntersectionObserver Approve never enables (fail closed)', async () => {
    vi.stubGlobal('IntersectionObserver', undefined)
    render(<ApprovalApp client={client(typedView)} id={ID} closeWindow={() => {}} />)
    await screen.findByText('consideration[0].recipient')
    await new Promise((r) => setTimeout(r, 500))
    expect((screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('a decoded transaction call is shown with its warnings and the raw data', async () => {
    const data = `0x095ea7b3${'00'.repeat(64)}`
    const view: ApprovalView = {
      kind: 'transaction',
      address: '0x4242424242424242424242424242424242424242',
      to: '0x6666666666666666666666666666666666666666',
      valueWei: '0',
      data,
      call: {
        method: 'approve(address,uint256)',
        rows: [['Amount', 'unlimited (1)']],
        warnings: ['Unlimited approval: 0x55 can spend all of this token.'],
      },
      value: '0 ETH',
      chain: { chainId: '0x1', name: 'Ethereum' },
      nonce: '0',
      fees: [
        ['Gas price', '0.000000001 gwei'],
        ['Gas limit', '21000'],
      ],
      filled: [],
      warnings: [],
    }
    render(<ApprovalApp client={client(view)} id={ID} closeWindow={() => {}} />)
    const call = await screen.findByTestId('approval-call')
    expect(call.textContent).toContain('approve(address,uint256)')
    expect(call.textContent).toContain('unlimited (1)')
    expect(screen.getByTestId('approval-warnings').textContent).toContain('Unlimited approval')
    expect(screen.getByText(data)).toBeTruthy()
    expect(screen.queryByTestId('approval-filled')).toBeNull()
    await waitFor(() => expect((screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(false))
  })

  it('a transaction Sigil completed shows its fee rows under "Network fee", what it filled in, and the simulation warning', async () => {
    const view: ApprovalView = {
      kind: 'transaction',
      address: '0x4242424242424242424242424242424242424242',
      to: '0x6666666666666666666666666666666666666666',
      valueWei: '1000000000000000000',
      value: '1 ETH',
      data: '0x',
      call: null,
      chain: { chainId: '0x7a69', name: 'Sigil dev EVM' },
      nonce: '7',
      fees: [
        ['Max fee per gas', '3 gwei'],
        ['Priority fee per gas', '1 gwei'],
        ['Gas limit', '25200'],
        ['Max network fee', '0.0000756 ETH'],
        ['Total (at most)', '1.0000756 ETH (value + max network fee)'],
      ],
      filled: ['nonce', 'gas limit', 'fees'],
      warnings: ['This transaction will fail: execution reverted: nope'],
    }
    render(<ApprovalApp client={client(view)} id={ID} closeWindow={() => {}} />)
    const fees = await screen.findByTestId('approval-fees')
    expect(screen.getByRole('heading', { name: 'Network fee' })).toBeTruthy()
    const rows = [...fees.querySelectorAll('.field-row')].map((r) => [
      r.querySelector('dt')?.textContent,
      r.querySelector('dd')?.textContent,
    ])
    // The fee and its maximum first; how it is made (per-gas prices, gas limit) folded under "Fee details".
    expect(rows).toEqual([...view.fees.slice(3), ...view.fees.slice(0, 3)])
    const folded = fees.querySelector('details.fee-details') as HTMLDetailsElement
    expect(folded.open).toBe(false)
    expect(folded.querySelector('summary')?.textContent).toBe('Fee details')
    expect([...folded.querySelectorAll('dt')].map((d) => d.textContent)).toEqual(['Max fee per gas', 'Priority fee per gas', 'Gas limit'])
    expect(screen.getByLabelText('Transaction').textContent).toContain('1 ETH (1000000000000000000 wei)')
    expect(screen.getByTestId('approval-filled').textContent).toBe(
      'The site left out the nonce, gas limit, fees: Sigil filled them in from Sigil dev EVM.',
    )
    expect(screen.getByTestId('approval-warnings').textContent).toBe('This transaction will fail: execution reverted: nope')
  })
})

describe('approval window: dApp sends, networks and tokens', () => {
  const send: ApprovalView = {
    kind: 'sendTransaction',
    address: '0x4242424242424242424242424242424242424242',
    to: '0x6666666666666666666666666666666666666666',
    valueWei: '500000000000000000',
    value: '0.5 ETH',
    data: '0xb3de648b000000000000000000000000000000000000000000000000000000000000002a',
    call: null,
    selector: '0xb3de648b',
    chain: { chainId: '0x7a69', name: 'Sigil dev EVM' },
    fees: [
      ['Max fee per gas', '3 gwei'],
      ['Priority fee per gas', '1 gwei'],
      ['Gas limit', 'unknown (the gas could not be estimated)'],
      ['Total', '0.5 ETH + the network fee (unknown)'],
    ],
    warnings: ['This transaction will fail: execution reverted: nope'],
  }

  it('a send shows from, to, value, network, selector, fee and the simulation warning', async () => {
    render(<ApprovalApp client={client(send)} id={ID} closeWindow={() => {}} />)
    const table = await screen.findByLabelText('Transaction')
    for (const text of [
      '0x4242424242424242424242424242424242424242',
      '0x6666',
      '0.5 ETH (500000000000000000 wei)',
      'Sigil dev EVM (chain 31337)',
    ]) {
      expect(table.textContent).toContain(text)
    }
    // Raw calldata and selector are folded behind "Show data", closed by default; the subtitle says what the site
    // wants in words, the method name only under "Technical details".
    expect(table.textContent).not.toContain('0xb3de648b')
    const raw = screen.getByTestId('approval-raw-data') as HTMLDetailsElement
    expect(raw.open).toBe(false)
    expect(raw.querySelector('summary')?.textContent).toBe('Show data')
    expect(raw.textContent).toContain('Function selector0xb3de648b')
    expect(raw.textContent).toContain(send.data)
    expect(screen.getByTestId('approval-what').textContent).toBe('wants you to send a transaction')
    expect(screen.getByTestId('approval-what').textContent).not.toContain('eth_')
    expect((screen.getByTestId('approval-method').closest('details') as HTMLDetailsElement).open).toBe(false)
    expect(screen.getByTestId('approval-warnings').textContent).toBe('This transaction will fail: execution reverted: nope')
    expect(screen.getByTestId('approval-fees').textContent).toContain('Total0.5 ETH + the network fee (unknown)')
    expect(screen.queryByTestId('approval-simulation')).toBeNull()
  })

  it('a send that simulates cleanly says so; adding a network shows its RPC URL; a token its contract', async () => {
    render(<ApprovalApp client={client({ ...send, warnings: [], selector: null, data: '0x' })} id={ID} closeWindow={() => {}} />)
    expect((await screen.findByTestId('approval-simulation')).textContent).toContain('the transaction succeeds')
    cleanup()
    const add: ApprovalView = {
      kind: 'addChain',
      chain: { chainId: '0x7a69', name: 'Local' },
      rpcUrl: 'http://127.0.0.1:8545',
      nativeSymbol: 'ETH',
      nativeDecimals: 18,
      explorerUrl: null,
    }
    render(<ApprovalApp client={client(add)} id={ID} closeWindow={() => {}} />)
    expect((await screen.findByLabelText('Network')).textContent).toContain('http://127.0.0.1:8545')
    cleanup()
    const token: ApprovalView = {
      kind: 'watchAsset',
      address: '0x4242424242424242424242424242424242424242',
      token: '0x4444444444444444444444444444444444444444',
      symbol: 'TKN',
      decimals: 6,
      chain: { chainId: '0x1', name: 'Ethereum' },
    }
    render(<ApprovalApp client={client(token)} id={ID} closeWindow={() => {}} />)
    expect((await screen.findByLabelText('Token')).textContent).toContain('0x4444444444444444444444444444444444444444')
  })
})
