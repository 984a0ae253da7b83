import type { z } from 'zod'
import { fieldError, invalidField } from '../../api/errors.js'
import type { createVelocityControl } from '../../api/operations/create_velocity_control.js'
import { insertVelocityControl, velocityIdentifierTaken } from '../store/velocityControls.js'
import { activityKind, MEASURED_ACTIVITY_KINDS } from '../velocity/enforce.js'
import type { ActivityHandler } from './types.js'

type Params = z.infer<typeof createVelocityControl.parameters>

/** The one member of a oneof object that is set; a 400 naming `field` when none or several are. */
function oneOf<K extends string>(value: Partial<Record<K, unknown>>, keys: readonly K[], field: string): K {
  const set = keys.filter((k) => value[k] !== undefined)
  if (set.length !== 1) throw invalidField(field, `must set exactly one of ${keys.join(', ')}`)
  return set[0] as K
}

/** A filter may name only activity types Sigil measures (signatures and sends). */
function checkFilter(filter: { activity?: { activityType: string }[] | undefined } | undefined, field: string): void {
  filter?.activity?.forEach((f, i) => {
    const kind = activityKind(f.activityType)
    if (!f.activityType.startsWith('ACTIVITY_TYPE_') || !(MEASURED_ACTIVITY_KINDS as readonly string[]).includes(kind)) {
      throw invalidField(
        `${field}.activity[${i}].activityType`,
        `${f.activityType} is not measured by velocity controls here; name ${MEASURED_ACTIVITY_KINDS.map((k) => `ACTIVITY_TYPE_${k}`).join(', ')} (any version)`,
      )
    }
  })
}

/**
 * create_velocity_control: stores a control that Sigil enforces as a limit on the signatures and
 * sends it measures (src/service/velocity/enforce.ts): `aggregation` sums the assets moved (or
 * counts the activities) per organization, user or wallet over a rolling window (or forever), and an
 * activity that would take the total past `threshold` is refused. Only the limit operators
 * (LESS_THAN, LESS_THAN_OR_EQUAL) are enforced, so the others are refused rather than stored unenforced.
 *
 * @throws INVALID_ARGUMENT when parameters.dataSource, parameters.aggregation.window or parameters.aggregation.groupBy sets not exactly one member, parameters.aggregation.operator is not a limit operator, parameters.aggregation.method is SUM over activity executions, parameters.dataSource.chainAssetTransfer.phase asks for submission, or a filter names an activity type that is not measured
 * @throws ALREADY_EXISTS when the organization has a control with parameters.identifier
 */
export const handler: ActivityHandler<Params> = async (ctx, p) => {
  const source = oneOf(p.dataSource, ['chainAssetTransfer', 'activityExecution'] as const, 'parameters.dataSource')
  oneOf(p.aggregation.window, ['rolling', 'infinite'] as const, 'parameters.aggregation.window')
  oneOf(p.aggregation.groupBy, ['organization', 'user', 'wallet'] as const, 'parameters.aggregation.groupBy')
  const op = p.aggregation.operator
  if (op !== 'VELOCITY_CONTROL_AGGREGATION_OPERATOR_LESS_THAN' && op !== 'VELOCITY_CONTROL_AGGREGATION_OPERATOR_LESS_THAN_OR_EQUAL') {
    throw invalidField(
      'parameters.aggregation.operator',
      'a velocity control here is a limit: use VELOCITY_CONTROL_AGGREGATION_OPERATOR_LESS_THAN or VELOCITY_CONTROL_AGGREGATION_OPERATOR_LESS_THAN_OR_EQUAL',
    )
  }
  if (source === 'activityExecution') {
    if (p.aggregation.method === 'VELOCITY_CONTROL_AGGREGATION_METHOD_SUM') {
      throw invalidField('parameters.aggregation.method', 'activity executions are counted: use VELOCITY_CONTROL_AGGREGATION_METHOD_COUNT')
    }
    checkFilter(p.dataSource.activityExecution?.filter, 'parameters.dataSource.activityExecution.filter')
  } else {
    const transfer = p.dataSource.chainAssetTransfer
    if (transfer?.phase?.submission !== undefined) {
      throw invalidField('parameters.dataSource.chainAssetTransfer.phase', 'only signature is measured (submission is reserved)')
    }
    checkFilter(transfer?.filter, 'parameters.dataSource.chainAssetTransfer.filter')
  }
  if (await velocityIdentifierTaken(ctx.tx, ctx.organizationId, p.identifier)) {
    throw fieldError('ALREADY_EXISTS', 'parameters.identifier', 'the organization already has a velocity control with this identifier')
  }
  const velocityControlId = crypto.randomUUID()
  await insertVelocityControl(ctx.tx, {
    id: velocityControlId,
    organizationId: ctx.organizationId,
    identifier: p.identifier,
    name: p.name,
    dataSource: p.dataSource,
    aggregation: p.aggregation,
    now: ctx.now,
  })
  return { velocityControlId }
}
