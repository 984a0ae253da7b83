/**
 * A send activity's status is its send's: a completed activity whose send failed reads "Failed"
 * with the reason, never "Done"; one still on its way "Pending"; one sped up or cancelled "Replaced".
 */
import { describe, expect, it } from 'vitest'
import type { SigilClient } from '@/src/api/client'
import { listActivities } from '@/src/extension/background/activity/activities'
import { sendOf } from '@/src/extension/background/activity/sendState'
import type { ActiveSession } from '@/src/extension/background/core'

const FROM = '0x1111111111111111111111111111111111111111'
const SOL = 'So1ana1111111111111111111111111111111111111'
const session = { record: { organizationId: 'o', userId: 'u' } } as unknown as ActiveSession

function activity(id: string, type: string, intent: Record<string, unknown>, sendId?: string, status = 'ACTIVITY_STATUS_COMPLETED') {
  return {
    id,
    organizationId: 'o',
    status,
    type,
    intent: { x: intent },
    result: sendId ? { r: { sendTransactionStatusId: sendId } } : {},
    votes: [],
    fingerprint: `f-${id}`,
    canApprove: false,
    canReject: false,
    createdAt: String(1_700_000_000_000 + Number(id.slice(1))),
    updatedAt: '0',
  }
}

const statuses: Record<string, object> = {
  s1: { txStatus: 'FAILED', solana: { signature: 'sig' }, txError: 'insufficient lamports', error: { message: 'insufficient lamports' } },
  s2: { txStatus: 'BROADCASTING', eth: { txHash: '0xaa' } },
  s3: { txStatus: 'INCLUDED', eth: { txHash: '0xbb' } },
  s4: { txStatus: 'FAILED', eth: { txHash: '0xcc' }, txError: 'replaced: a newer transaction with the same nonce (0xdd) took its place' },
}

const client = {
  listActivities: async () => ({
    activities: [
      activity('a1', 'ACTIVITY_TYPE_SOL_SEND_TRANSACTION', { caip2: 'solana:dev', signWiths: [SOL] }, 's1'),
      activity('a2', 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2', { caip2: 'eip155:31337', from: FROM, calls: [{ to: FROM }] }, 's2'),
      activity('a3', 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2', { caip2: 'eip155:31337', from: FROM, calls: [{ to: FROM }] }, 's3'),
      activity('a4', 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2', { caip2: 'eip155:31337', from: FROM, calls: [{ to: FROM }] }, 's4'),
      activity('a5', 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', { accounts: [{}] }),
    ],
  }),
  getSendTransactionStatus: async (p: { sendTransactionStatusId: string }) => {
    const s = statuses[p.sendTransactionStatusId]
    if (!s) throw new Error('not found')
    return s
  },
} as unknown as SigilClient

describe('send activities take their send’s status', () => {
  it('Failed with the reason, Pending, Confirmed, Replaced; other activities keep their status in words', async () => {
    const { activities } = await listActivities(client, session)
    const by = new Map(activities.map((a) => [a.id, a]))
    expect(by.get('a1')).toMatchObject({
      statusText: 'Failed',
      failure: 'insufficient lamports',
      send: { state: 'failed', family: 'solana', from: SOL },
    })
    expect(by.get('a2')).toMatchObject({
      statusText: 'Pending',
      send: { state: 'pending', txHash: '0xaa', from: FROM, caip2: 'eip155:31337' },
    })
    expect(by.get('a3')).toMatchObject({ statusText: 'Confirmed', send: { state: 'confirmed', onChain: true } })
    expect(by.get('a4')).toMatchObject({ statusText: 'Replaced', send: { state: 'replaced' } })
    expect(by.get('a4')?.failure).toMatch(/Replaced by a newer transaction/)
    expect(by.get('a5')).toMatchObject({ statusText: 'Done' })
    expect(by.get('a5')?.send).toBeUndefined()
    for (const a of activities) expect(a.statusText).not.toMatch(/[A-Z]{2,}_|initialized/i)
  })

  it('a send activity that did not complete has no send to read', () => {
    expect(sendOf(activity('a9', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { signWith: FROM }, 'x'))).toBeUndefined()
    expect(sendOf(activity('a9', 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION', { caip2: 'eip155:1', from: FROM }))).toBeUndefined()
  })
})
