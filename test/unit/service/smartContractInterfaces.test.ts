/**
 * create_smart_contract_interface's parameters as the service reads them (the wire schema, then the
 * service's checks with the chains' parsers): the ABI / IDL checked against `type`, the size limit,
 * the address per type, label and notes; and the custom-error selectors an ABI declares.
 */
import { readFileSync } from 'node:fs'
import { type Abi, encodeErrorResult, toFunctionSelector } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  MAX_SMART_CONTRACT_INTERFACE_BYTES,
  MAX_SMART_CONTRACT_INTERFACE_DEPTH,
  MAX_SMART_CONTRACT_INTERFACE_LABEL,
  MAX_SMART_CONTRACT_INTERFACE_NOTES,
} from '../../../src/api/limits.js'
import { utf8Length } from '../../../src/api/operations/create_smart_contract_interface.js'
import { deleteSmartContractInterface } from '../../../src/api/operations/delete_smart_contract_interface.js'
import { parseOrThrow } from '../../../src/api/validation.js'
import { type AbiItem, addressKey, isSolanaAddress, parseEthereumAbi, parseSolanaIdl } from '../../../src/chains/contractInterfaces.js'
import { CheckedSmartContractInterfaceParams } from '../../../src/service/activities/create_smart_contract_interface.js'
import { revertEntry } from '../../../src/service/sends/revert.js'
import { failure } from '../api/fixtures.js'

const DENIER = JSON.parse(readFileSync(new URL('../../fixtures/contracts/Denier.json', import.meta.url), 'utf8')) as { abi: unknown[] }
const ABI = JSON.stringify(DENIER.abi)
const EVM_ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const PROGRAM_ID = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'

/** A small Anchor IDL in the current format (anchor 0.30+). */
const IDL = JSON.stringify({
  address: 'Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS',
  metadata: { name: 'counter', version: '0.1.0', spec: '0.1.0' },
  instructions: [
    {
      name: 'initialize',
      discriminator: [175, 175, 109, 31, 13, 152, 155, 237],
      accounts: [
        { name: 'counter', writable: true, signer: true },
        { name: 'system_program', address: '11111111111111111111111111111111' },
      ],
      args: [{ name: 'start', type: 'u64' }],
    },
  ],
  accounts: [{ name: 'Counter', discriminator: [255, 176, 4, 245, 188, 253, 124, 25] }],
  types: [{ name: 'Counter', type: { kind: 'struct', fields: [{ name: 'count', type: 'u64' }] } }],
})
/** The same program in the legacy format (before anchor 0.30: isMut/isSigner, no discriminators). */
const LEGACY_IDL = JSON.stringify({
  version: '0.1.0',
  name: 'counter',
  instructions: [
    {
      name: 'increment',
      accounts: [{ name: 'counter', isMut: true, isSigner: false }],
      args: [{ name: 'by', type: { option: 'u64' } }],
    },
  ],
})

const ethereum = (over: Record<string, unknown> = {}) => ({
  smartContractAddress: EVM_ADDRESS,
  smartContractInterface: ABI,
  type: 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM',
  label: 'Denier',
  notes: 'reverts with Denied',
  ...over,
})
const solana = (over: Record<string, unknown> = {}) => ({
  smartContractAddress: PROGRAM_ID,
  smartContractInterface: IDL,
  type: 'SMART_CONTRACT_INTERFACE_TYPE_SOLANA',
  label: 'counter',
  ...over,
})

const parse = (p: unknown) => parseOrThrow(CheckedSmartContractInterfaceParams, p, 'parameters')
/** The field the refusal names and its description. */
function refusal(p: unknown): { field: string | undefined; description: string | undefined } {
  const err = failure(CheckedSmartContractInterfaceParams, p)
  expect(err.code).toBe('INVALID_ARGUMENT')
  expect(err.httpStatus).toBe(400)
  return { field: err.fieldViolations[0]?.field, description: err.fieldViolations[0]?.description }
}

describe('create_smart_contract_interface parameters', () => {
  it('accepts a compiler-made ABI with its contract address in any letter case, and keeps both as given', () => {
    expect(parse(ethereum())).toEqual(ethereum())
    expect(parse(ethereum({ smartContractAddress: EVM_ADDRESS.toLowerCase() })).smartContractAddress).toBe(EVM_ADDRESS.toLowerCase())
    expect(parse(ethereum({ smartContractAddress: EVM_ADDRESS.toUpperCase().replace('0X', '0x') })).smartContractInterface).toBe(ABI)
    // notes are optional
    const { notes: _, ...noNotes } = ethereum()
    expect(parse(noNotes).notes).toBeUndefined()
  })

  it('accepts hand-written ABIs: overloads, tuples, arrays, events, constructor, fallback, receive, a missing type', () => {
    const abi = [
      { type: 'constructor', inputs: [{ name: 'owner', type: 'address' }], stateMutability: 'nonpayable' },
      {
        name: 'transfer',
        inputs: [
          { name: 'to', type: 'address' },
          { name: 'amount', type: 'uint256' },
        ],
        outputs: [{ type: 'bool' }],
      },
      { type: 'function', name: 'transfer', inputs: [{ name: 'to', type: 'address' }], outputs: [] },
      {
        type: 'function',
        name: 'batch',
        inputs: [
          {
            name: 'orders',
            type: 'tuple[]',
            components: [
              { name: 'maker', type: 'address' },
              { name: 'amounts', type: 'uint128[2]' },
              { name: 'sig', type: 'bytes' },
            ],
          },
        ],
        stateMutability: 'payable',
      },
      { type: 'event', name: 'Transfer', inputs: [{ name: 'from', type: 'address', indexed: true }], anonymous: false },
      { type: 'error', name: 'Nope', inputs: [] },
      { type: 'fallback', stateMutability: 'payable' },
      { type: 'receive', stateMutability: 'payable' },
    ]
    expect(parse(ethereum({ smartContractInterface: JSON.stringify(abi) })).label).toBe('Denier')
  })

  it('accepts an Anchor IDL, current and legacy format, with a base58 program id', () => {
    expect(parse(solana()).type).toBe('SMART_CONTRACT_INTERFACE_TYPE_SOLANA')
    expect(parse(solana({ smartContractInterface: LEGACY_IDL })).smartContractInterface).toBe(LEGACY_IDL)
    expect(parse(solana({ smartContractAddress: '11111111111111111111111111111111' })).smartContractAddress).toBe(
      '11111111111111111111111111111111',
    )
  })

  it('refuses text that is not JSON, naming parameters.smartContractInterface', () => {
    for (const text of ['[', '{"type":"function",}', 'not json', "[{'type':'error'}]"]) {
      const r = refusal(ethereum({ smartContractInterface: text }))
      expect(r.field, text).toBe('parameters.smartContractInterface')
      expect(r.description).toMatch(/^not an Ethereum ABI: not valid JSON/)
    }
    expect(refusal(solana({ smartContractInterface: '{' })).description).toMatch(/^not a Solana IDL: not valid JSON/)
    expect(refusal(ethereum({ smartContractInterface: '' })).description).toBe('required')
  })

  it('refuses JSON that is not an ABI, saying where', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ type: 'function', name: 'f' }, /expected a JSON array of ABI items/],
      [{ abi: DENIER.abi, bytecode: '0x' }, /not a build artifact: give its "abi" member/],
      [[], /no items/],
      [[1, 2], /\[0\]: expected an object/],
      ['[]', /expected a JSON array/],
      [[{ type: 'struct', name: 'S' }], /\[0\]\.type: expected one of function, constructor, event, error, fallback, receive/],
      [[{ type: 'error', inputs: [] }], /\[0\]\.name: required for the error/],
      [[{ type: 'function', name: 'has space' }], /\[0\]\.name/],
      [[{ type: 'error', name: 'E', inputs: [{ name: 'x', type: 'uint7' }] }], /\[0\]\.inputs\[0\]\.type: not an ABI type: "uint7"/],
      [[{ type: 'error', name: 'E', inputs: [{ name: 'x', type: 'bytes33' }] }], /not an ABI type: "bytes33"/],
      [[{ type: 'error', name: 'E', inputs: [{ name: 'x' }] }], /\[0\]\.inputs\[0\]\.type: required/],
      [[{ type: 'error', name: 'E', inputs: [{ name: 'x', type: 'tuple' }] }], /\[0\]\.inputs\[0\]\.components: a tuple needs/],
      [
        [{ type: 'function', name: 'f', inputs: [{ name: 't', type: 'tuple', components: [{ name: 'a', type: 'addr' }] }] }],
        /\[0\]\.inputs\[0\]\.components\[0\]\.type: not an ABI type: "addr"/,
      ],
      [[{ type: 'function', name: 'f', inputs: 'uint256' }], /\[0\]\.inputs: expected an array/],
      [[{ type: 'event', name: 'E', outputs: [{ type: 'uint256' }] }], /\[0\]\.outputs: only a function has outputs/],
      [[{ type: 'function', name: 'f', stateMutability: 'constant' }], /\[0\]\.stateMutability/],
      [[{ type: 'function', name: 'f', inputs: [{ type: 'uint256', components: [] }] }], /only a tuple has components/],
    ]
    for (const [value, problem] of cases) {
      const text = JSON.stringify(value)
      const r = refusal(ethereum({ smartContractInterface: text }))
      expect(r.field, text).toBe('parameters.smartContractInterface')
      expect(r.description, text).toMatch(/^not an Ethereum ABI: /)
      expect(r.description, text).toMatch(problem)
    }
  })

  it('refuses JSON that is not an Anchor IDL, saying where', () => {
    const cases: Array<[unknown, RegExp]> = [
      [DENIER.abi, /expected a JSON object/],
      [{ name: 'x' }, /instructions: required/],
      [{ instructions: [] }, /no instructions/],
      [{ instructions: [{ accounts: [] }] }, /instructions\[0\]\.name: required/],
      [{ instructions: [{ name: 'i', accounts: {} }] }, /instructions\[0\]\.accounts: expected an array/],
      [{ instructions: [{ name: 'i', args: [{ name: 'x' }] }] }, /instructions\[0\]\.args\[0\]\.type: required/],
      [{ instructions: [{ name: 'i', discriminator: [256] }] }, /discriminator/],
      [{ instructions: [{ name: 'i' }], types: {} }, /types: expected an array/],
      [{ instructions: [{ name: 'i' }], metadata: 'm' }, /metadata: expected an object/],
    ]
    for (const [value, problem] of cases) {
      const r = refusal(solana({ smartContractInterface: JSON.stringify(value) }))
      expect(r.field).toBe('parameters.smartContractInterface')
      expect(r.description).toMatch(/^not a Solana IDL: /)
      expect(r.description).toMatch(problem)
    }
    // an ABI given as SOLANA, or an IDL as ETHEREUM, is refused for the type it claims
    expect(refusal(ethereum({ smartContractInterface: IDL })).description).toMatch(/^not an Ethereum ABI: expected a JSON array/)
  })

  it('refuses an interface over 400 KiB of UTF-8, counting multi-byte characters, before parsing it', () => {
    const padded = (bytes: number, filler: string, fillerBytes: number) => {
      const base = JSON.stringify(DENIER.abi).slice(0, -1)
      const pad = `,{"type":"function","name":"pad","inputs":[],"outputs":[],"stateMutability":"view","x":"`
      const n = Math.floor((bytes - utf8Length(base) - utf8Length(pad) - 3) / fillerBytes)
      return `${base}${pad}${filler.repeat(n)}"}]`
    }
    const atLimit = padded(MAX_SMART_CONTRACT_INTERFACE_BYTES, 'a', 1)
    expect(utf8Length(atLimit)).toBeLessThanOrEqual(MAX_SMART_CONTRACT_INTERFACE_BYTES)
    expect(parse(ethereum({ smartContractInterface: atLimit })).label).toBe('Denier')
    const over = `${atLimit.slice(0, -3)}aaaaaaaaaa"}]`
    expect(utf8Length(over)).toBeGreaterThan(MAX_SMART_CONTRACT_INTERFACE_BYTES)
    expect(refusal(ethereum({ smartContractInterface: over }))).toEqual({
      field: 'parameters.smartContractInterface',
      description: 'at most 409600 bytes (400 KiB) of UTF-8',
    })
    // 'é' is 2 bytes and '€' 3: fewer characters than the limit, more bytes
    const twoByte = padded(MAX_SMART_CONTRACT_INTERFACE_BYTES + 10, 'é', 2)
    expect(twoByte.length).toBeLessThan(MAX_SMART_CONTRACT_INTERFACE_BYTES)
    expect(refusal(ethereum({ smartContractInterface: twoByte })).field).toBe('parameters.smartContractInterface')
    expect(utf8Length('a€é😀')).toBe(1 + 3 + 2 + 4)
    expect(utf8Length('\ud800')).toBe(3)
    // not JSON and over the limit: the size is what is said
    expect(refusal(solana({ smartContractInterface: 'x'.repeat(MAX_SMART_CONTRACT_INTERFACE_BYTES + 1) })).description).toMatch(
      /^at most 409600 bytes/,
    )
  })

  it(`refuses nesting deeper than ${MAX_SMART_CONTRACT_INTERFACE_DEPTH} levels without overflowing the stack`, () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
    expect(refusal(ethereum({ smartContractInterface: deep })).description).toMatch(/nested deeper than 64 levels/)
    let tuple: Record<string, unknown> = { name: 'leaf', type: 'uint256' }
    for (let i = 0; i < 40; i++) tuple = { name: `t${i}`, type: 'tuple', components: [tuple] }
    const abi = JSON.stringify([{ type: 'error', name: 'Deep', inputs: [tuple] }])
    expect(refusal(ethereum({ smartContractInterface: abi })).description).toMatch(/nested deeper/)
  })

  it('refuses an address that is not one of the type, naming parameters.smartContractAddress', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [ethereum({ smartContractAddress: '0x1234' }), /0x-prefixed 20-byte hex address/],
      [ethereum({ smartContractAddress: EVM_ADDRESS.slice(2) }), /0x-prefixed/],
      [ethereum({ smartContractAddress: `${EVM_ADDRESS}00` }), /0x-prefixed/],
      [ethereum({ smartContractAddress: `0x${'g'.repeat(40)}` }), /0x-prefixed/],
      [ethereum({ smartContractAddress: PROGRAM_ID }), /0x-prefixed/],
      [solana({ smartContractAddress: EVM_ADDRESS }), /base58 Solana address/],
      // base58 of 31 bytes, and a string with characters outside base58 (0, O, I, l)
      [solana({ smartContractAddress: '1111111111111111111111111111111' }), /base58 Solana address/],
      [solana({ smartContractAddress: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5D0' }), /base58 Solana address/],
      [solana({ smartContractAddress: `${PROGRAM_ID}zz` }), /base58 Solana address/],
    ]
    for (const [p, problem] of cases) {
      const r = refusal(p)
      expect(r.field, String(p.smartContractAddress)).toBe('parameters.smartContractAddress')
      expect(r.description).toMatch(problem)
    }
    expect(refusal(ethereum({ smartContractAddress: '' }))).toEqual({ field: 'parameters.smartContractAddress', description: 'required' })
    expect(refusal(ethereum({ smartContractAddress: 'x'.repeat(129) })).field).toBe('parameters.smartContractAddress')
  })

  it('requires a label and bounds label and notes; refuses an unknown type', () => {
    expect(refusal(ethereum({ label: '' }))).toEqual({ field: 'parameters.label', description: 'required' })
    expect(refusal(ethereum({ label: undefined }))).toEqual({ field: 'parameters.label', description: 'required' })
    expect(refusal(ethereum({ label: 'x'.repeat(MAX_SMART_CONTRACT_INTERFACE_LABEL + 1) })).field).toBe('parameters.label')
    expect(parse(ethereum({ label: 'x'.repeat(MAX_SMART_CONTRACT_INTERFACE_LABEL) })).label).toHaveLength(256)
    expect(refusal(ethereum({ notes: 'x'.repeat(MAX_SMART_CONTRACT_INTERFACE_NOTES + 1) })).field).toBe('parameters.notes')
    expect(refusal(ethereum({ notes: 7 })).field).toBe('parameters.notes')
    expect(refusal(ethereum({ type: 'SMART_CONTRACT_INTERFACE_TYPE_BITCOIN' })).field).toBe('parameters.type')
    expect(refusal(ethereum({ type: undefined })).field).toBe('parameters.type')
  })

  it('delete requires the id', () => {
    const err = failure(deleteSmartContractInterface.parameters, {})
    expect(err.fieldViolations[0]).toEqual({ field: 'parameters.smartContractInterfaceId', description: 'required' })
  })
})

describe('ABI custom errors and addresses', () => {
  it("lists an ABI's custom-error selectors as the ABI coder computes them (viem agrees)", () => {
    const abi = parseEthereumAbi(ABI, MAX_SMART_CONTRACT_INTERFACE_DEPTH)
    expect(abi.ok).toBe(true)
    if (!abi.ok) return
    expect(abi.errorSelectors.sort()).toEqual(
      [toFunctionSelector('Denied(address,uint256)'), toFunctionSelector('Unused(string)')].map((s) => s.slice(2)).sort(),
    )
    const tuple = JSON.stringify([
      {
        type: 'error',
        name: 'T',
        inputs: [{ name: 't', type: 'tuple[]', components: [{ name: 'a', type: 'uint' }, { type: 'bytes32' }] }],
      },
      { type: 'function', name: 'f', inputs: [] },
    ])
    const t = parseEthereumAbi(tuple, MAX_SMART_CONTRACT_INTERFACE_DEPTH)
    expect(t.ok && t.errorSelectors).toEqual([toFunctionSelector('T((uint256,bytes32)[])').slice(2)])
  })

  it('computes each selector as the decoder matches it and as viem computes it: aliases, arrays, nested tuples, function', () => {
    const errors = [
      {
        type: 'error',
        name: 'A',
        inputs: [
          { name: 'a', type: 'int[2]' },
          { name: 'b', type: 'uint[]' },
        ],
      },
      {
        type: 'error',
        name: 'B',
        inputs: [
          {
            name: 't',
            type: 'tuple[2][]',
            components: [
              { name: 'x', type: 'uint256' },
              {
                name: 'u',
                type: 'tuple',
                components: [
                  { name: 'y', type: 'bytes' },
                  { name: 'z', type: 'string[]' },
                ],
              },
            ],
          },
        ],
      },
      {
        type: 'error',
        name: 'C',
        inputs: [
          { name: 'f', type: 'function' },
          { name: 'b', type: 'bytes32' },
        ],
      },
      { type: 'error', name: 'D' },
    ] as const
    const signatures = ['A(int256[2],uint256[])', 'B((uint256,(bytes,string[]))[2][])', 'C(function,bytes32)', 'D()']
    const abi = parseEthereumAbi(JSON.stringify(errors), MAX_SMART_CONTRACT_INTERFACE_DEPTH)
    expect(abi.ok && abi.errorSelectors).toEqual(signatures.map((sig) => toFunctionSelector(sig).slice(2)))
    // the decoder finds each error by the same selector (viem encodes with the canonical types: it keeps `int` as written)
    const canonicalA = [
      {
        type: 'error',
        name: 'A',
        inputs: [
          { name: 'a', type: 'int256[2]' },
          { name: 'b', type: 'uint256[]' },
        ],
      },
    ] as const
    const data = encodeErrorResult({ abi: canonicalA, errorName: 'A', args: [[-1n, 1n], [2n]] })
    expect(data.slice(2, 10)).toBe(abi.ok && abi.errorSelectors[0])
    expect(revertEntry(undefined, data, [errors as unknown as AbiItem[]]).custom?.errorName).toBe('A')
    const b = encodeErrorResult({
      abi: errors as unknown as Abi,
      errorName: 'B',
      args: [
        [
          [
            { x: 1n, u: { y: '0x01', z: ['z'] } },
            { x: 2n, u: { y: '0x', z: [] } },
          ],
        ],
      ],
    })
    expect(revertEntry(undefined, b, [errors as unknown as AbiItem[]]).custom?.errorName).toBe('B')
    expect(revertEntry(undefined, toFunctionSelector('D()'), [errors as unknown as AbiItem[]]).displayMessage).toBe('D()')
  })

  it('an IDL parses to its object; addresses match by lower case on Ethereum, exactly on Solana', () => {
    const idl = parseSolanaIdl(LEGACY_IDL, MAX_SMART_CONTRACT_INTERFACE_DEPTH)
    expect(idl.ok && idl.idl.name).toBe('counter')
    expect(addressKey('ethereum', EVM_ADDRESS)).toBe(EVM_ADDRESS.toLowerCase())
    expect(addressKey('solana', PROGRAM_ID)).toBe(PROGRAM_ID)
    expect(isSolanaAddress(PROGRAM_ID)).toBe(true)
  })
})
