/**
 * The relay's `/v1/recovery_init` (wire-formats B6 "Auth proxy"): email recovery, with the
 * credential bundle encrypted to `targetPublicKey`. An unknown email gets the same answer as a
 * known one.
 */
import { z } from 'zod'

/** `/v1/recovery_init` request. */
export const RecoveryInitRequest = z.object({ email: z.string().min(1, { error: 'required' }), targetPublicKey: z.string() })

/** `/v1/recovery_init` response. */
export const RecoveryInitResponse = z.object({ organizationId: z.string().min(1), userId: z.string().min(1) }).loose()
