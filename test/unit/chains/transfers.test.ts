import { getCreateAccountInstruction, getTransferSolInstruction } from '@solana-program/system'
import {
  address,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit'
import { describe, expect, it } from 'vitest'
import { transferCalldata } from '../../../src/chains/erc20'
import { parseSolanaTransaction } from '../../../src/chains/sign/solanaMessage'
import { evmParties, evmTransfers, solanaParties, solanaSigners, solanaTransfers } from '../../../src/chains/transfers'

const A = '0x52908400098527886E0F7030069857D2E4169EE7'
const B = '0x8617E340B3D01FA5F11F306F4090FD50E238070D'
const TOKEN = '0xDe0B295669a9FD93d5F28D9Ec85E40f4cb697BAe'

describe('EVM transfers', () => {
  it('reads the native value and an ERC-20 transfer, addresses EIP-55', () => {
    expect(evmTransfers({ from: A.toLowerCase(), to: B, value: 5n, data: '' })).toEqual([
      { from: A, to: '0x8617E340B3D01FA5F11F306F4090FD50E238070D', amount: 5n },
    ])
    const data = transferCalldata(B, 7n)
    expect(evmTransfers({ from: A, to: TOKEN, value: 0n, data })).toEqual([
      { token: TOKEN.toLowerCase(), from: A, to: '0x8617E340B3D01FA5F11F306F4090FD50E238070D', amount: 7n },
    ])
    expect(evmTransfers({ from: A, to: TOKEN, value: 0n, data: '0x12345678' })).toEqual([])
    expect(evmTransfers({ from: A, to: undefined, value: 5n, data })).toEqual([])
    expect(evmParties(TOKEN, data)).toEqual([TOKEN.toLowerCase(), B.toLowerCase()])
    expect(evmParties(B, undefined)).toEqual([B.toLowerCase()])
    expect(evmParties(undefined, data)).toEqual([])
  })
})

describe('Solana transfers', () => {
  it('reads each System Program transfer, the signers and the parties; other instructions move nothing here', () => {
    const payer = address('9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin')
    const to1 = address('4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T')
    const to2 = address('2tB4y1t4K8JeVgkS4mn2iB3pWvb8qKkgkqtg4m5q5p4m')
    const created = address('8opHzTAnfzRpPEx21XtnrVTX28YQuCpAjcn1PczScKh')
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(payer, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: '11111111111111111111111111111111' as Blockhash, lastValidBlockHeight: 0n },
          m,
        ),
      (m) =>
        appendTransactionMessageInstructions(
          [
            getTransferSolInstruction({ source: createNoopSigner(payer), destination: to1, amount: 1_000n }),
            getCreateAccountInstruction({
              payer: createNoopSigner(payer),
              newAccount: createNoopSigner(created),
              lamports: 5n,
              space: 0,
              programAddress: address('11111111111111111111111111111111'),
            }),
            getTransferSolInstruction({ source: createNoopSigner(payer), destination: to2, amount: 2n ** 40n }),
          ],
          m,
        ),
    )
    const tx = parseSolanaTransaction(Uint8Array.from(getTransactionEncoder().encode(compileTransaction(message))))
    expect(solanaTransfers(tx.message)).toEqual([
      { from: payer, to: to1, amount: 1_000n },
      { from: payer, to: to2, amount: 2n ** 40n },
    ])
    expect(solanaSigners(tx.message)).toEqual([
      { address: payer, writable: true },
      { address: created, writable: true },
    ])
    expect(solanaParties(tx.message).sort()).toEqual([payer, created, to1, to2].sort())
  })
})
