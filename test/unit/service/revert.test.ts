/**
 * Revert decoding (src/service/sends/revert.ts): custom errors with the organization's ABIs, in
 * the order given; native reverts and unknown selectors as before. Revert data is encoded by viem,
 * independently of the decoder.
 */
import { readFileSync } from 'node:fs'
import { type Abi, encodeErrorResult } from 'viem'
import { describe, expect, it } from 'vitest'
import type { AbiItem } from '../../../src/chains/contractInterfaces.js'
import { customSelectorOf, describeRevert, revertEntry } from '../../../src/service/sends/revert.js'

const DENIER = JSON.parse(readFileSync(new URL('../../fixtures/contracts/Denier.json', import.meta.url), 'utf8')) as { abi: Abi }
const WHO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const AT = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const denied = encodeErrorResult({ abi: DENIER.abi, errorName: 'Denied', args: [WHO, 42n] })

describe('revertEntry with ABIs', () => {
  it('decodes a custom error: name, params as a JSON object (integers as decimal strings), display message', () => {
    const entry = revertEntry(AT, denied, [DENIER.abi as readonly AbiItem[]])
    expect(entry).toEqual({
      address: AT,
      errorType: 'custom',
      displayMessage: `Denied(${WHO}, 42)`,
      custom: { errorName: 'Denied', paramsJson: JSON.stringify({ who: WHO, amount: '42' }) },
    })
    const unused = encodeErrorResult({ abi: DENIER.abi, errorName: 'Unused', args: ['no "way"'] })
    expect(revertEntry(AT, unused, [DENIER.abi as readonly AbiItem[]])).toMatchObject({
      displayMessage: 'Unused("no \\"way\\"")',
      custom: { errorName: 'Unused', paramsJson: '{"reason":"no \\"way\\""}' },
    })
  })

  it('is unknown with its selector when no ABI declares it; native reverts never consult the ABIs', () => {
    expect(revertEntry(AT, denied)).toEqual({
      address: AT,
      errorType: 'unknown',
      displayMessage: `execution reverted with unknown error ${denied.slice(0, 10)}`,
      unknown: { selector: denied.slice(0, 10), data: denied },
    })
    const other: AbiItem[] = [{ type: 'error', name: 'Other', inputs: [] }]
    expect(revertEntry(AT, denied, [other]).errorType).toBe('unknown')
    const nope = encodeErrorResult({
      abi: [{ type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] }],
      errorName: 'Error',
      args: ['nope'],
    })
    expect(customSelectorOf(nope)).toBeUndefined()
    expect(revertEntry(AT, nope, [DENIER.abi as readonly AbiItem[]]).native).toEqual({ nativeType: 'error_string', message: 'nope' })
    expect(revertEntry(AT, '0x', [DENIER.abi as readonly AbiItem[]]).native?.nativeType).toBe('execution_reverted')
  })

  it('takes the first ABI that decodes: one whose error shares the selector but not the arguments is passed over', () => {
    // Same name and types, other parameter names: the first ABI given wins.
    const renamed: AbiItem[] = [
      {
        type: 'error',
        name: 'Denied',
        inputs: [
          { name: 'account', type: 'address' },
          { name: 'value', type: 'uint256' },
        ],
      },
    ]
    expect(JSON.parse(revertEntry(AT, denied, [renamed, DENIER.abi as readonly AbiItem[]]).custom?.paramsJson ?? '')).toEqual({
      account: WHO,
      value: '42',
    })
    // Its selector, but arguments that do not decode (too short for the declared ones): the next ABI is tried.
    const short = `${denied.slice(0, 10)}${'00'.repeat(32)}`
    expect(revertEntry(AT, short, [DENIER.abi as readonly AbiItem[]]).errorType).toBe('unknown')
  })

  it('names unnamed parameters by index and writes bytes, tuples and arrays as JSON', () => {
    const abi = [
      {
        type: 'error',
        name: 'Odd',
        inputs: [
          { name: '', type: 'bytes4' },
          { name: 'flags', type: 'bool[]' },
          {
            name: 'pos',
            type: 'tuple',
            components: [
              { name: 'x', type: 'int256' },
              { name: 'y', type: 'int256' },
            ],
          },
        ],
      },
    ] as const
    const data = encodeErrorResult({ abi, errorName: 'Odd', args: ['0xdeadbeef', [true, false], { x: -1n, y: 2n }] })
    const entry = revertEntry(undefined, data, [abi as unknown as AbiItem[]])
    expect(entry.address).toBeUndefined()
    expect(JSON.parse(entry.custom?.paramsJson ?? '')).toEqual({ 0: '0xdeadbeef', flags: [true, false], pos: { x: '-1', y: '2' } })
    expect(entry.displayMessage).toBe('Odd(0xdeadbeef, [true,false], {"x":"-1","y":"2"})')
  })
})

describe('describeRevert', () => {
  it('asks for ABIs only for a custom selector, with the address, and skips texts that do not parse', async () => {
    const asked: Array<[string, string | undefined]> = []
    const lookup = async (selector: string, address: string | undefined) => {
      asked.push([selector, address])
      return ['not json', '{"not":"an array"}', JSON.stringify(DENIER.abi)]
    }
    const error = await describeRevert(AT, denied, 'execution', lookup)
    expect(asked).toEqual([[denied.slice(2, 10), AT]])
    expect(error.message).toBe(`transaction reverted: Denied(${WHO}, 42)`)
    expect(error.eth.revertChain).toBe(error.revertChain)
    await describeRevert(AT, '0x', 'simulation', lookup)
    await describeRevert(AT, undefined, 'simulation', lookup)
    expect(asked).toHaveLength(1)
    expect((await describeRevert(AT, denied, 'simulation', undefined)).revertChain[0]?.errorType).toBe('unknown')
  })
})
