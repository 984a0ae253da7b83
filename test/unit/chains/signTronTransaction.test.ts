/**
 * sign_transaction TRANSACTION_TYPE_TRON and `tron.tx`: raw data of real transactions (their
 * `raw_data_hex` and `txID` as the node printed them: a multi-signature TransferContract from
 * java-tron's HTTP API documentation, "wallet/getsignweight"; a Nile USDT TriggerSmartContract with a fee
 * limit, from a TronGrid response) — the txID is sha256 of the bytes, which shows the hex is intact.
 * The signed transaction is `Transaction{raw_data, signature}`; the signature verifies with
 * @noble/curves and recovers the signer's Tron address (r ‖ s ‖ 27+v, as TronWeb writes it).
 */
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { createBase58check } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { SigilError } from '../../../src/api/errors.js'
import { tronAddress } from '../../../src/chains/formats/tron.js'
import { tronTxFromRawHex } from '../../../src/chains/policy/tronTx.js'
import { readProto, signTronTransaction } from '../../../src/chains/sign/tronTransaction.js'
import { bytesToHex, hexToBytes } from '../../../src/crypto/encoding.js'

const TRANSFER = {
  raw: '0a02163d220877ef4ace148b05ba40d8c5e5a6a32d5a69080112630a2d747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e5472616e73666572436f6e747261637412320a1541a7d8a35b260395c14aa456297662092ba3b76fc01215415a523b449890854c8fc460ab602df9f31fe4293f18c0843d2802709af4e1a6a32d',
  txID: '0ae84a8439f5aa8fd2c458879a4031a7452aebed8e6e99ffbccd26842d4323c4',
}
const TRIGGER = {
  raw: '0a028ad92208eaef69105495eb1540f09fc0cfcd335aae01081f12a9010a31747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e54726967676572536d617274436f6e747261637412740a1541495511a493d8c362be4267224e6d81013a6862ee121541eca9bc828a3005b9a3b909f2cc5c2a54794de05f2244a9059cbb00000000000000000000004150125bea243a640bf85348873b6c4f3c517aee7a00000000000000000000000000000000000000000000000000000000000000017090cbbccfcd33900180c2d72f',
  txID: 'c70b20da8cb8d96a99c1aceb283412acb9dea313a9e467178431a3c6ae8b9f08',
}
const privateKey = hexToBytes('0303030303030303030303030303030303030303030303030303030303030303')
const publicKey = secp256k1.getPublicKey(privateKey, false)

function refusal(f: () => unknown): SigilError {
  try {
    f()
  } catch (e) {
    expect(e).toBeInstanceOf(SigilError)
    return e as SigilError
  }
  throw new Error('expected a refusal')
}

describe('signTronTransaction', () => {
  it('the vectors are intact: sha256 of the raw data is the txID', () => {
    for (const v of [TRANSFER, TRIGGER]) expect(bytesToHex(sha256(hexToBytes(v.raw)))).toBe(v.txID)
  })

  it('returns Transaction{raw_data, signature}: the raw data unchanged, a signature over its txID that recovers the signer', () => {
    for (const v of [TRANSFER, TRIGGER]) {
      const signed = hexToBytes(signTronTransaction({ privateKey, unsignedTransaction: v.raw }))
      const fields = readProto(signed)
      expect(fields.map((f) => [f.field, f.wire])).toEqual([
        [1, 2],
        [2, 2],
      ])
      expect(bytesToHex(fields[0]?.value as Uint8Array)).toBe(v.raw)
      const sig = fields[1]?.value as Uint8Array
      expect(sig.length).toBe(65)
      expect([27, 28]).toContain(sig[64])
      const digest = hexToBytes(v.txID)
      expect(secp256k1.verify(sig.subarray(0, 64), digest, publicKey, { prehash: false })).toBe(true)
      const recovered = secp256k1.Signature.fromBytes(sig.subarray(0, 64), 'compact')
        .addRecoveryBit((sig[64] as number) - 27)
        .recoverPublicKey(digest)
        .toBytes(false)
      expect(tronAddress(recovered)).toBe(tronAddress(publicKey))
      // Another digest does not verify (the check can fail).
      expect(secp256k1.verify(sig.subarray(0, 64), sha256(digest), publicKey, { prehash: false })).toBe(false)
    }
  })

  it('refuses what is not a Tron transaction, naming unsignedTransaction', () => {
    for (const [input, message] of [
      ['', /empty/],
      ['0xzz', /hex/],
      ['ff', /not a Tron transaction/],
      ['0a0a', /not a Tron transaction/],
      ['0a02163d', /no contract/],
      ['5a05ffffffffff', /not a Tron transaction/],
    ] as const) {
      const e = refusal(() => signTronTransaction({ privateKey, unsignedTransaction: input }))
      expect(e.code).toBe('INVALID_ARGUMENT')
      expect(e.fieldViolations[0]?.field).toBe('unsignedTransaction')
      expect(e.message).toMatch(message)
    }
  })
})

describe('tronTxFromRawHex', () => {
  it('reads a TransferContract (multi-signature permission 2)', () => {
    expect(tronTxFromRawHex(TRANSFER.raw)).toEqual({
      ref_block_bytes: '163d',
      ref_block_hash: '77ef4ace148b05ba',
      expiration: 1555664823000n,
      timestamp: 1555664763418n,
      data: '',
      fee_limit: 0n,
      contract: [
        {
          type: 'TransferContract',
          permission_id: 2n,
          owner_address: 'TRGhNNfnmgLegT4zHNjEqDSADjgmnHvubJ',
          to_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW',
          amount: 1_000_000n,
        },
      ],
    })
  })

  it('reads a TriggerSmartContract (Nile USDT transfer, fee limit)', () => {
    const tx = tronTxFromRawHex(TRIGGER.raw)
    expect(tx?.fee_limit).toBe(100_000_000n)
    expect(tx?.contract).toEqual([
      {
        type: 'TriggerSmartContract',
        permission_id: 0n,
        owner_address: tronAddress41('41495511a493d8c362be4267224e6d81013a6862ee'),
        contract_address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', // USDT on Nile, as the hosted Tron policy example names it
        call_value: 0n,
        data: 'a9059cbb00000000000000000000004150125bea243a640bf85348873b6c4f3c517aee7a0000000000000000000000000000000000000000000000000000000000000001',
        call_token_value: 0n,
        token_id: 0n,
      },
    ])
  })

  it('a parameter whose type_url names another message is unreadable', () => {
    // TransferContract's parameter relabelled as a TriggerSmartContract: same length, other name.
    const relabelled = TRANSFER.raw.replace(
      bytesToHex(new TextEncoder().encode('protocol.TransferContract')),
      bytesToHex(new TextEncoder().encode('protocol.TransferContracx')),
    )
    expect(relabelled).not.toBe(TRANSFER.raw)
    expect(tronTxFromRawHex(relabelled)).toBeUndefined()
  })
})

/** The base58check form of a 0x41-prefixed hex address (TronWeb's `address.fromHex`). */
const tronAddress41 = (hex: string) => createBase58check(sha256).encode(hexToBytes(hex))
