/**
 * The Solana balance changes of a simulated transaction, from the accounts before and after
 * (pure part of dapp/solana/assetChanges.ts). Token accounts are written with the official
 * `@solana-program/token` encoder, so the decoding is checked against the program's layout.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { AccountState as TokenState, getTokenEncoder } from '@solana-program/token'
import type { Address } from '@solana/kit'
import { describe, expect, it } from 'vitest'
import { TOKEN_PROGRAM } from '../../../../../src/chains/splToken'
import { type AccountState, solanaChangesFromStates } from '../../../../../src/extension/background/dapp/solana/assetChanges'

const key = () => base58.encode(ed25519.getPublicKey(ed25519.utils.randomSecretKey()))
const user = key()
const other = key()
const mintA = key()
const mintB = key()

function tokenAccount(p: { mint: string; owner: string; amount: bigint; delegate?: string; delegatedAmount?: bigint }): AccountState {
  const data = getTokenEncoder().encode({
    mint: p.mint as Address,
    owner: p.owner as Address,
    amount: p.amount,
    delegate: p.delegate === undefined ? null : (p.delegate as Address),
    state: TokenState.Initialized,
    isNative: null,
    delegatedAmount: p.delegatedAmount ?? 0n,
    closeAuthority: null,
  })
  return { lamports: 2_039_280n, owner: TOKEN_PROGRAM, data: Uint8Array.from(data) }
}
const wallet = (lamports: bigint): AccountState => ({ lamports, owner: '11111111111111111111111111111111', data: new Uint8Array() })

describe('solanaChangesFromStates', () => {
  it('a SOL transfer: what leaves the user, the fee left out', () => {
    const to = key()
    const r = solanaChangesFromStates(
      [user, to],
      [wallet(2_000_000_000n), null],
      [wallet(1_699_995_000n), wallet(300_000_000n)],
      user,
      5_000n,
    )
    expect(r).toEqual({ changes: [{ kind: 'sol', amount: -300_000_000n }], approvals: [] })
  })

  it('a swap: token A out of one of the user’s accounts, token B into a newly created one; others’ accounts do not count', () => {
    const ataA = key()
    const ataB = key()
    const poolA = key()
    const poolB = key()
    const addresses = [user, ataA, ataB, poolA, poolB]
    const before = [
      wallet(1_000_000_000n),
      tokenAccount({ mint: mintA, owner: user, amount: 50_000_000n }),
      null,
      tokenAccount({ mint: mintA, owner: other, amount: 1_000n }),
      tokenAccount({ mint: mintB, owner: other, amount: 90_000_000n }),
    ]
    const after = [
      wallet(1_000_000_000n - 2_039_280n - 5_000n),
      tokenAccount({ mint: mintA, owner: user, amount: 40_000_000n }),
      tokenAccount({ mint: mintB, owner: user, amount: 20_000_000n }),
      tokenAccount({ mint: mintA, owner: other, amount: 10_001_000n }),
      tokenAccount({ mint: mintB, owner: other, amount: 70_000_000n }),
    ]
    expect(solanaChangesFromStates(addresses, before, after, user, 5_000n).changes).toEqual([
      { kind: 'sol', amount: -2_039_280n },
      { kind: 'token', mint: mintA, amount: -10_000_000n },
      { kind: 'token', mint: mintB, amount: 20_000_000n },
    ])
  })

  it('a token account handed to someone else counts as sent in full', () => {
    const ata = key()
    const r = solanaChangesFromStates(
      [user, ata],
      [wallet(10n ** 9n), tokenAccount({ mint: mintA, owner: user, amount: 7n })],
      [wallet(10n ** 9n - 5_000n), tokenAccount({ mint: mintA, owner: other, amount: 7n })],
      user,
      5_000n,
    )
    expect(r.changes).toEqual([{ kind: 'token', mint: mintA, amount: -7n }])
  })

  it('a delegate set is an approval granted; a delegate removed is a revoke; the same delegate unchanged is nothing', () => {
    const ata = key()
    const ata2 = key()
    const ata3 = key()
    const spender = key()
    const r = solanaChangesFromStates(
      [user, ata, ata2, ata3],
      [
        wallet(10n ** 9n),
        tokenAccount({ mint: mintA, owner: user, amount: 100n }),
        tokenAccount({ mint: mintB, owner: user, amount: 5n, delegate: spender, delegatedAmount: 5n }),
        tokenAccount({ mint: mintB, owner: user, amount: 9n, delegate: spender, delegatedAmount: 9n }),
      ],
      [
        wallet(10n ** 9n - 5_000n),
        tokenAccount({ mint: mintA, owner: user, amount: 100n, delegate: spender, delegatedAmount: 60n }),
        tokenAccount({ mint: mintB, owner: user, amount: 5n }),
        tokenAccount({ mint: mintB, owner: user, amount: 9n, delegate: spender, delegatedAmount: 9n }),
      ],
      user,
      5_000n,
    )
    expect(r).toEqual({
      changes: [],
      approvals: [
        { mint: mintA, delegate: spender, amount: 60n, revoke: false },
        { mint: mintB, delegate: spender, amount: 0n, revoke: true },
      ],
    })
  })

  it('moves that cancel out, and accounts that are not token accounts, show nothing', () => {
    const program = key()
    const r = solanaChangesFromStates(
      [user, program],
      [wallet(10n ** 9n), { lamports: 1n, owner: key(), data: new Uint8Array(200) }],
      [wallet(10n ** 9n - 5_000n), { lamports: 1n, owner: key(), data: new Uint8Array(200).fill(1) }],
      user,
      5_000n,
    )
    expect(r).toEqual({ changes: [], approvals: [] })
  })
})
