/** Solana transaction errors in words: each common error a sentence, unknown ones by name, never JSON. */
import { describe, expect, it } from 'vitest'
import { solanaErrorWords, solanaFailureWords } from '@/src/extension/background/wallet/solanaErrors'

describe('Solana errors in words', () => {
  it('says what each common transaction error means', () => {
    expect(solanaErrorWords({ InsufficientFundsForRent: { account_index: 1 } })).toMatch(/^The receiving account would hold less SOL/)
    expect(solanaErrorWords({ InsufficientFundsForRent: { account_index: 0 } })).toMatch(/^That would leave your account with less SOL/)
    expect(solanaErrorWords('InsufficientFundsForFee')).toBe('Not enough SOL to pay the network fee.')
    expect(solanaErrorWords('AccountNotFound')).toMatch(/does not exist on this network yet/)
    expect(solanaErrorWords('BlockhashNotFound')).toMatch(/^The transaction expired/)
  })

  it('names the program’s custom error: the token program’s insufficient funds, the System Program’s', () => {
    const tokenLogs = ['Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA failed: custom program error: 0x1']
    expect(solanaErrorWords({ InstructionError: [1, { Custom: 1 }] }, tokenLogs)).toBe('Not enough tokens in the sending account.')
    expect(solanaErrorWords({ InstructionError: [0, { Custom: 4 }] }, tokenLogs)).toBe('The token account belongs to someone else.')
    const systemLogs = ['Program 11111111111111111111111111111111 failed: custom program error: 0x1']
    expect(solanaErrorWords({ InstructionError: [0, { Custom: 1 }] }, systemLogs)).toBe('Not enough SOL to make this transfer.')
    expect(solanaErrorWords({ InstructionError: [0, { Custom: 1 }] })).toBe('Not enough funds to make this transfer.')
    expect(solanaErrorWords({ InstructionError: [2, { Custom: 31 }] })).toBe(
      'The network refused the transaction: custom program error 0x1f (instruction 3).',
    )
  })

  it('gives unknown errors by name', () => {
    expect(solanaErrorWords('WouldExceedMaxBlockCostLimit')).toBe('The network refused the transaction: WouldExceedMaxBlockCostLimit.')
    expect(solanaErrorWords({ DuplicateInstruction: 2 })).toBe('The network refused the transaction: DuplicateInstruction.')
    expect(solanaErrorWords({ InstructionError: [0, 'InvalidSeeds'] })).toBe(
      'The network refused the transaction: InvalidSeeds (instruction 1).',
    )
  })

  it('reads the error out of a service status or a preflight message, never passing JSON on', () => {
    expect(solanaFailureWords({ transactionErrorJson: '{"InsufficientFundsForRent":{"account_index":1}}' })).toMatch(/^The receiving/)
    expect(solanaFailureWords({ rpcMessage: 'Transaction simulation failed: {"InsufficientFundsForRent":{"account_index":0}}' })).toMatch(
      /^That would leave your account/,
    )
    expect(solanaFailureWords({ rpcMessage: 'Transaction simulation failed: "InsufficientFundsForFee"' })).toBe(
      'Not enough SOL to pay the network fee.',
    )
    expect(
      solanaFailureWords({ rpcMessage: 'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1' }),
    ).toBe('Not enough funds to make this transfer.')
    expect(solanaFailureWords({ rpcMessage: 'Transaction simulation failed: Blockhash not found' })).toBe(
      'The network refused the transaction: Blockhash not found',
    )
    expect(solanaFailureWords({ rpcMessage: 'odd {"x": [1' })).toBe('The network refused the transaction.')
    expect(solanaFailureWords({})).toBeUndefined()
  })
})
