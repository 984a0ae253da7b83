/**
 * EIP-7702 authorizations (src/chains/sign/eip7702.ts and the raw-payload encoding in raw.ts),
 * checked against viem's independent implementation (hashAuthorization, recoverAuthorizationAddress).
 */
import { describe, expect, it } from 'vitest'
import { hashAuthorization, recoverAuthorizationAddress } from 'viem/utils'
import { privateKeyToAccount } from 'viem/accounts'
import { bytesToHex, hexToBytes } from '../../../src/crypto/encoding.js'
import { SigilError } from '../../../src/api/errors.js'
import { authorizationDigest, parseAuthorizationPayload, signAuthorization } from '../../../src/chains/sign/eip7702.js'
import { signRawPayload } from '../../../src/chains/sign/raw.js'
import { signEthereumTransaction } from '../../../src/chains/sign/ethereumTransaction.js'
import { ethTxFromSerialized } from '../../../src/chains/policy/ethTx.js'
import { serializeTransaction } from 'viem'

const KEY_HEX = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
const key = hexToBytes(KEY_HEX)
const signer = privateKeyToAccount(KEY_HEX).address
const DELEGATE = '0x5FbDB2315678afecb367f032d93F642f64180aa3'

function refused(f: () => unknown): SigilError {
  try {
    f()
  } catch (e) {
    expect(e).toBeInstanceOf(SigilError)
    return e as SigilError
  }
  throw new Error('expected a refusal')
}

describe('authorizationDigest', () => {
  it.each([
    [31337n, 0n],
    [1n, 7n],
    [0n, 255n],
    [11155111n, 2n ** 53n - 1n],
  ])('equals viem hashAuthorization for chainId %s, nonce %s', (chainId, nonce) => {
    const ours = bytesToHex(authorizationDigest({ chainId, address: DELEGATE.toLowerCase(), nonce }))
    const viems = hashAuthorization({ chainId: Number(chainId), address: DELEGATE, nonce: Number(nonce) })
    expect(`0x${ours}`).toBe(viems)
  })
})

describe('signAuthorization', () => {
  it('is recovered by viem to the signing address', async () => {
    const signed = signAuthorization(key, { chainId: 31337n, address: DELEGATE, nonce: 3n })
    expect(signed.address).toBe(DELEGATE.toLowerCase())
    const recovered = await recoverAuthorizationAddress({
      authorization: {
        chainId: 31337,
        address: DELEGATE,
        nonce: 3,
        r: `0x${signed.r.toString(16).padStart(64, '0')}`,
        s: `0x${signed.s.toString(16).padStart(64, '0')}`,
        yParity: signed.yParity,
      },
    })
    expect(recovered).toBe(signer)
  })
})

describe('parseAuthorizationPayload', () => {
  it("reads @turnkey/viem's JSON, and decimal or hex strings", () => {
    expect(parseAuthorizationPayload(JSON.stringify({ address: DELEGATE, chainId: 31337, nonce: 0 }))).toEqual({
      address: DELEGATE.toLowerCase(),
      chainId: 31337n,
      nonce: 0n,
    })
    expect(
      parseAuthorizationPayload('{"contractAddress":"0x5fbdb2315678afecb367f032d93f642f64180aa3","chainId":"0x7a69","nonce":"12"}'),
    ).toEqual({
      address: DELEGATE.toLowerCase(),
      chainId: 31337n,
      nonce: 12n,
    })
  })

  it.each([
    ['not json', 'EIP-7702 authorization must be the JSON object'],
    ['[1,2]', 'EIP-7702 authorization must be the JSON object'],
    ['{"address":"0x1234","chainId":1,"nonce":0}', 'payload.address'],
    [`{"chainId":1,"nonce":0}`, 'payload.address'],
    [`{"address":"${DELEGATE}","chainId":-1,"nonce":0}`, 'payload.chainId'],
    [`{"address":"${DELEGATE}","chainId":1.5,"nonce":0}`, 'payload.chainId'],
    [`{"address":"${DELEGATE}","chainId":1}`, 'payload.nonce'],
    [`{"address":"${DELEGATE}","chainId":1,"nonce":"18446744073709551616"}`, 'payload.nonce is out of range'],
    [`{"address":"${DELEGATE}","chainId":1,"nonce":0,"extra":1}`, 'unknown member "extra"'],
  ])('refuses %s naming the field', (payload, message) => {
    const e = refused(() => parseAuthorizationPayload(payload))
    expect(e.code).toBe('INVALID_ARGUMENT')
    expect(e.fieldViolations[0]?.field).toBe('payload')
    expect(e.message).toContain(message)
  })
})

describe('sign_raw_payload with PAYLOAD_ENCODING_EIP7702_AUTHORIZATION', () => {
  const payload = JSON.stringify({ address: DELEGATE, chainId: 31337, nonce: 5 })
  it('signs the authorization digest (r, s, v = y parity), recoverable by viem', async () => {
    const sig = signRawPayload({
      privateKey: key,
      curve: 'CURVE_SECP256K1',
      payload,
      encoding: 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    })
    expect(sig.v === '00' || sig.v === '01').toBe(true)
    const recovered = await recoverAuthorizationAddress({
      authorization: { chainId: 31337, address: DELEGATE, nonce: 5, r: `0x${sig.r}`, s: `0x${sig.s}`, yParity: Number(sig.v) },
    })
    expect(recovered).toBe(signer)
  })

  it('refuses SHA256, and curves other than secp256k1', () => {
    const args = {
      privateKey: key,
      curve: 'CURVE_SECP256K1' as const,
      payload,
      encoding: 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION' as const,
    }
    expect(refused(() => signRawPayload({ ...args, hashFunction: 'HASH_FUNCTION_SHA256' })).fieldViolations[0]?.field).toBe('hashFunction')
    expect(
      refused(() => signRawPayload({ ...args, curve: 'CURVE_ED25519', hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE' })).fieldViolations[0]
        ?.field,
    ).toBe('encoding')
  })
})

describe('type-4 (EIP-7702) transactions', () => {
  async function unsignedType4() {
    const account = privateKeyToAccount(KEY_HEX)
    const other = await account.signAuthorization({ chainId: 1, address: '0x1111111111111111111111111111111111111111', nonce: 9 })
    const own = await account.signAuthorization({ chainId: 31337, address: DELEGATE, nonce: 1 })
    const tx = {
      type: 'eip7702',
      chainId: 31337,
      nonce: 0,
      to: signer,
      value: 5n,
      data: '0xabcd',
      gas: 100_000n,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      authorizationList: [own, other],
    } as const
    return { account, tx, unsigned: serializeTransaction(tx) }
  }

  it('sign_transaction signs it byte for byte as viem does, authorization list included', async () => {
    const { account, tx, unsigned } = await unsignedType4()
    expect(unsigned.startsWith('0x04')).toBe(true)
    const ours = signEthereumTransaction({ privateKey: key, unsignedTransaction: unsigned })
    expect(`0x${ours}`).toBe(await account.signTransaction(tx))
  })

  it('its policy facts are TYPE_4 with each delegation in authorization_list', async () => {
    const { unsigned } = await unsignedType4()
    const facts = ethTxFromSerialized(unsigned, signer)
    expect(facts?.type).toBe('TYPE_4')
    expect(facts?.authorization_list).toEqual([
      { address: DELEGATE.toLowerCase(), chain_id: 31337n, nonce: 1n },
      { address: '0x1111111111111111111111111111111111111111', chain_id: 1n, nonce: 9n },
    ])
    // Other types have none.
    const t2 = serializeTransaction({
      type: 'eip1559',
      chainId: 1,
      nonce: 0,
      to: signer,
      gas: 21_000n,
      maxFeePerGas: 1n,
      maxPriorityFeePerGas: 1n,
    })
    expect(ethTxFromSerialized(t2)?.authorization_list).toBeUndefined()
  })
})
