import { signTyped } from 'micro-eth-signer'
import { recoverTypedDataAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { checkTypedData, MAX_TYPED_ROWS, type TypedDataInput } from '@/src/extension/background/dapp/evm/typedData'
import { MAIL_TYPED_DATA, seaportOrder } from '../../../../../helpers/typedData'

const ME = '0x4242424242424242424242424242424242424242'
const OTHER = '0x9999999999999999999999999999999999999999'

/** One struct with every type class. */
function allTypes(message: Record<string, unknown> = {}, domain: Record<string, unknown> = {}): TypedDataInput {
  return {
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      Inner: [
        { name: 'a', type: 'uint8' },
        { name: 'b', type: 'string' },
      ],
      All: [
        { name: 'u8', type: 'uint8' },
        { name: 'i8', type: 'int8' },
        { name: 'u256', type: 'uint256' },
        { name: 'who', type: 'address' },
        { name: 'flag', type: 'bool' },
        { name: 'text', type: 'string' },
        { name: 'blob', type: 'bytes' },
        { name: 'b4', type: 'bytes4' },
        { name: 'list', type: 'uint16[]' },
        { name: 'pair', type: 'address[2]' },
        { name: 'inner', type: 'Inner' },
        { name: 'inners', type: 'Inner[]' },
      ],
    },
    primaryType: 'All',
    domain: { name: 'Test', chainId: 1, verifyingContract: ME, ...domain },
    message: {
      u8: 255,
      i8: '-128',
      u256: '0xff',
      who: ME,
      flag: true,
      text: 'hi',
      blob: '0xABCD',
      b4: '0x01020304',
      list: [1, '2'],
      pair: [ME, OTHER],
      inner: { a: 1, b: 'x' },
      inners: [],
      ...message,
    },
  }
}

function reason(typed: TypedDataInput): string {
  const r = checkTypedData(typed)
  if (r.ok) throw new Error('expected a refusal')
  return r.reason
}

describe('typed data: every field checked against types', () => {
  it('accepts the EIP-712 Mail example and one value of every type class, rows in types order', () => {
    const mail = checkTypedData(structuredClone(MAIL_TYPED_DATA) as unknown as TypedDataInput)
    expect(mail).toMatchObject({ ok: true })
    const all = checkTypedData(allTypes())
    expect(all).toEqual({
      ok: true,
      domain: [
        ['name', 'Test'],
        ['chainId', '1'],
        ['verifyingContract', ME],
      ],
      message: [
        ['u8', '255'],
        ['i8', '-128'],
        ['u256', '255'],
        ['who', ME],
        ['flag', 'true'],
        ['text', 'hi'],
        ['blob', '0xabcd'],
        ['b4', '0x01020304'],
        ['list[0]', '1'],
        ['list[1]', '2'],
        ['pair[0]', ME],
        ['pair[1]', OTHER],
        ['inner.a', '1'],
        ['inner.b', 'x'],
        ['inners', '[] (empty)'],
      ],
    })
  })

  it('what it accepts is what the signer hashes: micro-eth-signer signs it, viem recovers the same data', async () => {
    const typed = allTypes({ inners: [{ a: 2, b: 'y' }] })
    expect(checkTypedData(typed)).toMatchObject({ ok: true })
    const key = `0x${'42'.repeat(32)}` as const
    const signature = signTyped(typed as Parameters<typeof signTyped>[0], Uint8Array.from(Buffer.from(key.slice(2), 'hex')), false)
    const m = typed.message
    const asViem = { ...typed, message: { ...m, i8: -128n, u256: 255n, list: [1n, 2n] } } as any
    expect(await recoverTypedDataAddress({ ...asViem, signature: signature as `0x${string}` })).toBe(privateKeyToAccount(key).address)
  })

  it.each<[string, Record<string, unknown>, string]>([
    ['uint8 above range', { u8: 256 }, 'message.u8: out of range for uint8'],
    ['negative uint', { u256: '-1' }, 'message.u256: out of range for uint256'],
    ['uint256 above 2^256-1', { u256: `0x1${'0'.repeat(64)}` }, 'message.u256: out of range for uint256'],
    ['imprecise JSON number', { u256: 1e21 }, 'message.u256: expected an integer'],
    ['integer with spaces', { u256: ' 12' }, 'message.u256: expected an integer'],
    ['int8 below range', { i8: -129 }, 'message.i8: out of range for int8'],
    ['int8 above range', { i8: 128 }, 'message.i8: out of range for int8'],
    ['19-byte address', { who: `0x${'42'.repeat(19)}` }, 'message.who: expected a 20-byte 0x address'],
    [
      'address with a wrong checksum',
      { who: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD827'.replace('CD2a', 'cD2a') },
      'message.who: expected a 20-byte',
    ],
    ['bool as a string', { flag: 'true' }, 'message.flag: expected true or false'],
    ['string as a number', { text: 5 }, 'message.text: expected a string'],
    ['odd-length bytes', { blob: '0xabc' }, 'message.blob: expected even-length 0x hex'],
    ['bytes4 of 3 bytes', { b4: '0x010203' }, 'message.b4: expected exactly 4 bytes'],
    ['array item out of range', { list: [1, 70000] }, 'message.list[1]: out of range for uint16'],
    ['array that is not an array', { list: '1,2' }, 'message.list: expected an array'],
    ['fixed-size array of the wrong length', { pair: [ME] }, 'message.pair: expected 2 items, got 1'],
    ['nested struct field', { inner: { a: 1, b: 2 } }, 'message.inner.b: expected a string'],
    [
      'nested struct in an array',
      {
        inners: [
          { a: 1, b: 'x' },
          { a: -1, b: 'y' },
        ],
      },
      'message.inners[1].a: out of range for uint8',
    ],
    ['struct that is an array', { inner: [1, 'x'] }, 'message.inner: expected an object'],
    ['unknown extra key', { recipient: OTHER }, 'message: unexpected field "recipient" (not in All)'],
    ['unknown key in a nested struct', { inner: { a: 1, b: 'x', c: 3 } }, 'message.inner: unexpected field "c"'],
  ])('refuses %s, naming the field', (_name, patch, expected) => {
    expect(reason(allTypes(patch))).toContain(expected)
  })

  it('refuses a missing field and a missing nested field', () => {
    const t = allTypes()
    delete t.message['flag']
    expect(reason(t)).toBe('message.flag: missing (declared as bool)')
    expect(reason(allTypes({ inner: { a: 1 } }))).toBe('message.inner.b: missing (declared as string)')
  })

  it('checks the types themselves: undefined structs, bad types, duplicate fields, primaryType', () => {
    const withType = (type: string) => {
      const t = allTypes()
      t.types['Inner'] = [{ name: 'a', type }]
      return t
    }
    expect(reason(withType('Missing'))).toBe('types.Inner[0]: unknown type Missing')
    expect(reason(withType('Missing[]'))).toBe('types.Inner[0]: unknown type Missing')
    expect(reason(withType('uint7'))).toBe('types.Inner[0]: bad integer type uint7')
    expect(reason(withType('uint264'))).toBe('types.Inner[0]: bad integer type uint264')
    expect(reason(withType('uint'))).toBe('types.Inner[0]: unknown type uint')
    expect(reason(withType('bytes33'))).toBe('types.Inner[0]: bad bytes type bytes33')
    expect(reason(withType('uint8[01]'))).toBe('types.Inner[0]: bad array length in type uint8[01]')
    const dup = allTypes()
    dup.types['Inner'] = [
      { name: 'a', type: 'uint8' },
      { name: 'a', type: 'uint8' },
    ]
    expect(reason(dup)).toBe('types.Inner[1]: field a appears twice')
    expect(reason({ ...allTypes(), primaryType: 'Nope' })).toBe('primaryType: "Nope" is not defined in types')
    expect(reason({ ...allTypes(), primaryType: 'EIP712Domain' })).toContain('primaryType')
    const badName = allTypes()
    badName.types['Inner'] = [{ name: 'a.b', type: 'uint8' }]
    expect(reason(badName)).toBe('types.Inner[0]: bad field name "a.b"')
  })

  it('checks the domain too: its values, unknown keys, and only standard EIP712Domain fields', () => {
    expect(reason(allTypes({}, { verifyingContract: '0x12' }))).toBe('domain.verifyingContract: expected a 20-byte 0x address')
    expect(reason(allTypes({}, { chainId: '1.5' }))).toContain('domain.chainId: expected an integer')
    expect(reason(allTypes({}, { salt: `0x${'00'.repeat(32)}` }))).toBe('domain: unexpected field "salt" (not in EIP712Domain)')
    const stringChain = allTypes()
    stringChain.types['EIP712Domain'] = [{ name: 'chainId', type: 'string' }]
    stringChain.domain = { chainId: 'one' }
    expect(reason(stringChain)).toBe('types.EIP712Domain: chainId string is not a standard domain field')
    // without types.EIP712Domain the domain type is derived from the standard fields present, like the signer does
    const derived = allTypes()
    delete derived.types['EIP712Domain']
    expect(checkTypedData(derived)).toMatchObject({
      ok: true,
      domain: [
        ['name', 'Test'],
        ['chainId', '1'],
        ['verifyingContract', ME],
      ],
    })
    derived.domain['extra'] = 'not hashed'
    expect(reason(derived)).toBe('domain: unexpected field "extra" (not in EIP712Domain)')
  })

  it('keeps types order whatever the JSON key order, and shows every row of a long order (no 64-row cut)', () => {
    const order = seaportOrder(ME, OTHER, 13)
    const r = checkTypedData(order as unknown as TypedDataInput)
    if (!r.ok) throw new Error(r.reason)
    const paths = r.message.map(([p]) => p)
    expect(paths.slice(0, 4)).toEqual(['offerer', 'zone', 'offer[0].itemType', 'offer[0].token'])
    expect(paths).toContain('offer[3].token')
    expect(paths).toContain('offer[12].endAmount')
    expect(paths.indexOf('consideration[0].recipient')).toBeGreaterThan(64)
    expect(r.message).toContainEqual(['consideration[0].recipient', OTHER])
    expect(paths.at(-1)).toBe('counter')
    expect(r.message).toHaveLength(2 + 13 * 5 + 6 + 7)
  })

  it(`refuses more than ${MAX_TYPED_ROWS} rows instead of truncating`, () => {
    const list = Array.from({ length: MAX_TYPED_ROWS }, (_, i) => i % 100)
    expect(reason(allTypes({ list }))).toBe(`typed data has more than ${MAX_TYPED_ROWS} fields`)
    const fits = Array.from({ length: MAX_TYPED_ROWS - 30 }, (_, i) => i % 100)
    expect(checkTypedData(allTypes({ list: fits }))).toMatchObject({ ok: true })
  })

  it('shows invisible and bidi characters escaped', () => {
    const r = checkTypedData(allTypes({ text: 'pay\u202eevil\u200b' }))
    expect(r.ok && r.message.find(([p]) => p === 'text')?.[1]).toBe('pay\\u{202e}evil\\u{200b}')
  })
})
