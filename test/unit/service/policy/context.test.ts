/**
 * Building the resource namespaces costs only what the organization's policies read
 * (src/service/policy/context.ts): the keywords of the parsed policies decide
 * whether wallets, ABIs and the transaction are looked up at all.
 */
import { describe, expect, it } from 'vitest'
import { keywordsRead, resourceContexts } from '../../../../src/service/policy/context'
import { type ParsedPolicy, parsePolicy } from '../../../../src/service/policy/index'
import type { Sql } from '../../../../src/service/store/sql'

function parsed(condition: string, consensus = ''): ParsedPolicy {
  const r = parsePolicy({ condition, consensus })
  if (!r.ok) throw new Error(`does not parse: ${condition}`)
  return r.policy
}

/** A database that fails the test if anything queries it. */
const untouchable: Sql = {
  query: async () => {
    throw new Error('queried the database')
  },
} as unknown as Sql

describe('keywordsRead', () => {
  it('collects the keywords of conditions and consensus, bound variables included', () => {
    const read = keywordsRead([
      parsed("activity.type == 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2' && eth.tx.to in ['0x1']"),
      parsed('solana.tx.transfers.all(t, t.amount < 5)', "credentials.any(c, c.type == 'x')"),
    ])
    expect([...read].sort()).toEqual(['activity', 'c', 'credentials', 'eth', 'solana', 't'])
    expect([...keywordsRead([parsed("activity.action == 'SIGN'")])]).toEqual(['activity'])
    expect(keywordsRead([])).toEqual(new Set())
  })

  it('answers the same for the same parsed policy (cached by identity)', () => {
    const p = parsed("wallet.id == 'w' || !(wallet_account.address == 'a')")
    expect([...keywordsRead([p])].sort()).toEqual(['wallet', 'wallet_account'])
    expect([...keywordsRead([p, p])].sort()).toEqual(['wallet', 'wallet_account'])
  })
})

describe('resourceContexts', () => {
  it('queries nothing when no policy reads a resource namespace', async () => {
    const intent = {
      signWith: '0x1111111111111111111111111111111111111111',
      unsignedTransaction: '02c0',
      type: 'TRANSACTION_TYPE_ETHEREUM',
    }
    expect(
      await resourceContexts(untouchable, 'org', 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', intent, new Set(['activity', 'approvers'])),
    ).toEqual([{}])
    await expect(resourceContexts(untouchable, 'org', 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', intent, new Set(['eth']))).rejects.toThrow(
      'queried the database',
    )
  })
})
