import type { HashFunction, PayloadEncoding } from '../../api/enums.js'
import { type RawSignature, signRawPayload } from '../../chains/sign/raw.js'
import type { ActivityContext } from '../activityContext.js'
import { namingFields } from '../fieldNames.js'
import { openSignerKey, requireSigner } from './signer.js'

/**
 * Signs each payload with the organization's account or private key `signWith` (wire-formats B4
 * sign_raw_payload; signer.ts): the key is opened for this request and wiped afterwards. Errors name
 * `parameters.signWith`, the payload's own field, `parameters.encoding` or `parameters.hashFunction`.
 */
export async function signPayloadsWith(
  ctx: ActivityContext,
  p: { signWith: string; encoding: PayloadEncoding; hashFunction: HashFunction },
  payloads: ReadonlyArray<{ payload: string; field: string }>,
): Promise<RawSignature[]> {
  const signer = await requireSigner(ctx.tx, ctx.organizationId, p.signWith, 'parameters.signWith')
  const curve = signer.curve
  const privateKey = openSignerKey(ctx.rt, signer)
  try {
    return payloads.map(({ payload, field }) =>
      namingFields(
        (f) => (f === 'payload' ? field : f === 'curve' ? 'parameters.signWith' : `parameters.${f}`),
        () => signRawPayload({ privateKey, curve, payload, encoding: p.encoding, hashFunction: p.hashFunction }),
      ),
    )
  } finally {
    privateKey.fill(0)
  }
}
