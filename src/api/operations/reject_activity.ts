/** reject_activity (wire-formats A2, B4). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** Votes to reject the activity with this `fingerprint`; responds with that activity. */
export const rejectActivity = defineSubmit({
  name: 'reject_activity',
  path: '/public/v1/submit/reject_activity',
  type: 'ACTIVITY_TYPE_REJECT_ACTIVITY',
  intentKey: 'rejectActivityIntent',
  resultKey: 'rejectActivityResult',
  resultOf: 'target',
  parameters: z.object({ fingerprint: z.string().min(1, { error: 'required' }) }),
  result: z.object({}),
})
