/**
 * Minimal Solana wire parsing for signing: compact-u16, message header and static account keys
 * (legacy and v0 messages), transaction = [compact-u16 n][n × 64-byte signatures][message].
 * Parses the whole message (instructions and v0 address-table lookups) so a transaction and a bare
 * message cannot be confused: a parse must consume every byte.
 */

/** One compiled instruction: indices into the message's account keys, and its data. */
export type SolanaInstruction = { programIdIndex: number; accountIndices: number[]; data: Uint8Array }

/** A parsed message: the fields signing needs, and its instructions (for reading what it moves). */
export type SolanaMessage = {
  version: 'legacy' | 0
  numRequiredSignatures: number
  /** Of the signers, how many (the last ones) are read-only. */
  numReadonlySigned: number
  /** Of the other static keys, how many (the last ones) are read-only. */
  numReadonlyUnsigned: number
  /** Static account keys; the first `numRequiredSignatures` are the signers. */
  accountKeys: Uint8Array[]
  /** Indices at or beyond `accountKeys.length` name addresses of v0 lookup tables. */
  instructions: SolanaInstruction[]
  /** The 32-byte recent blockhash (or durable nonce). */
  recentBlockhash: Uint8Array
  /** v0 address-table lookups (none in a legacy message), in message order. */
  addressTableLookups: SolanaAddressTableLookup[]
}

/** One v0 address-table lookup: the table's address and the indexes loaded from it. */
export type SolanaAddressTableLookup = { accountKey: Uint8Array; writableIndexes: number[]; readonlyIndexes: number[] }

class Reader {
  pos = 0
  constructor(readonly bytes: Uint8Array) {}
  u8(): number {
    const b = this.bytes[this.pos]
    if (b === undefined) throw new RangeError('unexpected end of data')
    this.pos++
    return b
  }
  take(n: number): Uint8Array {
    if (this.pos + n > this.bytes.length) throw new RangeError('unexpected end of data')
    const out = this.bytes.subarray(this.pos, this.pos + n)
    this.pos += n
    return out
  }
  /** Solana compact-u16 ("shortvec"): 1–3 bytes, 7 bits each, little-endian, canonical. */
  compactU16(): number {
    let value = 0
    for (let i = 0; i < 3; i++) {
      const b = this.u8()
      value |= (b & 0x7f) << (7 * i)
      if ((b & 0x80) === 0) {
        if (i > 0 && b === 0) throw new RangeError('non-canonical compact-u16')
        if (value > 0xffff) throw new RangeError('compact-u16 overflow')
        return value
      }
      if (i === 2) throw new RangeError('compact-u16 too long')
    }
    throw new RangeError('compact-u16 too long')
  }
}

/** Encodes a compact-u16. */
export function encodeCompactU16(n: number): Uint8Array {
  if (!Number.isInteger(n) || n < 0 || n > 0xffff) throw new RangeError('compact-u16 out of range')
  const out: number[] = []
  let v = n
  for (;;) {
    const low = v & 0x7f
    v >>= 7
    if (v === 0) {
      out.push(low)
      return Uint8Array.from(out)
    }
    out.push(low | 0x80)
  }
}

function parseMessageFrom(r: Reader): SolanaMessage {
  let version: 'legacy' | 0 = 'legacy'
  let first = r.u8()
  if (first & 0x80) {
    if ((first & 0x7f) !== 0) throw new RangeError('unsupported message version')
    version = 0
    first = r.u8()
  }
  const numRequiredSignatures = first
  const numReadonlySigned = r.u8()
  const numReadonlyUnsigned = r.u8()
  const nKeys = r.compactU16()
  const accountKeys: Uint8Array[] = []
  for (let i = 0; i < nKeys; i++) accountKeys.push(r.take(32))
  if (numRequiredSignatures === 0 || numRequiredSignatures > nKeys) throw new RangeError('bad signer count')
  if (numReadonlySigned >= numRequiredSignatures && numReadonlySigned > 0) throw new RangeError('bad header')
  if (numReadonlyUnsigned > nKeys - numRequiredSignatures) throw new RangeError('bad header')
  const recentBlockhash = r.take(32)
  const nIx = r.compactU16()
  const instructions: SolanaInstruction[] = []
  for (let i = 0; i < nIx; i++) {
    const programIdIndex = r.u8()
    const accountIndices = [...r.take(r.compactU16())]
    instructions.push({ programIdIndex, accountIndices, data: r.take(r.compactU16()) })
  }
  const addressTableLookups: SolanaAddressTableLookup[] = []
  if (version === 0) {
    const nLookups = r.compactU16()
    for (let i = 0; i < nLookups; i++) {
      const accountKey = r.take(32)
      const writableIndexes = [...r.take(r.compactU16())]
      addressTableLookups.push({ accountKey, writableIndexes, readonlyIndexes: [...r.take(r.compactU16())] })
    }
  }
  return {
    version,
    numRequiredSignatures,
    numReadonlySigned,
    numReadonlyUnsigned,
    accountKeys,
    instructions,
    recentBlockhash,
    addressTableLookups,
  }
}

/** Parses a bare message; throws RangeError unless the bytes are exactly one message. */
export function parseSolanaMessage(bytes: Uint8Array): SolanaMessage {
  const r = new Reader(bytes)
  const msg = parseMessageFrom(r)
  if (r.pos !== bytes.length) throw new RangeError('trailing bytes after message')
  return msg
}

/** A parsed transaction: signatures and the message bytes they sign. */
export type SolanaTransaction = { signatures: Uint8Array[]; messageBytes: Uint8Array; message: SolanaMessage }

/** Parses a full transaction; throws RangeError unless it is exactly one, with one slot per signer. */
export function parseSolanaTransaction(bytes: Uint8Array): SolanaTransaction {
  const r = new Reader(bytes)
  const n = r.compactU16()
  const signatures: Uint8Array[] = []
  for (let i = 0; i < n; i++) signatures.push(r.take(64))
  const messageBytes = bytes.subarray(r.pos)
  const message = parseSolanaMessage(messageBytes)
  if (message.numRequiredSignatures !== n) throw new RangeError('signature count does not match the message header')
  return { signatures, messageBytes, message }
}

/**
 * A full transaction, or a bare message (legacy or v0) with zeroed signature slots, as
 * sign_transaction accepts either; throws RangeError when the bytes are neither.
 */
export function parseSolanaTransactionOrMessage(bytes: Uint8Array): SolanaTransaction {
  try {
    return parseSolanaTransaction(bytes)
  } catch {
    // not a full transaction: try a bare message
  }
  const message = parseSolanaMessage(bytes)
  const signatures = Array.from({ length: message.numRequiredSignatures }, () => new Uint8Array(64))
  return { signatures, messageBytes: bytes, message }
}
