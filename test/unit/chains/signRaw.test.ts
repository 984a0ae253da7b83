/**
 * sign_raw_payload (wire-formats.md B4): signatures checked with independent code — viem
 * (recoverAddress, recoverMessageAddress, recoverTypedDataAddress) for secp256k1, @noble/curves
 * verify for P-256 and ed25519.
 */
import { MAIL_TYPED_DATA } from '../../helpers/typedData.js'
import { ed25519 } from '@noble/curves/ed25519.js'
import { p256 } from '@noble/curves/nist.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { sha256 } from '@noble/hashes/sha2.js'
import {
  type Hex,
  type TypedDataDefinition,
  hashMessage,
  recoverAddress,
  recoverMessageAddress,
  recoverTypedDataAddress,
  serializeTypedData,
  stringToHex,
  toPrefixedMessage,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { SigilError } from '../../../src/api/errors.js'
import { bytesToHex, hexToBytes, utf8Encode } from '../../../src/crypto/encoding.js'
import { deriveAccount, deriveKey } from '../../../src/chains/derive.js'
import { mnemonicToSeed } from '../../../src/chains/mnemonic.js'
import { type RawSignature, signRawPayload } from '../../../src/chains/sign/raw.js'

const seed = mnemonicToSeed('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about')
const eth = deriveAccount({ seed, curve: 'CURVE_SECP256K1', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' })
const ed = deriveKey({ seed, curve: 'CURVE_ED25519', path: "m/44'/501'/0'/0'" })
const p = deriveKey({ seed, curve: 'CURVE_P256', path: "m/44'/0'/0'/0/0" })
const SECP_N_HALF = secp256k1.Point.CURVE().n / 2n

function toEthSig(sig: RawSignature): Hex {
  return `0x${sig.r}${sig.s}${(27 + Number.parseInt(sig.v, 16)).toString(16)}`
}

function expectShape(sig: RawSignature) {
  expect(sig.r).toMatch(/^[0-9a-f]{64}$/)
  expect(sig.s).toMatch(/^[0-9a-f]{64}$/)
  expect(sig.v).toMatch(/^0[01]$/)
}

function expectFieldError(fn: () => unknown, field: string) {
  let err: unknown
  try {
    fn()
  } catch (e) {
    err = e
  }
  expect(err).toBeInstanceOf(SigilError)
  expect((err as SigilError).httpStatus).toBe(400)
  expect((err as SigilError).fieldViolations.map((v) => v.field)).toContain(field)
}

describe('secp256k1', () => {
  it('HEXADECIMAL + NO_OP over an EIP-191 hash recovers with viem recoverMessageAddress', async () => {
    const message = 'hello sigil'
    const sig = signRawPayload({
      privateKey: eth.privateKey,
      curve: 'CURVE_SECP256K1',
      payload: hashMessage(message),
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    })
    expectShape(sig)
    expect(await recoverMessageAddress({ message, signature: toEthSig(sig) })).toBe(eth.address)
  })

  it('HEXADECIMAL + KECCAK256 over the EIP-191 prefixed message (no 0x) recovers with viem', async () => {
    const message = 'Sigil raw payload ✓'
    const payload = toPrefixedMessage(message).slice(2)
    const sig = signRawPayload({
      privateKey: eth.privateKey,
      curve: 'CURVE_SECP256K1',
      payload,
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_KECCAK256',
    })
    expect(await recoverMessageAddress({ message, signature: toEthSig(sig) })).toBe(eth.address)
  })

  it('TEXT_UTF8 + SHA256 (Cosmos default) verifies with noble and is low-S', async () => {
    const text = '{"chain_id":"cosmoshub-4"}'
    const sig = signRawPayload({
      privateKey: eth.privateKey,
      curve: 'CURVE_SECP256K1',
      payload: text,
      encoding: 'PAYLOAD_ENCODING_TEXT_UTF8',
      hashFunction: 'HASH_FUNCTION_SHA256',
    })
    const digest = sha256(utf8Encode(text))
    const compact = hexToBytes(sig.r + sig.s)
    expect(secp256k1.verify(compact, digest, hexToBytes(eth.publicKey), { prehash: false })).toBe(true)
    expect(BigInt(`0x${sig.s}`) <= SECP_N_HALF).toBe(true)
    expect(await recoverAddress({ hash: `0x${bytesToHex(digest)}`, signature: toEthSig(sig) })).toBe(eth.address)
  })

  it('low-S and correct v over many digests (viem recoverAddress)', async () => {
    for (let i = 0; i < 16; i++) {
      const digest = sha256(new Uint8Array([i]))
      const sig = signRawPayload({
        privateKey: eth.privateKey,
        curve: 'CURVE_SECP256K1',
        payload: `0x${bytesToHex(digest)}`,
        encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
        hashFunction: 'HASH_FUNCTION_NO_OP',
      })
      expect(BigInt(`0x${sig.s}`) <= SECP_N_HALF).toBe(true)
      expect(await recoverAddress({ hash: `0x${bytesToHex(digest)}`, signature: toEthSig(sig) })).toBe(eth.address)
    }
  })

  it('EIP712 typed-data JSON recovers with viem recoverTypedDataAddress (NO_OP, KECCAK256, NOT_APPLICABLE)', async () => {
    // viem's signTypedData adds EIP712Domain before handing typed data to a custom account
    // (as @turnkey/viem receives it), and serializeTypedData keeps the domain only then.
    // The Ether Mail example with one more field, a uint256 amount.
    const typedData: TypedDataDefinition = {
      ...MAIL_TYPED_DATA,
      types: { ...MAIL_TYPED_DATA.types, Mail: [...MAIL_TYPED_DATA.types.Mail, { name: 'amount', type: 'uint256' }] },
      message: { ...MAIL_TYPED_DATA.message, amount: 10n ** 18n },
    }
    const payload = serializeTypedData(typedData)
    for (const hashFunction of ['HASH_FUNCTION_NO_OP', 'HASH_FUNCTION_KECCAK256', 'HASH_FUNCTION_NOT_APPLICABLE'] as const) {
      const sig = signRawPayload({
        privateKey: eth.privateKey,
        curve: 'CURVE_SECP256K1',
        payload,
        encoding: 'PAYLOAD_ENCODING_EIP712',
        hashFunction,
      })
      expectShape(sig)
      expect(await recoverTypedDataAddress({ ...typedData, signature: toEthSig(sig) })).toBe(eth.address)
    }
    // Hand-written JSON without types.EIP712Domain: the domain type is derived from the domain's fields.
    const { EIP712Domain: _omit, ...typesNoDomain } = typedData.types as Record<string, unknown>
    const handJson = JSON.stringify({
      ...typedData,
      types: typesNoDomain,
      message: { ...(typedData.message as Record<string, unknown>), amount: '1000000000000000000' },
    })
    const sig2 = signRawPayload({
      privateKey: eth.privateKey,
      curve: 'CURVE_SECP256K1',
      payload: handJson,
      encoding: 'PAYLOAD_ENCODING_EIP712',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    })
    expect(await recoverTypedDataAddress({ ...typedData, signature: toEthSig(sig2) })).toBe(eth.address)
    expectFieldError(
      () =>
        signRawPayload({
          privateKey: eth.privateKey,
          curve: 'CURVE_SECP256K1',
          payload,
          encoding: 'PAYLOAD_ENCODING_EIP712',
          hashFunction: 'HASH_FUNCTION_SHA256',
        }),
      'hashFunction',
    )
    expectFieldError(
      () =>
        signRawPayload({
          privateKey: eth.privateKey,
          curve: 'CURVE_SECP256K1',
          payload: '{not json',
          encoding: 'PAYLOAD_ENCODING_EIP712',
          hashFunction: 'HASH_FUNCTION_NO_OP',
        }),
      'payload',
    )
    expectFieldError(
      () =>
        signRawPayload({
          privateKey: eth.privateKey,
          curve: 'CURVE_SECP256K1',
          payload: '{"types":{}}',
          encoding: 'PAYLOAD_ENCODING_EIP712',
          hashFunction: 'HASH_FUNCTION_NO_OP',
        }),
      'payload',
    )
    expectFieldError(
      () =>
        signRawPayload({
          privateKey: ed.privateKey,
          curve: 'CURVE_ED25519',
          payload,
          encoding: 'PAYLOAD_ENCODING_EIP712',
          hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE',
        }),
      'encoding',
    )
  })
})

describe('P-256', () => {
  it('SHA256 signature verifies with noble p256 and v is the recovery bit', () => {
    const payload = stringToHex('p256 payload')
    const sig = signRawPayload({
      privateKey: p.privateKey,
      curve: 'CURVE_P256',
      payload,
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_SHA256',
    })
    expectShape(sig)
    const digest = sha256(hexToBytes(payload))
    expect(p256.verify(hexToBytes(sig.r + sig.s), digest, p.publicKey, { prehash: false })).toBe(true)
    const recovered = p256.Signature.fromBytes(hexToBytes(sig.r + sig.s), 'compact')
      .addRecoveryBit(Number.parseInt(sig.v, 16))
      .recoverPublicKey(digest)
      .toBytes(true)
    expect(bytesToHex(recovered)).toBe(bytesToHex(p.publicKey))
  })

  it('NO_OP signs a 32-byte digest and refuses other lengths naming payload', () => {
    const digest = sha256(utf8Encode('x'))
    const sig = signRawPayload({
      privateKey: p.privateKey,
      curve: 'CURVE_P256',
      payload: bytesToHex(digest),
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    })
    expect(p256.verify(hexToBytes(sig.r + sig.s), digest, p.publicKey, { prehash: false })).toBe(true)
    expectFieldError(
      () =>
        signRawPayload({
          privateKey: p.privateKey,
          curve: 'CURVE_P256',
          payload: 'abcd',
          encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
          hashFunction: 'HASH_FUNCTION_NO_OP',
        }),
      'payload',
    )
  })

  it('refuses NOT_APPLICABLE for ECDSA naming hashFunction', () => {
    expectFieldError(
      () =>
        signRawPayload({
          privateKey: p.privateKey,
          curve: 'CURVE_P256',
          payload: 'abcd',
          encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
          hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE',
        }),
      'hashFunction',
    )
  })
})

describe('ed25519', () => {
  it('signs the raw message bytes; r‖s verifies with noble ed25519; v "00"', () => {
    const payload = '0xdeadbeef00'
    const sig = signRawPayload({
      privateKey: ed.privateKey,
      curve: 'CURVE_ED25519',
      payload,
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE',
    })
    expect(sig.v).toBe('00')
    expect(ed25519.verify(hexToBytes(sig.r + sig.s), hexToBytes(payload), ed.publicKey)).toBe(true)
    const text = signRawPayload({
      privateKey: ed.privateKey,
      curve: 'CURVE_ED25519',
      payload: 'héllo',
      encoding: 'PAYLOAD_ENCODING_TEXT_UTF8',
      hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE',
    })
    expect(ed25519.verify(hexToBytes(text.r + text.s), utf8Encode('héllo'), ed.publicKey)).toBe(true)
  })

  it.each(['HASH_FUNCTION_NO_OP', 'HASH_FUNCTION_SHA256', 'HASH_FUNCTION_KECCAK256'] as const)(
    'refuses %s naming hashFunction',
    (hashFunction) => {
      expectFieldError(
        () =>
          signRawPayload({
            privateKey: ed.privateKey,
            curve: 'CURVE_ED25519',
            payload: '00'.repeat(32),
            encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
            hashFunction,
          }),
        'hashFunction',
      )
    },
  )
})

describe('payload / enum validation', () => {
  it.each(['xyz', '0x123', 'zz', '0xgg'])('refuses non-hex %j naming payload', (payload) => {
    expectFieldError(
      () =>
        signRawPayload({
          privateKey: eth.privateKey,
          curve: 'CURVE_SECP256K1',
          payload,
          encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
          hashFunction: 'HASH_FUNCTION_SHA256',
        }),
      'payload',
    )
  })

  it('refuses unknown encoding / hash function / curve', () => {
    const base = {
      privateKey: eth.privateKey,
      curve: 'CURVE_SECP256K1',
      payload: 'aa',
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_SHA256',
    } as const
    expectFieldError(() => signRawPayload({ ...base, encoding: 'PAYLOAD_ENCODING_BASE64' as 'PAYLOAD_ENCODING_HEXADECIMAL' }), 'encoding')
    // EIP-7702 authorizations are signed (eip7702.test.ts), but over their own keccak256 digest of their JSON.
    expectFieldError(() => signRawPayload({ ...base, encoding: 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION' }), 'hashFunction')
    expectFieldError(
      () => signRawPayload({ ...base, encoding: 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION', hashFunction: 'HASH_FUNCTION_NO_OP' }),
      'payload',
    )
    expectFieldError(() => signRawPayload({ ...base, hashFunction: 'HASH_FUNCTION_MD5' as 'HASH_FUNCTION_SHA256' }), 'hashFunction')
    expectFieldError(() => signRawPayload({ ...base, curve: 'CURVE_X' as 'CURVE_P256' }), 'curve')
  })
})
