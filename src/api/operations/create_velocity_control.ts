/** create_velocity_control (hosted OpenAPI v1CreateVelocityControlIntent / v1CreateVelocityControlResult). */
import { z } from 'zod'
import { boundedArray } from '../fields.js'
import {
  MAX_VELOCITY_CONTROL_ACTIVITY_FILTERS,
  MAX_VELOCITY_CONTROL_ASSETS,
  MAX_VELOCITY_CONTROL_NAME,
  MAX_VELOCITY_CONTROL_WINDOW_SECONDS,
} from '../limits.js'
import { defineSubmit } from '../operation.js'

/** An empty object member (`{}`) that selects a variant, as the hosted oneofs have them. */
const Marker = z.object({}).loose()

/** A CAIP-19 asset of a network Sigil measures: an EVM chain's coin or ERC-20, a Solana cluster's SOL or SPL mint. */
export const VelocityAsset = z.object({
  caip19: z
    .string({ error: 'required' })
    .regex(
      /^(eip155:[0-9]{1,20}\/(slip44:60|erc20:0x[0-9a-fA-F]{40})|solana:[1-9A-HJ-NP-Za-km-z]{1,44}\/(slip44:501|token:[1-9A-HJ-NP-Za-km-z]{32,44}))$/,
      {
        error:
          'must be a CAIP-19 asset of an EVM or Solana network: eip155:<chainId>/slip44:60, eip155:<chainId>/erc20:<address>, solana:<ref>/slip44:501 or solana:<ref>/token:<mint>',
      },
    ),
  decimals: z
    .string({ error: 'required' })
    .regex(/^(0|[1-9][0-9]{0,2})$/, { error: 'must be a whole number from 0 through 255' })
    .refine((d) => Number(d) <= 255, { error: 'must be a whole number from 0 through 255' }),
})

/** An activity type a data source is filtered to. */
export const VelocityActivityFilter = z.object({
  activityType: z.string({ error: 'required' }).min(1, { error: 'required' }).max(128, { error: 'at most 128 characters' }),
})

const ActivityFilters = z.object({ activity: boundedArray(VelocityActivityFilter, MAX_VELOCITY_CONTROL_ACTIVITY_FILTERS).optional() })

/** What a control measures: transfers of assets, or executions of activities (exactly one member). */
export const VelocityControlDataSource = z.object({
  chainAssetTransfer: z
    .object({
      definition: boundedArray(VelocityAsset, MAX_VELOCITY_CONTROL_ASSETS).min(1, { error: 'at least one asset' }),
      filter: ActivityFilters.optional(),
      phase: z.object({ signature: Marker.optional(), submission: Marker.optional() }).optional(),
    })
    .optional(),
  activityExecution: z.object({ filter: ActivityFilters.optional() }).optional(),
})

/** How a control aggregates what it measures, and the limit it holds it to. */
export const VelocityControlAggregation = z.object({
  method: z.enum(['VELOCITY_CONTROL_AGGREGATION_METHOD_SUM', 'VELOCITY_CONTROL_AGGREGATION_METHOD_COUNT'], {
    error: 'must be VELOCITY_CONTROL_AGGREGATION_METHOD_SUM or VELOCITY_CONTROL_AGGREGATION_METHOD_COUNT',
  }),
  operator: z.enum(
    [
      'VELOCITY_CONTROL_AGGREGATION_OPERATOR_LESS_THAN',
      'VELOCITY_CONTROL_AGGREGATION_OPERATOR_LESS_THAN_OR_EQUAL',
      'VELOCITY_CONTROL_AGGREGATION_OPERATOR_EQUAL',
      'VELOCITY_CONTROL_AGGREGATION_OPERATOR_GREATER_THAN_OR_EQUAL',
      'VELOCITY_CONTROL_AGGREGATION_OPERATOR_GREATER_THAN',
    ],
    { error: 'must be a VELOCITY_CONTROL_AGGREGATION_OPERATOR_… value' },
  ),
  threshold: z.string({ error: 'required' }).regex(/^(0|[1-9][0-9]{0,19})(\.[0-9]{1,18})?$/, {
    error: 'must be a non-negative decimal number (at most 20 whole digits and 18 fractional digits), e.g. "1.5"',
  }),
  window: z.object({
    rolling: z
      .object({
        duration: z
          .string({ error: 'required' })
          .regex(/^[1-9][0-9]{0,9}$/, { error: 'must be a positive whole number of seconds' })
          .refine((d) => Number(d) <= MAX_VELOCITY_CONTROL_WINDOW_SECONDS, {
            error: `must be at most ${MAX_VELOCITY_CONTROL_WINDOW_SECONDS} seconds`,
          }),
      })
      .optional(),
    infinite: Marker.optional(),
  }),
  groupBy: z.object({ organization: Marker.optional(), user: Marker.optional(), wallet: Marker.optional() }),
})

/**
 * Creates a velocity control: ACTIVITY_TYPE_CREATE_VELOCITY_CONTROL. Sigil enforces it as a spend
 * limit on the signatures and sends it measures (src/service/velocity/enforce.ts).
 */
export const createVelocityControl = defineSubmit({
  name: 'create_velocity_control',
  path: '/public/v1/submit/create_velocity_control',
  type: 'ACTIVITY_TYPE_CREATE_VELOCITY_CONTROL',
  intentKey: 'createVelocityControlIntent',
  resultKey: 'createVelocityControlResult',
  parameters: z.object({
    name: z
      .string({ error: 'required' })
      .trim()
      .min(1, { error: 'required' })
      .max(MAX_VELOCITY_CONTROL_NAME, { error: `at most ${MAX_VELOCITY_CONTROL_NAME} characters` }),
    dataSource: VelocityControlDataSource,
    aggregation: VelocityControlAggregation,
    identifier: z.string({ error: 'required' }).regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, {
      error: 'must be 1 to 64 letters, digits or underscores, not starting with a digit (policies read it as controls.<identifier>)',
    }),
  }),
  result: z.object({ velocityControlId: z.string() }),
})
