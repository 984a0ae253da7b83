// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { SolanaViewBody } from '@/src/extension/approval/SolanaViews'
import type { SolanaTransactionView } from '@/src/extension/protocol/approvalView'

const ME = 'JDuHr2NBczizh6ahXL1HxNMBAKoad1uxWUERoYrjJjck'
const TO = '6GqaqX4MSo6w3DQzWE9TDwbckaQuSHjtyLguq8P19tYN'

afterEach(cleanup)

describe('Solana approval bodies', () => {
  it('a transfer shows each instruction row, the fee payer, network, warnings and whether Sigil sends it', () => {
    const view: SolanaTransactionView = {
      kind: 'solanaTransaction',
      address: ME,
      network: 'Solana Dev (solana:localnet)',
      feePayer: ME,
      version: '0',
      instructions: [
        {
          title: 'System Program: transfer SOL',
          rows: [
            ['From', ME],
            ['To', TO],
            ['Amount', '0.5 SOL (500000000 lamports)'],
          ],
        },
      ],
      warnings: ['Other accounts must sign this transaction too: X'],
      send: true,
    }
    render(<SolanaViewBody view={view} />)
    const ix = screen.getByTestId('approval-instruction')
    expect(ix.textContent).toBe(`1. System Program: transfer SOLFrom${ME}To${TO}Amount0.5 SOL (500000000 lamports)`)
    expect(screen.getByTestId('approval-solana-transaction').textContent).toBe(`Fee payer${ME}NetworkSolana Dev (solana:localnet)Version0`)
    expect(screen.getByTestId('approval-warnings').textContent).toContain('Other accounts must sign')
    expect(screen.getByText('Sigil signs this transaction and sends it to the network.')).toBeTruthy()
  })

  it('connect shows each Solana account by name with a checkbox (the preselected one checked) and the networks', () => {
    const view = {
      kind: 'solanaConnect' as const,
      accounts: [
        { address: ME, name: 'Account 1' },
        { address: TO, name: 'Savings' },
      ],
      selected: [TO],
      networks: ['Solana Dev (solana:localnet)'],
    }
    render(<SolanaViewBody view={view} />)
    expect(screen.getAllByTestId('approval-account').map((e) => e.textContent)).toEqual([ME, TO])
    const boxes = screen.getAllByRole('checkbox', { name: /Account 1|Savings/ }) as HTMLInputElement[]
    expect(boxes.map((b) => [b.dataset['address'], b.checked])).toEqual([
      [ME, false],
      [TO, true],
    ])
    expect(screen.getByRole('group', { name: 'Solana accounts this site may see' })).toBeTruthy()
    expect(screen.getByText(/networks: Solana Dev \(solana:localnet\)/)).toBeTruthy()
  })
})
