// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { SendCallsBody, UPGRADE_TEXT } from '@/src/extension/approval/BatchView'
import type { SendCallsView } from '@/src/extension/protocol/approvalView'

const ME = `0x${'11'.repeat(20)}`
const TO = `0x${'22'.repeat(20)}`
const TOKEN = `0x${'77'.repeat(20)}`

afterEach(cleanup)

const view = (over: Partial<SendCallsView> = {}): SendCallsView => ({
  kind: 'sendCalls',
  address: ME,
  chain: { chainId: '0x7a69', name: 'Dev chain' },
  calls: [
    { to: TO, value: '1 ETH', valueWei: '1000000000000000000', data: '0x', call: null, selector: null, failure: null },
    {
      to: TOKEN,
      value: '0 ETH',
      valueWei: '0',
      data: '0xa9059cbb',
      call: {
        method: 'transfer(address,uint256)',
        rows: [
          ['Recipient', TO],
          ['Amount', '7'],
        ],
        warnings: [],
      },
      selector: null,
      failure: null,
    },
  ],
  total: '1 ETH',
  atomic: true,
  gasPayer: 'you',
  fees: [['Gas limit', '120000']],
  upgrade: true,
  warnings: [],
  ...over,
})

describe('the wallet_sendCalls approval body', () => {
  it('shows every call in order (decoded when it is a token call), the total, who pays and the upgrade sentence', () => {
    render(<SendCallsBody view={view()} />)
    const calls = screen.getAllByTestId('approval-batch-call')
    expect(calls.map((c) => c.getAttribute('aria-label'))).toEqual(['Call 1 of 2', 'Call 2 of 2'])
    expect(calls[0]?.textContent).toContain(`To${TO}`)
    expect(calls[0]?.textContent).toContain('Value1 ETH (1000000000000000000 wei)')
    expect(calls[1]?.textContent).toContain('transfer(address,uint256)')
    expect(screen.getByTestId('approval-batch-decoded').textContent).toBe(`Recipient${TO}Amount7`)
    expect(screen.getByTestId('approval-batch').textContent).toContain('Total value1 ETH')
    expect(screen.getByTestId('approval-batch').textContent).toContain('Gas paid byYou')
    expect(screen.getByTestId('approval-upgrade').textContent).toBe(UPGRADE_TEXT)
    expect(screen.getByTestId('approval-batch-how').textContent).toBe('All calls go in one transaction: all succeed or none does.')
    expect(screen.getByTestId('approval-fees').textContent).toContain('Gas limit120000')
  })

  it('sponsored: no fee section, "Sigil\'s sponsor" pays; already upgraded: no upgrade sentence; sequential says so', () => {
    render(<SendCallsBody view={view({ gasPayer: 'sponsor', fees: [], upgrade: false, atomic: false })} />)
    expect(screen.getByTestId('approval-batch').textContent).toContain("Gas paid bySigil's sponsor")
    expect(screen.getByTestId('approval-batch-how').textContent).toContain('One transaction per call, in order')
    expect(screen.queryByTestId('approval-upgrade')).toBeNull()
    expect(screen.queryByTestId('approval-fees')).toBeNull()
  })
})
