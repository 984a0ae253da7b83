/**
 * How a Solana transaction read from the chain becomes history transfers of one address
 * (history/solanaChainHistory.ts): the fee is not a transfer, a failed transaction moved nothing,
 * keys from address lookup tables count, and a token without configuration keeps its decimals.
 */
import { describe, expect, it } from 'vitest'
import { DEV_SOLANA_CAIP2, DEV_SOLANA_MINT, resolveNetworks } from '../../../src/chains/networks'
import { type RpcTransaction, solanaTransfersOf } from '../../../src/service/history/solanaChainHistory'

const network = resolveNetworks(`${DEV_SOLANA_CAIP2}=http://127.0.0.1:9`).find((n) => n.caip2 === DEV_SOLANA_CAIP2)
if (!network) throw new Error('no dev Solana network')
const ME = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin'
const OTHER = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T'
const SYSTEM = '11111111111111111111111111111111'
const UNLISTED_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'

function tx(keys: string[], pre: number[], post: number[], extra: Partial<NonNullable<RpcTransaction['meta']>> = {}): RpcTransaction {
  return {
    slot: 7,
    blockTime: 1_700_000_000,
    meta: { err: null, fee: 5000, preBalances: pre, postBalances: post, ...extra },
    transaction: {
      signatures: ['sig'],
      message: { accountKeys: keys, header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 1 } },
    },
  }
}
const balance = (accountIndex: number, owner: string, mint: string, amount: string, decimals = 6) => ({
  accountIndex,
  mint,
  owner,
  uiTokenAmount: { amount, decimals },
})

describe('solanaTransfersOf', () => {
  it('a send the address paid for: the amount sent, not the fee, to the key that received it', () => {
    const t = tx([ME, OTHER, SYSTEM], [10_000_000, 0, 1], [10_000_000 - 1_000_000 - 5000, 1_000_000, 1])
    expect(solanaTransfersOf(network, t, ME)).toEqual([
      expect.objectContaining({ direction: 'OUT', amount: '1000000', counterparty: OTHER, display: { crypto: '0.001' } }),
    ])
    expect(solanaTransfersOf(network, t, OTHER)).toEqual([
      expect.objectContaining({ direction: 'IN', amount: '1000000', counterparty: ME }),
    ])
  })

  it('a failed transaction moved nothing (its fee is the fee)', () => {
    const t = tx([ME, OTHER, SYSTEM], [10_000_000, 0, 1], [10_000_000 - 5000, 0, 1], { err: { InstructionError: [0, { Custom: 1 }] } })
    expect(solanaTransfersOf(network, t, ME)).toEqual([])
  })

  it('an address loaded from a lookup table is found after the static keys', () => {
    const t = tx([OTHER, SYSTEM], [5_000_000, 1, 0], [5_000_000 - 2_000_000 - 5000, 1, 2_000_000], {
      loadedAddresses: { writable: [ME], readonly: [] },
    })
    expect(solanaTransfersOf(network, t, ME)).toEqual([
      expect.objectContaining({ direction: 'IN', amount: '2000000', counterparty: OTHER }),
    ])
  })

  it('tokens: the configured mint by its symbol, another by its shortened mint with the decimals the chain gives', () => {
    const t = tx([OTHER, 'A1', 'A2', 'B1', 'B2'], [1e9, 0, 0, 0, 0], [1e9 - 5000, 0, 0, 0, 0], {
      preTokenBalances: [
        balance(1, OTHER, DEV_SOLANA_MINT, '50000000'),
        balance(2, ME, DEV_SOLANA_MINT, '0'),
        balance(3, OTHER, UNLISTED_MINT, '900', 2),
      ],
      postTokenBalances: [
        balance(1, OTHER, DEV_SOLANA_MINT, '37500000'),
        balance(2, ME, DEV_SOLANA_MINT, '12500000'),
        balance(3, OTHER, UNLISTED_MINT, '650', 2),
        balance(4, ME, UNLISTED_MINT, '250', 2),
      ],
    })
    expect(solanaTransfersOf(network, t, ME)).toEqual([
      {
        direction: 'IN',
        amount: '12500000',
        counterparty: OTHER,
        asset: expect.objectContaining({ symbol: 'USDC', decimals: 6 }),
        display: { crypto: '12.5' },
      },
      {
        direction: 'IN',
        amount: '250',
        counterparty: OTHER,
        asset: { caip19: `${DEV_SOLANA_CAIP2}/token:${UNLISTED_MINT}`, symbol: 'EPjF…Dt1v', name: 'Unknown token', decimals: 2 },
        display: { crypto: '2.5' },
      },
    ])
  })
})
