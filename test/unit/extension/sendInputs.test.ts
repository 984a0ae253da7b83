/**
 * The Send screen's pure pieces: amounts as bigints (no floating point), recipients per chain
 * (EIP-55 vectors from the EIP itself; base58 32-byte Solana keys), and the unsigned SOL transfer
 * read back by the service's own parsers (src/chains/).
 */
import { base58 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { formatShort, formatUnits, parseAmount } from '@/src/extension/amounts'
import { solTransferMessage, solTransferTransactionHex } from '@/src/extension/background/wallet/solanaTransfer'
import { checkRecipient, toChecksumAddress } from '@/src/extension/recipients'
import { parseSolanaTransaction } from '@/src/chains/sign/solanaMessage'
import { solanaTransfers } from '@/src/chains/transfers'
import { hexToBytes } from '@/src/crypto/encoding'

describe('amounts', () => {
  it('formats atomic units with decimals, exactly', () => {
    expect(formatUnits(1_500_000_000_000_000_000n, 18)).toBe('1.5')
    expect(formatUnits('0', 18)).toBe('0')
    expect(formatUnits(1n, 18)).toBe('0.000000000000000001')
    expect(formatUnits(123456789n, 0)).toBe('123456789')
    expect(formatUnits(2n ** 256n - 1n, 18)).toBe('115792089237316195423570985008687907853269984665640564039457.584007913129639935')
    expect(formatUnits(1_000_000n, 6)).toBe('1')
  })

  it('shortens long fractions by rounding down, and marks dust', () => {
    expect(formatShort(1_234_567_890_123_456_789n, 18)).toBe('1.234567')
    expect(formatShort(1n, 18)).toBe('<0.000001')
    expect(formatShort(0n, 18)).toBe('0')
    expect(formatShort(1_999_999_999n, 9)).toBe('1.999999')
  })

  it('parses typed amounts to atomic units', () => {
    expect(parseAmount('1.5', 18)).toEqual({ ok: true, value: 1_500_000_000_000_000_000n })
    expect(parseAmount(' .25 ', 9)).toEqual({ ok: true, value: 250_000_000n })
    expect(parseAmount('0.1', 18)).toEqual({ ok: true, value: 100_000_000_000_000_000n })
    expect(parseAmount('10', 6)).toEqual({ ok: true, value: 10_000_000n })
  })

  it('refuses what is not a positive amount, naming why', () => {
    expect(parseAmount('', 18)).toMatchObject({ ok: false, reason: /Enter an amount/ })
    expect(parseAmount('1e18', 18)).toMatchObject({ ok: false })
    expect(parseAmount('-1', 18)).toMatchObject({ ok: false })
    expect(parseAmount('1,5', 18)).toMatchObject({ ok: false })
    expect(parseAmount('0', 18)).toMatchObject({ ok: false, reason: /more than 0/ })
    expect(parseAmount('0.0000000001', 9)).toMatchObject({ ok: false, reason: 'At most 9 decimal places' })
    expect(parseAmount('9'.repeat(60), 18)).toMatchObject({ ok: false, reason: /too large/ })
  })
})

describe('recipients', () => {
  // EIP-55 "Test Cases" (eips.ethereum.org/EIPS/eip-55).
  const EIP55 = [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ]

  it('checksums addresses as EIP-55 does', () => {
    for (const a of EIP55) expect(toChecksumAddress(a.toLowerCase())).toBe(a)
  })

  it('accepts checksummed, all-lowercase and all-uppercase EVM addresses, answering the checksummed form', () => {
    for (const a of EIP55) {
      expect(checkRecipient('evm', a)).toEqual({ ok: true, address: a })
      expect(checkRecipient('evm', a.toLowerCase())).toEqual({ ok: true, address: a })
      expect(checkRecipient('evm', `0x${a.slice(2).toUpperCase()}`)).toEqual({ ok: true, address: a })
    }
  })

  it('refuses a mixed-case EVM address with a wrong checksum, bad hex, and the zero address', () => {
    const typo = EIP55[0]?.replace('aA', 'Aa') ?? ''
    expect(checkRecipient('evm', typo)).toMatchObject({ ok: false, reason: /checksum/ })
    expect(checkRecipient('evm', '0x123')).toMatchObject({ ok: false, reason: /40 hex/ })
    expect(checkRecipient('evm', `0x${'g'.repeat(40)}`)).toMatchObject({ ok: false })
    expect(checkRecipient('evm', `0x${'0'.repeat(40)}`)).toMatchObject({ ok: false, reason: /zero address/ })
    expect(checkRecipient('evm', '')).toMatchObject({ ok: false, reason: /Enter/ })
    expect(checkRecipient('evm', '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T')).toMatchObject({ ok: false })
  })

  it('accepts base58 32-byte Solana keys and refuses other lengths and alphabets', () => {
    const key = base58.encode(new Uint8Array(32).fill(7))
    expect(checkRecipient('solana', key)).toEqual({ ok: true, address: key })
    expect(checkRecipient('solana', base58.encode(new Uint8Array(31).fill(7)))).toMatchObject({ ok: false })
    expect(checkRecipient('solana', base58.encode(new Uint8Array(33).fill(7)))).toMatchObject({ ok: false, reason: /32 bytes/ })
    expect(checkRecipient('solana', `${key.slice(0, -1)}0`)).toMatchObject({ ok: false })
    expect(checkRecipient('solana', EIP55[0] ?? '')).toMatchObject({ ok: false })
  })
})

describe('SOL transfer transaction', () => {
  it('is read back by the service’s parser as one System Program transfer with one empty signature slot', () => {
    const from = base58.encode(new Uint8Array(32).fill(1))
    const to = base58.encode(new Uint8Array(32).fill(2))
    const tx = parseSolanaTransaction(hexToBytes(solTransferTransactionHex(solTransferMessage(from, to, 1_500_000_000n))))
    expect(tx.signatures).toHaveLength(1)
    expect(tx.signatures[0]?.every((b) => b === 0)).toBe(true)
    expect(tx.message.numRequiredSignatures).toBe(1)
    expect(tx.message.numReadonlyUnsigned).toBe(1)
    expect(solanaTransfers(tx.message)).toEqual([{ from, to, amount: 1_500_000_000n }])
  })

  it('carries the given blockhash and refuses out-of-range lamports', () => {
    const from = base58.encode(new Uint8Array(32).fill(1))
    const to = base58.encode(new Uint8Array(32).fill(2))
    const hash = new Uint8Array(32).fill(9)
    const msg = solTransferMessage(from, to, 5n, base58.encode(hash))
    expect([...msg.subarray(4 + 96, 4 + 128)]).toEqual([...hash])
    expect(() => solTransferMessage(from, to, 2n ** 64n)).toThrow(RangeError)
  })
})
