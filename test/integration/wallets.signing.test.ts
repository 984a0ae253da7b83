import { ed25519 } from '@noble/curves/ed25519.js'
import { MAIL_TYPED_DATA } from '../helpers/typedData.js'
import { p256 } from '@noble/curves/nist.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { base58 } from '@scure/base'
import {
  type Hex,
  hashMessage,
  parseTransaction,
  recoverAddress,
  recoverMessageAddress,
  recoverTransactionAddress,
  recoverTypedDataAddress,
  serializeTransaction,
  toHex,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex, hexToBytes, utf8Encode } from '../../src/crypto/encoding.js'
import { encryptToTargetBundle } from '../../src/crypto/signedBundle.js'
import { startTestService, submitBody, type TestService } from './helpers/service.js'

const HARDHAT = 'test test test test test test test test test test test junk'
const HARDHAT_0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

let svc: TestService
let org: string
let eth: string
let sol: string
let p256Address: string
let btcPubkey: string

async function submit(op: string, type: string, parameters: unknown) {
  return svc.post(`/public/v1/submit/${op}`, submitBody(type, org, parameters))
}
async function ok(op: string, type: string, resultKey: string, parameters: unknown) {
  const r = await submit(op, type, parameters)
  expect(r.status, JSON.stringify(r.json)).toBe(200)
  return r.json.activity.result[resultKey]
}
const signRaw = (signWith: string, payload: string, encoding: string, hashFunction: string) =>
  ok('sign_raw_payload', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', 'signRawPayloadResult', {
    signWith,
    payload,
    encoding,
    hashFunction,
  }) as Promise<{
    r: string
    s: string
    v: string
  }>
const viemSig = (sig: { r: string; s: string; v: string }) => ({
  r: `0x${sig.r}` as Hex,
  s: `0x${sig.s}` as Hex,
  yParity: Number.parseInt(sig.v, 16),
})
const rs = (sig: { r: string; s: string }) => hexToBytes(sig.r + sig.s)

beforeAll(async () => {
  svc = await startTestService()
  org = svc.admin.organizationId
  const signer = (await (await fetch(`${svc.url}/healthz`)).json()).signerPublicKey
  const userId = svc.admin.userId
  const { importBundle } = await ok('init_import_wallet', 'ACTIVITY_TYPE_INIT_IMPORT_WALLET', 'initImportWalletResult', { userId })
  const enc = await encryptToTargetBundle({
    targetBundle: importBundle,
    plaintext: utf8Encode(HARDHAT),
    signerPublicKeyHex: signer,
    organizationId: org,
    userId,
  })
  if (!enc.ok) throw new Error(enc.reason)
  const res = await ok('import_wallet', 'ACTIVITY_TYPE_IMPORT_WALLET', 'importWalletResult', {
    userId,
    walletName: 'hardhat',
    encryptedBundle: enc.envelope,
    accounts: [
      { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
      { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' },
      { curve: 'CURVE_P256', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/0'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_COMPRESSED' },
      { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/84'/0'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_COMPRESSED' },
    ],
  })
  ;[eth, sol, p256Address, btcPubkey] = res.addresses
})
afterAll(async () => {
  await svc?.stop()
})

describe('sign_raw_payload: Ethereum', () => {
  it('imports the Hardhat account #0', () => {
    expect(eth).toBe(HARDHAT_0)
  })

  it('HEXADECIMAL EIP-191 digest with NO_OP recovers to the account', async () => {
    const digest = hashMessage('hello sigil')
    const sig = await signRaw(eth, digest, 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NO_OP')
    expect(sig.r).toMatch(/^[0-9a-f]{64}$/)
    expect(sig.s).toMatch(/^[0-9a-f]{64}$/)
    expect(sig.v).toMatch(/^0[01]$/)
    expect(await recoverAddress({ hash: digest, signature: viemSig(sig) })).toBe(HARDHAT_0)
    expect(await recoverMessageAddress({ message: 'hello sigil', signature: viemSig(sig) })).toBe(HARDHAT_0)
  })

  it('KECCAK256 over the prefixed message (what the SDKs send) recovers, also with a lowercase signWith', async () => {
    const message = 'gm from the service'
    const prefixed = toHex(`\x19Ethereum Signed Message:\n${message.length}${message}`)
    const sig = await signRaw(eth.toLowerCase(), prefixed, 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_KECCAK256')
    expect(await recoverMessageAddress({ message, signature: viemSig(sig) })).toBe(HARDHAT_0)
  })

  it('EIP712 typed data recovers with viem recoverTypedDataAddress', async () => {
    const typedData = MAIL_TYPED_DATA
    const sig = await signRaw(eth, JSON.stringify(typedData), 'PAYLOAD_ENCODING_EIP712', 'HASH_FUNCTION_NO_OP')
    const params = { ...typedData, signature: viemSig(sig) } as unknown as Parameters<typeof recoverTypedDataAddress>[0]
    expect(await recoverTypedDataAddress(params)).toBe(HARDHAT_0)
    // viem-style typed data without an explicit EIP712Domain type
    const { EIP712Domain: _omitted, ...types } = typedData.types
    const bare = { ...typedData, types }
    const sig2 = await signRaw(eth, JSON.stringify(bare), 'PAYLOAD_ENCODING_EIP712', 'HASH_FUNCTION_NO_OP')
    expect(sig2).toEqual(sig)
  })

  it('sign_raw_payloads signs each payload in order', async () => {
    const messages = ['one', 'two', 'three']
    const { signatures } = await ok('sign_raw_payloads', 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS', 'signRawPayloadsResult', {
      signWith: eth,
      payloads: messages.map((m) => hashMessage(m)),
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    })
    expect(signatures).toHaveLength(3)
    for (const [i, m] of messages.entries()) {
      expect(await recoverMessageAddress({ message: m, signature: viemSig(signatures[i]) })).toBe(HARDHAT_0)
    }
  })
})

describe('sign_transaction', () => {
  it('signs an unsigned EIP-1559 transaction that viem parses and recovers', async () => {
    const unsigned = serializeTransaction({
      type: 'eip1559',
      chainId: 1,
      nonce: 7,
      to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      value: 10n ** 16n,
      gas: 21000n,
      maxFeePerGas: 30_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    })
    const { signedTransaction } = await ok('sign_transaction', 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', 'signTransactionResult', {
      signWith: eth,
      unsignedTransaction: unsigned,
      type: 'TRANSACTION_TYPE_ETHEREUM',
    })
    expect(signedTransaction).toMatch(/^02[0-9a-f]+$/)
    const serialized = `0x${signedTransaction}` as Hex
    const parsed = parseTransaction(serialized)
    expect(parsed).toMatchObject({
      type: 'eip1559',
      chainId: 1,
      nonce: 7,
      value: 10n ** 16n,
      to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    })
    expect(parsed.r).toMatch(/^0x[0-9a-f]+$/)
    expect(await recoverTransactionAddress({ serializedTransaction: serialized as never })).toBe(HARDHAT_0)
  })

  it('signs a Solana transaction in the signer slot', async () => {
    const signer = base58.decode(sol)
    const blockhash = crypto.getRandomValues(new Uint8Array(32))
    const transfer = Uint8Array.from([2, 0, 0, 0, 64, 66, 15, 0, 0, 0, 0, 0])
    const message = Uint8Array.from([
      1,
      0,
      1, // header: 1 signer, 0 readonly signed, 1 readonly unsigned
      2,
      ...signer,
      ...new Uint8Array(32), // account keys: signer, system program
      ...blockhash,
      1,
      1,
      1,
      0,
      transfer.length,
      ...transfer, // one instruction
    ])
    const unsigned = Uint8Array.from([1, ...new Uint8Array(64), ...message])
    for (const input of [unsigned, message]) {
      const { signedTransaction } = await ok('sign_transaction', 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', 'signTransactionResult', {
        signWith: sol,
        unsignedTransaction: bytesToHex(input),
        type: 'TRANSACTION_TYPE_SOLANA',
      })
      const signed = hexToBytes(signedTransaction)
      expect(signed[0]).toBe(1)
      expect(bytesToHex(signed.subarray(65))).toBe(bytesToHex(message))
      expect(ed25519.verify(signed.subarray(1, 65), message, signer)).toBe(true)
    }
  })
})

describe('sign_raw_payload: other curves', () => {
  it('a Solana message verifies with @noble/curves ed25519 (v "00")', async () => {
    const message = utf8Encode('Sign in to Sigil')
    const sig = await signRaw(sol, bytesToHex(message), 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_NOT_APPLICABLE')
    expect(sig.v).toBe('00')
    expect(ed25519.verify(rs(sig), message, base58.decode(sol))).toBe(true)
    expect(ed25519.verify(rs(sig), utf8Encode('something else'), base58.decode(sol))).toBe(false)
  })

  it('a P-256 account signature verifies with @noble/curves p256', async () => {
    const text = 'p256 says hi'
    const sig = await signRaw(p256Address, text, 'PAYLOAD_ENCODING_TEXT_UTF8', 'HASH_FUNCTION_SHA256')
    const pub = hexToBytes(p256Address)
    expect(p256.verify(rs(sig), sha256(utf8Encode(text)), pub, { prehash: false })).toBe(true)
    expect(p256.verify(rs(sig), sha256(utf8Encode('tampered')), pub, { prehash: false })).toBe(false)
  })

  it('a secp256k1 SHA256 signature (Bitcoin-style) verifies against the account public key', async () => {
    const payload = bytesToHex(utf8Encode('btc payload'))
    const sig = await signRaw(btcPubkey, payload, 'PAYLOAD_ENCODING_HEXADECIMAL', 'HASH_FUNCTION_SHA256')
    expect(secp256k1.verify(rs(sig), sha256(hexToBytes(payload)), hexToBytes(btcPubkey), { prehash: false })).toBe(true)
  })
})
