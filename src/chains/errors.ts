/**
 * Error helpers for the chains layer: every failure is an INVALID_ARGUMENT SigilError
 * naming the request field at fault (wire-formats.md A3).
 */
import { SigilError, invalidField } from '../api/errors.js'

export { SigilError, invalidField }

/** Request fields the chains layer can blame. */
export type ChainField =
  | 'path'
  | 'curve'
  | 'addressFormat'
  | 'payload'
  | 'hashFunction'
  | 'encoding'
  | 'unsignedTransaction'
  | 'mnemonic'
  | 'publicKey'
  | 'mnemonicLength'
  | 'privateKey'

/** A 400 naming one field; the description must never contain key material. */
export function chainError(field: ChainField, description: string): SigilError {
  return invalidField(field, description)
}

/** A 400 naming two fields at once (e.g. a curve/addressFormat mismatch). */
export function chainError2(a: ChainField, b: ChainField, description: string): SigilError {
  return new SigilError('INVALID_ARGUMENT', `${a}, ${b}: ${description}`, {
    fieldViolations: [
      { field: a, description },
      { field: b, description },
    ],
  })
}
