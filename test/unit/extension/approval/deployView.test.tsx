// @vitest-environment happy-dom
/**
 * The approval window's deployment view (a send without `to`) and the titles chosen by view kind:
 * "Deploy a contract?" with the predicted address, the code size, a value only when one is sent,
 * the creation code behind a disclosure; an add-network request for a known chain titled as a switch.
 */
import { cleanup, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { ApprovalApp } from '@/src/extension/approval/ApprovalApp'
import { titleOf } from '@/src/extension/approval/format'
import type { ApprovalView } from '@/src/extension/protocol/approvalView'
import type { PopupClient } from '@/src/extension/popup/client'

const ID = '11111111-2222-4333-8444-555555555555'

function client(view: ApprovalView, method: string): PopupClient {
  return {
    call: (async (name: string) => {
      if (name === 'approvalGet') return { ok: true, result: { id: ID, origin: 'https://dapp.example', method, view, expiresAt: 0 } }
      return { ok: true, result: { settled: true } }
    }) as PopupClient['call'],
  }
}

const deploy: ApprovalView = {
  kind: 'deploy',
  address: '0x4242424242424242424242424242424242424242',
  codeBytes: 3799,
  predictedAddress: '0x53D8786C5Df8b9Ac7708988c43Ea9d734feB84C8',
  nonce: '12',
  valueWei: '0',
  value: '0 ETH',
  data: '0x6080604052',
  chain: { chainId: '0x7a69', name: 'Sigil dev EVM' },
  fees: [
    ['Gas limit', '862592'],
    ['Estimated fee', '≈ 0.0013 ETH'],
  ],
  warnings: [],
}

afterEach(cleanup)

describe('approval window: contract deployment', () => {
  it('titles "Deploy a contract?" and shows the predicted address, code size, network and nonce; no value row for 0', async () => {
    render(<ApprovalApp client={client(deploy, 'eth_sendTransaction')} id={ID} closeWindow={() => {}} />)
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Deploy a contract?')
    const rows = screen.getByTestId('approval-deploy').textContent ?? ''
    for (const text of [
      'Contract address0x53D8786C5Df8b9Ac7708988c43Ea9d734feB84C8',
      'Code size3,799 bytes',
      'NetworkSigil dev EVM (chain 31337)',
      'Nonce12',
    ]) {
      expect(rows).toContain(text)
    }
    expect(rows).not.toContain('Value')
    expect(screen.getByTestId('approval-creation-code').textContent).toBe('Creation code (3,799 bytes)0x6080604052')
    expect(screen.getByTestId('approval-fees').textContent).toContain('Estimated fee≈ 0.0013 ETH')
    expect(screen.getByTestId('approval-simulation').textContent).toBe('Simulated on Sigil dev EVM: the deployment succeeds.')
    expect(screen.queryByTestId('approval-warnings')).toBeNull()
  })

  it('a value sent to the constructor is shown; a failing simulation is a warning instead of the success line', async () => {
    const paid: ApprovalView = {
      ...deploy,
      valueWei: '10000000000000000',
      value: '0.01 ETH',
      warnings: ['This transaction will fail: execution reverted: no'],
    }
    render(<ApprovalApp client={client(paid, 'wallet_sendTransaction')} id={ID} closeWindow={() => {}} />)
    expect((await screen.findByTestId('approval-deploy')).textContent).toContain(
      'Value sent to the contract0.01 ETH (10000000000000000 wei)',
    )
    expect(screen.getByTestId('approval-method').textContent).toBe('wallet_sendTransaction')
    expect(screen.getByTestId('approval-warnings').textContent).toBe('This transaction will fail: execution reverted: no')
    expect(screen.queryByTestId('approval-simulation')).toBeNull()
  })

  it('titles follow the view: a switch asked by wallet_addEthereumChain is "Switch network?", wallet_sendTransaction a send', () => {
    expect(titleOf('wallet_addEthereumChain', 'switchChain')).toBe('Switch network?')
    expect(titleOf('wallet_addEthereumChain', 'addChain')).toBe('Add this network?')
    expect(titleOf('wallet_sendTransaction', 'sendTransaction')).toBe('Send this transaction?')
    expect(titleOf('eth_sendTransaction', 'deploy')).toBe('Deploy a contract?')
  })
})
