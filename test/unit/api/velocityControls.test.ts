/**
 * Velocity control wire schemas (create_velocity_control, get/list/delete) and the enforcer's
 * arithmetic and transaction reading: thresholds in 10^-18 units, amounts scaled by the asset's
 * decimals (rounded up, never under), and what a transaction moves out of its signer.
 */
import { encodeFunctionData, erc20Abi } from 'viem'
import { describe, expect, it } from 'vitest'
import { createVelocityControl } from '../../../src/api/operations/create_velocity_control.js'
import { deleteVelocityControl } from '../../../src/api/operations/delete_velocity_control.js'
import { getVelocityControl } from '../../../src/api/operations/get_velocity_control.js'
import { parseOrThrow } from '../../../src/api/validation.js'
import {
  activityKind,
  evmMovements,
  formatScaled,
  parseScaled,
  scaleAmount,
  solanaMovements,
} from '../../../src/service/velocity/enforce.js'
import { failure } from './fixtures.js'

const ETH = 'eip155:1/slip44:60'
const valid = {
  name: 'daily ETH',
  identifier: 'daily_eth',
  dataSource: { chainAssetTransfer: { definition: [{ caip19: ETH, decimals: '18' }] } },
  aggregation: {
    method: 'VELOCITY_CONTROL_AGGREGATION_METHOD_SUM',
    operator: 'VELOCITY_CONTROL_AGGREGATION_OPERATOR_LESS_THAN_OR_EQUAL',
    threshold: '2.5',
    window: { rolling: { duration: '86400' } },
    groupBy: { wallet: {} },
  },
}

describe('create_velocity_control parameters', () => {
  it('accepts the hosted shape, Solana assets and SPL mints included', () => {
    expect(() => parseOrThrow(createVelocityControl.parameters, valid, 'parameters')).not.toThrow()
    const sol = {
      ...valid,
      dataSource: {
        chainAssetTransfer: {
          definition: [
            { caip19: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1/slip44:501', decimals: '9' },
            { caip19: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1/token:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', decimals: '6' },
          ],
          filter: { activity: [{ activityType: 'ACTIVITY_TYPE_SOL_SEND_TRANSACTION_V2' }] },
          phase: { signature: {} },
        },
      },
    }
    expect(() => parseOrThrow(createVelocityControl.parameters, sol, 'parameters')).not.toThrow()
  })

  it('names the field at fault', () => {
    const cases: Array<[unknown, string]> = [
      [{ ...valid, identifier: 'has space' }, 'parameters.identifier'],
      [{ ...valid, name: '' }, 'parameters.name'],
      [{ ...valid, aggregation: { ...valid.aggregation, threshold: '1e3' } }, 'parameters.aggregation.threshold'],
      [{ ...valid, aggregation: { ...valid.aggregation, threshold: '01' } }, 'parameters.aggregation.threshold'],
      [{ ...valid, aggregation: { ...valid.aggregation, method: 'AVG' } }, 'parameters.aggregation.method'],
      [{ ...valid, aggregation: { ...valid.aggregation, operator: 'LESS' } }, 'parameters.aggregation.operator'],
      [
        { ...valid, aggregation: { ...valid.aggregation, window: { rolling: { duration: '1.5' } } } },
        'parameters.aggregation.window.rolling.duration',
      ],
      [{ ...valid, dataSource: { chainAssetTransfer: { definition: [] } } }, 'parameters.dataSource.chainAssetTransfer.definition'],
      [
        { ...valid, dataSource: { chainAssetTransfer: { definition: [{ caip19: 'eip155:1/erc20:0x12', decimals: '6' }] } } },
        'parameters.dataSource.chainAssetTransfer.definition[0].caip19',
      ],
      [
        { ...valid, dataSource: { chainAssetTransfer: { definition: [{ caip19: ETH, decimals: '-1' }] } } },
        'parameters.dataSource.chainAssetTransfer.definition[0].decimals',
      ],
    ]
    for (const [value, field] of cases) {
      const err = failure(createVelocityControl.parameters, value)
      expect(err.code).toBe('INVALID_ARGUMENT')
      expect(
        err.fieldViolations.map((v) => v.field),
        JSON.stringify(value),
      ).toContain(field)
    }
    expect(failure(deleteVelocityControl.parameters, {}).fieldViolations.map((v) => v.field)).toEqual(['parameters.velocityControlId'])
    expect(failure(getVelocityControl.request, { organizationId: 'o' }, '').fieldViolations.map((v) => v.field)).toEqual([
      'velocityControlId',
    ])
  })
})

describe('velocity arithmetic', () => {
  it('reads thresholds as exact 18-decimal amounts and prints them back', () => {
    expect(parseScaled('1')).toBe(10n ** 18n)
    expect(parseScaled('0.000000000000000001')).toBe(1n)
    expect(formatScaled(parseScaled('2.50'))).toBe('2.5')
    expect(formatScaled(0n)).toBe('0')
    expect(formatScaled(parseScaled('12345678901234567890.123456789012345678'))).toBe('12345678901234567890.123456789012345678')
  })

  it("scales base units by the asset's decimals, rounding up past 18", () => {
    expect(scaleAmount(1_500_000n, 6)).toBe(parseScaled('1.5'))
    expect(scaleAmount(1n, 0)).toBe(parseScaled('1'))
    expect(scaleAmount(1n, 20)).toBe(1n) // 0.00000000000000000001 counts as 10^-18, never as 0
    expect(scaleAmount(100n, 20)).toBe(1n)
  })

  it('names activity kinds without prefix and version', () => {
    expect(activityKind('ACTIVITY_TYPE_SIGN_TRANSACTION_V2')).toBe('SIGN_TRANSACTION')
    expect(activityKind('ACTIVITY_TYPE_ETH_SEND_TRANSACTION')).toBe('ETH_SEND_TRANSACTION')
  })
})

describe('what a transaction moves', () => {
  const from = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
  const token = '0x5fbdb2315678afecb367f032d93f642f64180aa3'

  it('EVM: the native value and an ERC-20 transfer, by asset', () => {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [from, 7n] })
    expect(
      evmMovements('eip155:1', from, [
        { to: from, value: '5' },
        { to: token, value: 0n, data },
      ]),
    ).toEqual([
      { family: 'eip155', caip2: 'eip155:1', asset: 'slip44:60', amount: 5n },
      { family: 'eip155', caip2: 'eip155:1', asset: `erc20:${token}`, amount: 7n },
    ])
    expect(evmMovements('eip155:1', from, [{ value: '5' }])).toEqual([]) // a deployment pays no one
  })

  it('Solana: what leaves the signers; an SPL Transfer without its mint stands for any token', () => {
    const me = 'Me111111111111111111111111111111111111111'
    const tx = {
      transfers: [
        { from: me, to: 'B', amount: 10n },
        { from: 'C', to: me, amount: 99n },
      ],
      spl_transfers: [
        { from: 'src', to: 'dst', amount: 3n, owner: me, signers: [], token_mint: 'Mint1111111111111111111111111111111111111' },
        { from: 'src', to: 'dst', amount: 4n, owner: me, signers: [], token_mint: '' },
        { from: 'src', to: 'dst', amount: 5n, owner: 'someone else', signers: [], token_mint: '' },
      ],
    } as unknown as Parameters<typeof solanaMovements>[1]
    expect(solanaMovements(undefined, tx, [me])).toEqual([
      { family: 'solana', caip2: undefined, asset: 'slip44:501', amount: 10n },
      { family: 'solana', caip2: undefined, asset: 'token:Mint1111111111111111111111111111111111111', amount: 3n },
      { family: 'solana', caip2: undefined, asset: 'token:?', amount: 4n },
    ])
  })
})
