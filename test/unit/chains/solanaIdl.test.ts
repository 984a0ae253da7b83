/**
 * `parsed_instruction_data` from an uploaded Anchor IDL (src/chains/policy/solanaIdl.ts). The
 * instruction data is Borsh, written by hand in the test from the Borsh specification (borsh.io:
 * little-endian integers, u32-length-prefixed strings / vecs, a u8 tag for options and enums); the
 * default discriminator is Anchor's `sha256("global:<snake_case name>")[0..8]`. The docs' Jupiter
 * `route` example policy reads the result through the evaluator.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { base58 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { decodeWithIdl } from '../../../src/chains/policy/solanaIdl'
import { type SolanaTxFacts, withParsedInstructions } from '../../../src/chains/policy/solanaTx'
import { bytesToHex, concatBytes, utf8Encode } from '../../../src/crypto/encoding'
import { decide, parsePolicy } from '../../../src/service/policy/index'

const le = (v: bigint, bytes: number) => {
  const out = new Uint8Array(bytes)
  let x = v < 0n ? v + (1n << BigInt(bytes * 8)) : v
  for (let i = 0; i < bytes; i++) {
    out[i] = Number(x & 0xffn)
    x >>= 8n
  }
  return out
}
const str = (s: string) => concatBytes(le(BigInt(utf8Encode(s).length), 4), utf8Encode(s))
const key = (n: number) => new Uint8Array(32).fill(n)
const anchor = (name: string) => sha256(utf8Encode(`global:${name}`)).subarray(0, 8)

const LEGACY_IDL = {
  instructions: [
    {
      name: 'initializeVault',
      accounts: [
        { name: 'authority', isMut: false, isSigner: true },
        {
          name: 'group',
          accounts: [
            { name: 'vault', isMut: true, isSigner: false },
            { name: 'systemProgram', isMut: false, isSigner: false },
          ],
        },
      ],
      args: [
        { name: 'amount', type: 'u64' },
        { name: 'flag', type: 'bool' },
        { name: 'owner', type: 'publicKey' },
        { name: 'memo', type: 'string' },
        { name: 'limit', type: { option: 'u32' } },
        { name: 'weights', type: { vec: 'u16' } },
        { name: 'kind', type: { defined: 'Kind' } },
        { name: 'config', type: { defined: 'Config' } },
      ],
    },
  ],
  types: [
    { name: 'Kind', type: { kind: 'enum', variants: [{ name: 'Simple' }, { name: 'Custom', fields: [{ name: 'rate', type: 'u8' }] }] } },
    {
      name: 'Config',
      type: {
        kind: 'struct',
        fields: [
          { name: 'fee', type: 'i16' },
          { name: 'tag', type: { array: ['u8', 2] } },
        ],
      },
    },
  ],
}

describe('decodeWithIdl', () => {
  it("a legacy IDL: Anchor's default discriminator, nested account groups, every supported type", () => {
    const data = concatBytes(
      anchor('initialize_vault'),
      le(5_000_000_000n, 8),
      Uint8Array.of(1),
      key(3),
      str('hi ✓'),
      Uint8Array.of(0),
      le(2n, 4),
      le(7n, 2),
      le(65535n, 2),
      Uint8Array.of(1, 9),
      le(-2n, 2),
      Uint8Array.of(0xaa, 0xbb),
    )
    const parsed = decodeWithIdl(LEGACY_IDL, data, ['A', 'V', 'S', 'extra'])
    expect(parsed).toEqual({
      instruction_name: 'initializeVault',
      discriminator: bytesToHex(anchor('initialize_vault')),
      named_accounts: { authority: 'A', vault: 'V', systemProgram: 'S' },
      named_account: { authority: 'A', vault: 'V', systemProgram: 'S' },
      program_call_args: {
        amount: 5_000_000_000n,
        flag: true,
        owner: base58.encode(key(3)),
        memo: 'hi ✓',
        weights: [7n, 65535n],
        kind: { Custom: { rate: 9n } },
        config: { fee: -2n, tag: [0xaan, 0xbbn] },
      },
    })
  })

  it('an explicit discriminator (current Anchor IDLs), i64 / u128 and an option that is present', () => {
    const idl = {
      address: 'x',
      instructions: [
        {
          name: 'swap',
          discriminator: [1, 2, 3],
          accounts: [],
          args: [
            { name: 'delta', type: 'i64' },
            { name: 'big', type: 'u128' },
            { name: 'o', type: { option: 'u8' } },
          ],
        },
      ],
      types: [],
    }
    const data = concatBytes(Uint8Array.of(1, 2, 3), le(-5n, 8), le(2n ** 100n, 16), Uint8Array.of(1, 42))
    expect(decodeWithIdl(idl, data, [])).toMatchObject({
      instruction_name: 'swap',
      discriminator: '010203',
      program_call_args: { delta: -5n, big: 2n ** 100n, o: 42n },
    })
  })

  it('nothing for another instruction, truncated data, a hostile vec length, floats or a non-IDL', () => {
    const idl = { instructions: [{ name: 'f', discriminator: [9], args: [{ name: 'xs', type: { vec: 'u8' } }] }], types: [] }
    expect(decodeWithIdl(idl, Uint8Array.of(8, 0, 0, 0, 0), [])).toBeUndefined()
    expect(decodeWithIdl(idl, Uint8Array.of(9, 1), [])).toBeUndefined()
    expect(decodeWithIdl(idl, concatBytes(Uint8Array.of(9), le(0xffffffffn, 4)), [])).toBeUndefined()
    const float = { instructions: [{ name: 'g', discriminator: [1], args: [{ name: 'x', type: 'f32' }] }] }
    expect(decodeWithIdl(float, Uint8Array.of(1, 0, 0, 0, 0), [])).toBeUndefined()
    for (const bad of [null, [], {}, { instructions: 'x' }]) expect(decodeWithIdl(bad, Uint8Array.of(1), [])).toBeUndefined()
  })
})

describe('withParsedInstructions', () => {
  const JUPITER = 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4'
  const ROUTE_IDL = {
    instructions: [
      {
        name: 'route',
        accounts: [{ name: 'user' }],
        args: [
          { name: 'in_amount', type: 'u64' },
          { name: 'slippage_bps', type: 'u16' },
        ],
      },
    ],
    types: [],
  }
  const tx = (amount: bigint): SolanaTxFacts => ({
    account_keys: [],
    program_keys: [JUPITER],
    instructions: [
      {
        program_key: JUPITER,
        accounts: [{ account_key: 'User1', signer: true, writable: true }],
        instruction_data_hex: bytesToHex(concatBytes(anchor('route'), le(amount, 8), le(50n, 2))),
        address_table_lookups: [],
      },
    ],
    transfers: [],
    recent_blockhash: '',
    spl_transfers: [],
    address_table_lookups: [],
  })
  // tkhq/docs features/policies/smart-contract-interfaces, "Solana" example.
  const condition =
    "solana.tx.instructions.any(i, i.program_key == 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4' && i.parsed_instruction_data.instruction_name == 'route' && i.parsed_instruction_data.program_call_args['in_amount'] == 995500000)"
  const applies = (t: SolanaTxFacts) => {
    const parsed = parsePolicy({ condition, consensus: '' })
    if (!parsed.ok) throw new Error('does not parse')
    return decide(
      [{ policyId: 'p', effect: 'EFFECT_ALLOW', parsed: parsed.policy }],
      { approvers: [], credentials: [], now: new Date(0), solana: { tx: t } },
      { rootQuorum: false },
    ).outcome
  }

  it("the docs' Jupiter route policy reads the decoded arguments", () => {
    const parsed = withParsedInstructions(tx(995_500_000n), new Map([[JUPITER, [ROUTE_IDL]]]))
    expect(parsed.instructions[0]?.parsed_instruction_data?.named_accounts).toEqual({ user: 'User1' })
    expect(applies(parsed)).toBe('OUTCOME_ALLOW')
    expect(applies(withParsedInstructions(tx(995_500_001n), new Map([[JUPITER, [ROUTE_IDL]]])))).toBe('OUTCOME_DENY_IMPLICIT')
    // Without an IDL the field is absent: the policy does not apply.
    const without = withParsedInstructions(tx(995_500_000n), new Map())
    expect(without.instructions[0]?.parsed_instruction_data).toBeUndefined()
    expect(applies(without)).not.toBe('OUTCOME_ALLOW')
  })
})
