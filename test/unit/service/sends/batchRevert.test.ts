import { encodeErrorResult } from 'viem'
import { describe, expect, it } from 'vitest'
import { BATCH_EXECUTOR_ABI } from '../../../../src/chains/gasStation/artifact.js'
import { batchFailure } from '../../../../src/service/sends/batchRevert.js'

const ACCOUNT = '0x1111111111111111111111111111111111111111'
const TOKEN = '0x2222222222222222222222222222222222222222'
const CALLS = [{ to: ACCOUNT }, { to: TOKEN }, { to: ACCOUNT }]
/** Error("nope") as a contract reverts with it. */
const NOPE = encodeErrorResult({
  abi: [{ type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] }],
  errorName: 'Error',
  args: ['nope'],
})

describe('batchFailure', () => {
  it('names the failing call by its position and decodes its own revert, addressed to its contract', async () => {
    const data = encodeErrorResult({ abi: BATCH_EXECUTOR_ABI, errorName: 'CallFailed', args: [1n, NOPE] })
    const e = (await batchFailure(ACCOUNT, CALLS, data, 'execution', undefined)) as any
    expect(e.message).toBe('call 2 of 3 reverted: execution reverted: nope')
    expect(e.eth.revertChain[0]).toMatchObject({ address: TOKEN, errorType: 'native', native: { message: 'nope' } })
    const simulated = await batchFailure(ACCOUNT, CALLS, data, 'simulation', undefined)
    expect(simulated.message).toMatch(/^call 2 of 3 would revert: /)
  })

  it('an empty inner revert, an expired deadline and a refused signature are said plainly', async () => {
    const empty = await batchFailure(
      ACCOUNT,
      CALLS,
      encodeErrorResult({ abi: BATCH_EXECUTOR_ABI, errorName: 'CallFailed', args: [2n, '0x'] }),
      'execution',
      undefined,
    )
    expect(empty.message).toMatch(/^call 3 of 3 reverted: /)
    const expired = await batchFailure(
      ACCOUNT,
      CALLS,
      encodeErrorResult({ abi: BATCH_EXECUTOR_ABI, errorName: 'Expired', args: [1700000000n] }),
      'execution',
      undefined,
    )
    expect(expired.message).toContain('deadline (1700000000, unix seconds) passed')
    const bad = await batchFailure(
      ACCOUNT,
      CALLS,
      encodeErrorResult({ abi: BATCH_EXECUTOR_ABI, errorName: 'BadSignature' }),
      'simulation',
      undefined,
    )
    expect(bad.message).toContain('gasStationNonce')
  })

  it("anything else is decoded as the account's own revert", async () => {
    const e = (await batchFailure(ACCOUNT, CALLS, NOPE, 'execution', undefined)) as any
    expect(e.message).toBe('transaction reverted: execution reverted: nope')
    expect(e.eth.revertChain[0].address).toBe(ACCOUNT)
  })
})
