/**
 * sign_transaction TRANSACTION_TYPE_ETHEREUM: unsigned transactions serialized by viem, signed by
 * us, then parsed by viem parseTransaction and recovered with recoverTransactionAddress.
 */
import { type TransactionSerializable, parseTransaction, recoverTransactionAddress, serializeTransaction } from 'viem'
import { describe, expect, it } from 'vitest'
import { SigilError } from '../../../src/api/errors.js'
import { deriveAccount } from '../../../src/chains/derive.js'
import { mnemonicToSeed } from '../../../src/chains/mnemonic.js'
import { signEthereumTransaction } from '../../../src/chains/sign/ethereumTransaction.js'
import { useSecp256k1DigestSigner } from '../../../src/chains/sign/secp256k1.js'
import { libsecp256k1Signer } from '../../../src/service/chains/libsecp256k1.js'
import { Transaction } from 'micro-eth-signer'

const seed = mnemonicToSeed('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about')
const eth = deriveAccount({ seed, curve: 'CURVE_SECP256K1', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' })
const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const

const CASES: [string, TransactionSerializable][] = [
  ['legacy EIP-155', { type: 'legacy', chainId: 1, nonce: 7, gasPrice: 20_000_000_000n, gas: 21_000n, to: TO, value: 10n ** 16n }],
  ['legacy pre-EIP-155', { type: 'legacy', nonce: 0, gasPrice: 1_000_000_000n, gas: 50_000n, to: TO, value: 1n, data: '0xdeadbeef' }],
  [
    'EIP-2930',
    {
      type: 'eip2930',
      chainId: 11155111,
      nonce: 3,
      gasPrice: 3_000_000_000n,
      gas: 60_000n,
      to: TO,
      value: 0n,
      data: '0x095ea7b3',
      accessList: [{ address: TO, storageKeys: [`0x${'00'.repeat(31)}01`] }],
    },
  ],
  [
    'EIP-1559',
    {
      type: 'eip1559',
      chainId: 8453,
      nonce: 42,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000n,
      gas: 21_000n,
      to: TO,
      value: 123456789n,
    },
  ],
  [
    'EIP-1559 contract creation',
    { type: 'eip1559', chainId: 1, nonce: 0, maxFeePerGas: 10n, maxPriorityFeePerGas: 1n, gas: 100_000n, data: '0x6080604052' },
  ],
]

describe('signEthereumTransaction', () => {
  it.each(CASES)('%s parses with viem and recovers the sender', async (_name, tx) => {
    const unsigned = serializeTransaction(tx)
    for (const input of [unsigned, unsigned.slice(2)]) {
      const signed = signEthereumTransaction({ privateKey: eth.privateKey, unsignedTransaction: input })
      expect(signed).toMatch(/^[0-9a-f]+$/)
      const parsed = parseTransaction(`0x${signed}`)
      expect(parsed.type).toBe(tx.type)
      expect(parsed.nonce ?? 0).toBe(tx.nonce)
      expect(parsed.value ?? 0n).toBe(tx.value ?? 0n)
      expect(parsed.to?.toLowerCase()).toBe(tx.to?.toLowerCase())
      if (tx.chainId !== undefined) expect(parsed.chainId).toBe(tx.chainId)
      expect(await recoverTransactionAddress({ serializedTransaction: `0x${signed}` as `0x02${string}` })).toBe(eth.address)
    }
  })

  it('EIP-155 legacy v encodes the chain id; pre-155 v is 27/28', () => {
    const s155 = parseTransaction(
      `0x${signEthereumTransaction({ privateKey: eth.privateKey, unsignedTransaction: serializeTransaction(CASES[0]![1]) })}`,
    )
    expect([37n, 38n]).toContain(s155.v)
    const pre = parseTransaction(
      `0x${signEthereumTransaction({ privateKey: eth.privateKey, unsignedTransaction: serializeTransaction(CASES[1]![1]) })}`,
    )
    expect([27n, 28n]).toContain(pre.v)
  })

  it.each([
    ['non-hex', 'zz'],
    ['empty', ''],
    ['garbage RLP', '0x02ff'],
    ['truncated', serializeTransaction(CASES[3]![1]).slice(0, 20)],
  ])('refuses %s naming unsignedTransaction', (_name, unsignedTransaction) => {
    let err: unknown
    try {
      signEthereumTransaction({ privateKey: eth.privateKey, unsignedTransaction })
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(SigilError)
    expect((err as SigilError).fieldViolations[0]?.field).toBe('unsignedTransaction')
  })

  it.each(CASES)('%s: the same bytes as micro-eth-signer signBy, with either secp256k1 signer', (_name, tx) => {
    const unsigned = serializeTransaction(tx)
    const reference = Transaction.fromHex(unsigned).signBy(eth.privateKey, false).toHex().replace(/^0x/, '')
    expect(signEthereumTransaction({ privateKey: eth.privateKey, unsignedTransaction: unsigned })).toBe(reference)
    const previous = useSecp256k1DigestSigner(libsecp256k1Signer)
    try {
      expect(signEthereumTransaction({ privateKey: eth.privateKey, unsignedTransaction: unsigned })).toBe(reference)
    } finally {
      useSecp256k1DigestSigner(previous)
    }
  })

  it('refuses an already-signed transaction', () => {
    const signed = signEthereumTransaction({ privateKey: eth.privateKey, unsignedTransaction: serializeTransaction(CASES[3]![1]) })
    expect(() => signEthereumTransaction({ privateKey: eth.privateKey, unsignedTransaction: signed })).toThrowError(SigilError)
  })
})
