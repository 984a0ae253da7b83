// @vitest-environment happy-dom
/**
 * The popup's NFTs (screens/Nfts.tsx) with a fake background client: rows with the collection
 * (or the short contract address), #id and the ERC-1155 amount; the empty state; Send from the
 * keyboard; the send form's field errors, the review in words and the confirm with the reviewed fees.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeClient } from '../fakePopupClient'
import type { Network } from '@/src/extension/popup/network'
import { type Nft, NftList, NftSection, SendNft } from '@/src/extension/popup/screens/Nfts'

afterEach(cleanup)

const ME = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const BOB = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
const C721 = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const C1155 = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512'
const evm: Network = {
  caip2: 'eip155:31337',
  family: 'evm',
  name: 'Dev EVM',
  rpcUrl: 'http://127.0.0.1:8545',
  nativeSymbol: 'ETH',
  nativeDecimals: 18,
  dev: true,
  tokens: [],
}
const n721: Nft = { contract: C721, tokenId: '7', standard: 'erc721', amount: '1', collection: 'TestNft721' }
const n1155: Nft = { contract: C1155, tokenId: '1', standard: 'erc1155', amount: '3' }

describe('NftList', () => {
  it('shows collection, #id and the ERC-1155 amount; Send names the NFT and passes the account', () => {
    const onSend = vi.fn()
    render(<NftList accounts={[{ address: ME, name: 'Account 1', nfts: [n721, n1155] }]} onSend={onSend} />)
    const rows = screen.getAllByRole('listitem')
    expect(rows.map((r) => r.querySelector('.nft-name')?.textContent)).toEqual(['TestNft721 #7', '0xe7f1…0512 #1 ×3'])
    fireEvent.click(screen.getByRole('button', { name: 'Send 0xe7f1…0512 #1' }))
    expect(onSend).toHaveBeenCalledWith(ME, n1155)
  })

  it('says "No NFTs on this network" when no account holds one', () => {
    render(<NftList accounts={[{ address: ME, name: 'Account 1', nfts: [] }]} onSend={() => {}} />)
    expect(screen.getByText('No NFTs on this network')).toBeTruthy()
    expect(screen.queryAllByRole('button')).toHaveLength(0)
  })
})

describe('NftSection', () => {
  it('reads the NFTs of an EVM network and shows nothing on Solana', async () => {
    const client = fakeClient({
      nfts: () => ({ ok: true, result: { caip2: evm.caip2, accounts: [{ address: ME, name: 'A', nfts: [n721] }] } }),
    })
    const { rerender } = render(<NftSection client={client} network={evm} refreshKey={0} onSend={() => {}} onSessionLost={() => {}} />)
    await screen.findByText('TestNft721')
    expect(client.calls).toEqual([['nfts', { caip2: evm.caip2 }]])
    rerender(
      <NftSection
        client={client}
        network={{ ...evm, family: 'solana', caip2: 'solana:dev' }}
        refreshKey={0}
        onSend={() => {}}
        onSessionLost={() => {}}
      />,
    )
    expect(screen.queryByRole('heading', { name: 'NFTs' })).toBeNull()
  })
})

describe('SendNft', () => {
  const estimate = {
    caip2: evm.caip2,
    networkName: 'Dev EVM',
    from: ME,
    to: BOB,
    nft: n1155,
    amount: '2',
    native: { symbol: 'ETH', decimals: 18 },
    fee: '66660000000000',
    maxFee: '105300000000000',
    evm: { gasLimit: '60000', maxFeePerGas: '1750000000', maxPriorityFeePerGas: '1000000000' },
  }

  it('shows a field error at the recipient, then reviews in words and sends with the reviewed fees', async () => {
    let first = true
    const client = fakeClient<Record<string, unknown>>({
      nftSendEstimate: () => {
        if (first) {
          first = false
          return { ok: false, error: { code: 'INVALID_ARGUMENT', message: 'to: not an Ethereum address', field: 'to' } }
        }
        return { ok: true, result: estimate }
      },
      nftSendSubmit: () => ({ ok: true, result: { sendTransactionStatusId: 's1', activityStatus: 'ACTIVITY_STATUS_COMPLETED' } }),
      sendStatus: () => ({ ok: true, result: { state: 'confirmed', txStatus: 'INCLUDED', txHash: `0x${'ab'.repeat(32)}` } }),
    })
    const onDone = vi.fn()
    render(<SendNft client={client} network={evm} from={ME} nft={n1155} onDone={onDone} onSessionLost={() => {}} />)
    fireEvent.input(screen.getByLabelText('Recipient address'), { target: { value: '0x12' } })
    fireEvent.input(screen.getByLabelText('How many (at most 3)'), { target: { value: '2' } })
    fireEvent.click(screen.getByRole('button', { name: 'Review' }))
    expect((await screen.findByRole('alert')).textContent).toBe('not an Ethereum address')
    expect(screen.getByLabelText('Recipient address').getAttribute('aria-invalid')).toBe('true')

    fireEvent.input(screen.getByLabelText('Recipient address'), { target: { value: BOB } })
    fireEvent.click(screen.getByRole('button', { name: 'Review' }))
    await waitFor(() => expect(document.querySelector('#send-nft-summary')?.textContent).toBe(`Send NFT 2 × 0xe7f1…0512 #1 to 0x5aAe…eAed`))
    expect(document.querySelector('dd[data-field="fee"]')?.textContent).toBe('0.00006666 ETH (at most 0.0001053 ETH)')
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    await waitFor(() => expect(document.querySelector('#send-status')?.getAttribute('data-state')).toBe('confirmed'))
    const submit = client.calls.find(([m]) => m === 'nftSendSubmit')?.[1]
    expect(submit).toEqual({ caip2: evm.caip2, from: ME, to: BOB, contract: C1155, tokenId: '1', amount: '2', evm: estimate.evm })
    fireEvent.click(screen.getByRole('button', { name: 'Done' }))
    expect(onDone).toHaveBeenCalled()
  })
})
