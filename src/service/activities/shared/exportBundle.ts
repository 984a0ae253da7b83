import { bytesToHex, hexToBytes } from '../../../crypto/encoding.js'
import { uncompressP256PublicKey } from '../../../crypto/p256.js'
import { createExportBundle } from '../../../crypto/signedBundle.js'
import type { ActivityContext } from '../../activityContext.js'

/**
 * A v1.0.0 export bundle of `plaintext` for the caller's `targetPublicKey` (compressed or
 * uncompressed hex, normalised to 65 bytes), signed by the service signer (wire-formats B2);
 * `field` names the target key in the error when it is not one.
 */
export async function exportTo(
  ctx: ActivityContext,
  targetPublicKey: string,
  plaintext: Uint8Array,
  field = 'parameters.targetPublicKey',
): Promise<string> {
  const target = uncompressP256PublicKey(hexToBytes(targetPublicKey, field), field)
  return createExportBundle({
    plaintext,
    targetPublicKeyHex: bytesToHex(target),
    organizationId: ctx.organizationId,
    signerPrivateKey: ctx.rt.keys.signer.privateKey,
  })
}
