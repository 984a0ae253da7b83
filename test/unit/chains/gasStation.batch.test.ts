/**
 * batch.ts without a node: the typed data an account signs, the execute calldata, the contract's
 * errors and EIP-7702 designators. (That the digest equals the contract's own `batchDigest` is
 * checked on anvil: test/integration/gasStation.contract.test.ts.)
 */
import {
  bytesToHex,
  decodeFunctionData,
  encodeAbiParameters,
  encodeErrorResult,
  hashTypedData,
  keccak256,
  numberToHex,
  stringToBytes,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { BATCH_EXECUTOR_ABI } from '../../../src/chains/gasStation/artifact'
import {
  BATCH_NONCE_SLOT,
  type BatchCall,
  batchDigest,
  batchTypedData,
  decodeBatchRevert,
  delegationOf,
  encodeExecute,
} from '../../../src/chains/gasStation/batch'

const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const calls: BatchCall[] = [
  { to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', value: 10n ** 18n, data: '0x' },
  { to: '0x5fbdb2315678afecb367f032d93f642f64180aa3', value: 0n, data: '0xa9059cbb' },
]
const args = { chainId: 31337, account: account.address, calls, nonce: 3n, deadline: 1_800_000_000n }

describe('batchTypedData / batchDigest', () => {
  it('is the BatchExecution of the contract, in the account-bound domain', () => {
    const typed = batchTypedData(args)
    expect(typed.domain).toEqual({ name: 'Sigil Batch Executor', version: '1', chainId: 31337, verifyingContract: account.address })
    expect(typed.primaryType).toBe('BatchExecution')
    expect(typed.types).toEqual({
      Call: [
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'data', type: 'bytes' },
      ],
      BatchExecution: [
        { name: 'calls', type: 'Call[]' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    })
    expect(bytesToHex(batchDigest(args))).toBe(hashTypedData(typed))
  })

  it('matches the digest computed by hand from the contract type hashes', () => {
    const word = (types: string, values: unknown[]) =>
      keccak256(
        encodeAbiParameters(
          types.split(',').map((type) => ({ type })),
          values as never,
        ),
      )
    const domain = word('bytes32,bytes32,bytes32,uint256,address', [
      keccak256(stringToBytes('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)')),
      keccak256(stringToBytes('Sigil Batch Executor')),
      keccak256(stringToBytes('1')),
      31337n,
      account.address,
    ])
    const callHash = keccak256(stringToBytes('Call(address to,uint256 value,bytes data)'))
    const hashes = calls.map((c) => word('bytes32,address,uint256,bytes32', [callHash, c.to, c.value, keccak256(c.data)]))
    const struct = word('bytes32,bytes32,uint256,uint256', [
      keccak256(stringToBytes('BatchExecution(Call[] calls,uint256 nonce,uint256 deadline)Call(address to,uint256 value,bytes data)')),
      keccak256(`0x${hashes.map((h) => h.slice(2)).join('')}`),
      3n,
      1_800_000_000n,
    ])
    expect(bytesToHex(batchDigest(args))).toBe(keccak256(`0x1901${domain.slice(2)}${struct.slice(2)}`))
  })

  it('changes with every field it binds', () => {
    const base = bytesToHex(batchDigest(args))
    for (const other of [
      { ...args, chainId: 1 },
      { ...args, nonce: 4n },
      { ...args, deadline: 1_800_000_001n },
      { ...args, account: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc' },
      { ...args, calls: [calls[1] as BatchCall, calls[0] as BatchCall] },
      { ...args, calls: [{ ...(calls[0] as BatchCall), value: 1n }, calls[1] as BatchCall] },
    ])
      expect(bytesToHex(batchDigest(other))).not.toBe(base)
  })
})

describe('encodeExecute', () => {
  it('encodes execute(calls, deadline, r ‖ s ‖ v) from a hex signature or its parts', async () => {
    const signature = await account.signTypedData(batchTypedData(args))
    const data = encodeExecute(calls, args.deadline, signature)
    const decoded = decodeFunctionData({ abi: BATCH_EXECUTOR_ABI, data })
    expect(decoded.functionName).toBe('execute')
    const [decodedCalls, deadline, packed] = decoded.args ?? []
    expect((decodedCalls as BatchCall[]).map((c) => ({ ...c, to: c.to.toLowerCase() }))).toEqual(calls)
    expect([deadline, packed]).toEqual([args.deadline, signature])
    const r = BigInt(signature.slice(0, 66))
    const s = BigInt(`0x${signature.slice(66, 130)}`)
    const yParity = signature.endsWith('1c') ? 1 : 0
    expect(encodeExecute(calls, args.deadline, { r, s, yParity })).toBe(data)
    expect(encodeExecute(calls, args.deadline, { r: numberToHex(r), s: numberToHex(s, { size: 32 }), yParity })).toBe(data)
  })

  it('refuses signatures that are not 65 bytes or have out-of-range parts, naming the field', () => {
    expect(() => encodeExecute(calls, 1n, '0x1234')).toThrow(/signature: expected 65 bytes/)
    expect(() => encodeExecute(calls, 1n, { r: 0n, s: 1n, yParity: 0 })).toThrow(/signature\.r/)
    expect(() => encodeExecute(calls, 1n, { r: 1n, s: 2n ** 256n, yParity: 0 })).toThrow(/signature\.s/)
    expect(() => encodeExecute(calls, 1n, { r: 'xyz', s: 1n, yParity: 0 })).toThrow(/signature\.r/)
    expect(() => encodeExecute(calls, 1n, { r: 1n, s: 1n, yParity: 2 as 0 })).toThrow(/signature\.yParity/)
  })
})

describe('decodeBatchRevert', () => {
  it("reads the contract's three errors", () => {
    const inner = encodeErrorResult({
      abi: [{ type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] }],
      errorName: 'Error',
      args: ['nope'],
    })
    expect(decodeBatchRevert(encodeErrorResult({ abi: BATCH_EXECUTOR_ABI, errorName: 'CallFailed', args: [2n, inner] }))).toEqual({
      index: 2,
      reason: inner,
    })
    expect(decodeBatchRevert(encodeErrorResult({ abi: BATCH_EXECUTOR_ABI, errorName: 'Expired', args: [99n] }))).toEqual({ expired: 99n })
    expect(decodeBatchRevert(encodeErrorResult({ abi: BATCH_EXECUTOR_ABI, errorName: 'BadSignature' }))).toEqual({ badSignature: true })
  })

  it('gives undefined for anything else', () => {
    for (const data of [undefined, '', '0x', '0x1234', 'not hex', '0xdeadbeef', `0x08c379a0${'00'.repeat(31)}`])
      expect(decodeBatchRevert(data), String(data)).toBeUndefined()
    // A CallFailed whose index is not a safe integer is not trusted.
    expect(
      decodeBatchRevert(encodeErrorResult({ abi: BATCH_EXECUTOR_ABI, errorName: 'CallFailed', args: [2n ** 200n, '0x'] })),
    ).toBeUndefined()
  })
})

describe('delegationOf', () => {
  it('tells no code, an EIP-7702 designator and a contract apart', () => {
    expect(delegationOf('0x')).toEqual({ kind: 'none' })
    expect(delegationOf('')).toEqual({ kind: 'none' })
    expect(delegationOf('0xef0100700B6A60CE7EAAEA56F065753D8DCB9653DBAD35')).toEqual({
      kind: 'delegated',
      to: '0x700b6a60ce7eaaea56f065753d8dcb9653dbad35',
    })
    expect(delegationOf('0xef0100700b6a60ce7eaaea56f065753d8dcb9653dbad3500')).toEqual({ kind: 'contract' })
    expect(delegationOf('0x6080604052')).toEqual({ kind: 'contract' })
  })
})

it('BATCH_NONCE_SLOT is the ERC-7201 slot of sigil.batchexecutor', () => {
  const inner = BigInt(keccak256(toHex('sigil.batchexecutor'))) - 1n
  const slot = BigInt(keccak256(encodeAbiParameters([{ type: 'uint256' }], [inner]))) & ~0xffn
  expect(BATCH_NONCE_SLOT).toBe(numberToHex(slot, { size: 32 }))
})
