/** approve_activity (wire-formats A2, B4). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** Votes to approve the activity with this `fingerprint`; responds with that activity. */
export const approveActivity = defineSubmit({
  name: 'approve_activity',
  path: '/public/v1/submit/approve_activity',
  type: 'ACTIVITY_TYPE_APPROVE_ACTIVITY',
  intentKey: 'approveActivityIntent',
  resultKey: 'approveActivityResult',
  resultOf: 'target',
  parameters: z.object({ fingerprint: z.string().min(1, { error: 'required' }) }),
  result: z.object({}),
})
