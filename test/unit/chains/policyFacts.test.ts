/**
 * The resource namespaces of the policy context, parsed from what an activity signs or sends
 * (src/chains/policy/*): `eth.tx`, `eth.eip_712`, `solana.tx`. Vectors are built in the test with
 * viem (Ethereum envelopes of every type, ABI calldata), @solana/kit and @solana-program/* (legacy
 * and v0 messages, address lookup tables); each is then read back by the docs' example policies
 * (tkhq/docs features/policies, commit c8289df) through the evaluator, so a field name or a value
 * form the docs do not use fails here.
 */
import { base58 } from '@scure/base'
import { getTransferSolInstruction } from '@solana-program/system'
import { getTransferCheckedInstruction, getTransferInstruction } from '@solana-program/token'
import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createNoopSigner,
  createTransactionMessage,
  getCompiledTransactionMessageEncoder,
  compileTransactionMessage,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit'
import { type Abi, encodeFunctionData, parseTransaction, serializeTransaction, type TransactionSerializable } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeContractCall, ethTxFromSendCall, ethTxFromSerialized } from '../../../src/chains/policy/ethTx'
import { eip712FromPayload } from '../../../src/chains/policy/eip712'
import { ADDRESS_TABLE_LOOKUP, solanaTxFromHex } from '../../../src/chains/policy/solanaTx'
import type { AbiItem } from '../../../src/chains/contractInterfaces'
import { bytesToHex } from '../../../src/crypto/encoding'
import { decide, type PolicyContext, parsePolicy } from '../../../src/service/policy/index'

const TO = '0x2222222222222222222222222222222222222222'
const CHECKSUMMED = '0x52908400098527886E0F7030069857D2E4169EE7'
const FROM = '0x8617E340B3D01FA5F11F306F4090FD50E238070D'

/** True when `condition` makes an ALLOW policy apply to `ctx` (the evaluator's outcome, not a re-implementation). */
function applies(condition: string, ctx: Partial<PolicyContext>): boolean {
  const parsed = parsePolicy({ condition, consensus: '' })
  if (!parsed.ok) throw new Error(`policy does not parse: ${condition}`)
  const d = decide(
    [{ policyId: 'p', effect: 'EFFECT_ALLOW', parsed: parsed.policy }],
    { approvers: [], credentials: [], now: new Date(0), ...ctx },
    { rootQuorum: false },
  )
  return d.outcome === 'OUTCOME_ALLOW'
}

const base = { to: TO, nonce: 7, gas: 21_000n, value: 1_000_000_000_000_000_000n, data: '0xa9059cbb' } as const

describe('eth.tx from a serialized transaction', () => {
  const cases: Array<[string, TransactionSerializable, Record<string, unknown>]> = [
    ['LEGACY (EIP-155)', { ...base, type: 'legacy', chainId: 1, gasPrice: 30n }, { gas_price: 30n, chain_id: 1n }],
    ['TYPE_1 (EIP-2930)', { ...base, type: 'eip2930', chainId: 10, gasPrice: 31n, accessList: [] }, { gas_price: 31n, chain_id: 10n }],
    [
      'TYPE_2 (EIP-1559)',
      { ...base, type: 'eip1559', chainId: 8453, maxFeePerGas: 50n, maxPriorityFeePerGas: 2n },
      { gas_price: 50n, max_fee_per_gas: 50n, max_priority_fee_per_gas: 2n, chain_id: 8453n },
    ],
    [
      'TYPE_3 (EIP-4844)',
      {
        ...base,
        type: 'eip4844',
        chainId: 1,
        maxFeePerGas: 50n,
        maxPriorityFeePerGas: 2n,
        maxFeePerBlobGas: 9n,
        blobVersionedHashes: [`0x01${'ab'.repeat(31)}`],
      },
      { max_fee_per_blob_gas: 9n, max_fee_per_gas: 50n },
    ],
    [
      'TYPE_4 (EIP-7702)',
      {
        ...base,
        type: 'eip7702',
        chainId: 1,
        maxFeePerGas: 50n,
        maxPriorityFeePerGas: 2n,
        authorizationList: [{ address: TO, chainId: 1, nonce: 0, r: `0x${'11'.repeat(32)}`, s: `0x${'22'.repeat(32)}`, yParity: 0 }],
      },
      { max_fee_per_gas: 50n },
    ],
  ]
  for (const [type, tx, extra] of cases) {
    it(`${type}: every documented field, hex lower case`, () => {
      const hex = serializeTransaction(tx)
      const facts = ethTxFromSerialized(hex, CHECKSUMMED)
      expect(facts).toMatchObject({
        type: type.split(' ')[0],
        from: CHECKSUMMED.toLowerCase(),
        to: TO,
        data: '0xa9059cbb',
        value: 10n ** 18n,
        gas: 21_000n,
        nonce: 7n,
        ...extra,
      })
      // The same bytes without the 0x prefix (what sign_transaction usually carries).
      const { from: _from, ...unsigned } = facts ?? {}
      expect(ethTxFromSerialized(hex.slice(2))).toEqual(unsigned)
    })
  }

  it("EIP-155's example transaction (a signed legacy envelope with chain id 1)", () => {
    const signed = serializeTransaction(
      {
        type: 'legacy',
        chainId: 1,
        nonce: 9,
        gasPrice: 20_000_000_000n,
        gas: 21_000n,
        to: '0x3535353535353535353535353535353535353535',
        value: 10n ** 18n,
      },
      {
        r: '0x28ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276',
        s: '0x67cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83',
        v: 37n,
      },
    )
    // EIP-155's example transaction (eips.ethereum.org/EIPS/eip-155, "Example"): its signed hex and this are the same bytes.
    expect(signed).toBe(
      '0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83',
    )
    expect(ethTxFromSerialized(signed)).toMatchObject({
      type: 'LEGACY',
      to: '0x3535353535353535353535353535353535353535',
      value: 10n ** 18n,
      nonce: 9n,
      gas_price: 20_000_000_000n,
      chain_id: 1n,
    })
    expect(parseTransaction(signed).chainId).toBe(1)
    // Signed: `from` is the address the signature recovers (EIP-155's example key 0x4646…46).
    expect(ethTxFromSerialized(signed)?.from).toBe('0x9d8a62f656a8d1615c1294fd71e9cfb3e4855a4f')
  })

  it("a contract creation has to '' (the docs' eth.tx.to == '')", () => {
    const hex = serializeTransaction({
      type: 'eip1559',
      chainId: 8453,
      nonce: 0,
      gas: 1n,
      maxFeePerGas: 1n,
      maxPriorityFeePerGas: 1n,
      data: '0x6000',
    })
    const tx = ethTxFromSerialized(hex)
    expect(tx?.to).toBe('')
    expect(applies("eth.tx.to == '' && eth.tx.chain_id == 8453", { eth: { ...(tx ? { tx } : {}) } })).toBe(true)
  })

  it('bytes that are not a transaction give nothing (the namespace stays absent)', () => {
    for (const bad of ['', '0x', 'zz', '0x1', '0xdeadbeef', `0x02${'ff'.repeat(40)}`]) expect(ethTxFromSerialized(bad)).toBeUndefined()
  })

  it('checksummed addresses compare in lower case, as the docs ask policies to write hex', () => {
    const tx = ethTxFromSerialized(serializeTransaction({ ...base, to: CHECKSUMMED, type: 'eip1559', chainId: 1, maxFeePerGas: 1n }))
    expect(tx?.to).toBe(CHECKSUMMED.toLowerCase())
    expect(applies(`eth.tx.to in ['${CHECKSUMMED.toLowerCase()}']`, { eth: { ...(tx ? { tx } : {}) } })).toBe(true)
    expect(applies('eth.tx.value > 1000000000000000000', { eth: { ...(tx ? { tx } : {}) } })).toBe(false)
    expect(applies('eth.tx.value >= 1000000000000000000', { eth: { ...(tx ? { tx } : {}) } })).toBe(true)
  })
})

describe('eth.tx from an eth_send_transaction call', () => {
  it('reads its intent fields; what the service fills is absent', () => {
    const tx = ethTxFromSendCall({
      from: FROM,
      to: CHECKSUMMED,
      value: '0x10',
      data: '0xA9059CBB',
      caip2: 'eip155:31337',
      maxFeePerGas: '100',
    })
    expect(tx).toEqual({
      from: FROM.toLowerCase(),
      to: CHECKSUMMED.toLowerCase(),
      data: '0xa9059cbb',
      value: 16n,
      gas_price: 100n,
      max_fee_per_gas: 100n,
      chain_id: 31337n,
      type: 'TYPE_2',
    })
    expect(applies('eth.tx.nonce <= 3', { eth: { tx } })).toBe(false)
    expect(ethTxFromSendCall({ from: FROM, to: TO, caip2: 'solana:x' }).chain_id).toBeUndefined()
  })
})

const ERC20: AbiItem[] = [
  {
    type: 'function',
    name: 'transfer',
    inputs: [
      { name: '_to', type: 'address' },
      { name: '_amount', type: 'uint256' },
    ],
    outputs: [],
  },
  { type: 'event', name: 'Transfer', inputs: [{ name: 'from', type: 'address', indexed: true }] },
]
const BATCH: AbiItem[] = [
  {
    type: 'function',
    name: 'executeBatch',
    inputs: [
      {
        name: 'calls',
        type: 'tuple[]',
        components: [
          { name: 'target', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'data', type: 'bytes' },
        ],
      },
    ],
  },
  { type: 'function', name: 'disperse', inputs: [{ name: 'recipients', type: 'address[]' }, { type: 'uint256' }] },
]

describe('contract calls decoded with an uploaded ABI', () => {
  it("ERC-20 transfer: function_name, function_signature and contract_call_args (the docs' WETH example shape)", () => {
    const data = encodeFunctionData({ abi: ERC20 as unknown as Abi, functionName: 'transfer', args: [CHECKSUMMED, 5n] })
    const call = decodeContractCall([ERC20], data)
    expect(call).toEqual({
      function_name: 'transfer',
      function_signature: '0xa9059cbb',
      contract_call_args: { _to: CHECKSUMMED.toLowerCase(), _amount: 5n },
    })
    const eth = { tx: { to: TO, data, value: 0n, type: 'TYPE_2', ...call } }
    expect(applies("eth.tx.function_name == 'transfer' && eth.tx.function_signature == '0xa9059cbb'", { eth })).toBe(true)
    expect(
      applies(`eth.tx.contract_call_args['_amount'] < 10 && eth.tx.contract_call_args['_to'] == '${CHECKSUMMED.toLowerCase()}'`, { eth }),
    ).toBe(true)
  })

  it('tuple arrays are lists of lists (call[0], call[1]); unnamed arguments are named by position', () => {
    const data = encodeFunctionData({
      abi: BATCH as unknown as Abi,
      functionName: 'executeBatch',
      args: [
        [
          { target: CHECKSUMMED, value: 0n, data: '0xABCD' },
          { target: TO, value: 3n, data: '0x' },
        ],
      ],
    })
    const call = decodeContractCall([ERC20, BATCH], data)
    expect(call?.contract_call_args).toEqual({
      calls: [
        [CHECKSUMMED.toLowerCase(), 0n, '0xabcd'],
        [TO, 3n, '0x'],
      ],
    })
    const eth = { tx: { to: TO, data, value: 0n, type: 'TYPE_2', ...call } }
    expect(applies("eth.tx.function_name == 'executeBatch' && eth.tx.contract_call_args['calls'].count() <= 2", { eth })).toBe(true)
    expect(applies(`eth.tx.contract_call_args['calls'].all(call, call[0] == '${TO}' && call[1] == 0)`, { eth })).toBe(false)
    expect(applies(`eth.tx.contract_call_args['calls'].any(call, call[0] == '${TO}' && call[1] == 3)`, { eth })).toBe(true)

    const disperse = encodeFunctionData({ abi: BATCH as unknown as Abi, functionName: 'disperse', args: [[TO, FROM], 9n] })
    expect(decodeContractCall([BATCH], disperse)?.contract_call_args).toEqual({ recipients: [TO, FROM.toLowerCase()], '1': 9n })
  })

  it('no ABI declaring the selector, or arguments that do not decode: nothing', () => {
    expect(decodeContractCall([BATCH], '0xa9059cbb')).toBeUndefined()
    expect(decodeContractCall([ERC20], '0xa9059cbb0000')).toBeUndefined()
    expect(decodeContractCall([ERC20], '0x')).toBeUndefined()
    expect(decodeContractCall([], '0xa9059cbb')).toBeUndefined()
  })
})

const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const PERMIT2 = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    TokenPermissions: [
      { name: 'token', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    PermitBatchTransferFrom: [
      { name: 'permitted', type: 'TokenPermissions[]' },
      { name: 'spender', type: 'address' },
      { name: 'nonce', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
    ],
  },
  primaryType: 'PermitBatchTransferFrom',
  domain: { name: 'Permit2', chainId: '1', verifyingContract: '0x000000000022D473030F116dDEE9F6B43aC78BA3' },
  message: {
    permitted: [
      { token: USDC, amount: '50000000' },
      { token: USDC, amount: 2 },
    ],
    spender: FROM,
    nonce: '0x01',
    deadline: 1_900_000_000,
  },
}

describe('eth.eip_712 from typed-data JSON', () => {
  it('Permit2 batch: primary_type, domain, message with integers and lower-case addresses', () => {
    const facts = eip712FromPayload(JSON.stringify(PERMIT2))
    expect(facts).toEqual({
      primary_type: 'PermitBatchTransferFrom',
      domain: { name: 'Permit2', chain_id: 1n, verifying_contract: '0x000000000022d473030f116ddee9f6b43ac78ba3' },
      message: {
        permitted: [
          { token: USDC.toLowerCase(), amount: 50_000_000n },
          { token: USDC.toLowerCase(), amount: 2n },
        ],
        spender: FROM.toLowerCase(),
        nonce: 1n,
        deadline: 1_900_000_000n,
      },
    })
    const eth = { eip_712: facts as NonNullable<typeof facts> }
    // tkhq/docs features/policies/examples/signing-control (Permit2), addresses written in lower case as the language page asks.
    expect(
      applies(
        `eth.eip_712.domain.name == 'Permit2' && eth.eip_712.primary_type == 'PermitBatchTransferFrom' && eth.eip_712.message['permitted'].all(p, p['token'] == '${USDC.toLowerCase()}')`,
        { eth },
      ),
    ).toBe(true)
    expect(applies(`eth.eip_712.message['permitted'].any(p, p['amount'] < 100000000)`, { eth })).toBe(true)
    expect(applies("eth.eip_712.domain.verifying_contract == '0x000000000022d473030f116ddee9f6b43ac78ba3'", { eth })).toBe(true)
  })

  it('not typed data: nothing', () => {
    for (const bad of ['', 'null', '[]', '{"primaryType":1,"message":{}}', '{"primaryType":"A"}', '{'.repeat(100) + '}'.repeat(100)]) {
      expect(eip712FromPayload(bad)).toBeUndefined()
    }
  })
})

/** A valid address of 32 bytes `n`. */
const key = (n: number) => address(base58.encode(new Uint8Array(32).fill(n)))
const BLOCKHASH = '4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi' as Blockhash
const SYSTEM = '11111111111111111111111111111111'
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'

describe('solana.tx from a transaction or message', () => {
  const payer = createNoopSigner(address('9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin'))
  const recipient = key(2)
  const mint = key(3)
  const source = key(4)
  const destination = key(5)

  const message = () =>
    pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(payer.address, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: BLOCKHASH, lastValidBlockHeight: 1n }, m),
      (m) =>
        appendTransactionMessageInstructions(
          [
            getTransferSolInstruction({ source: payer, destination: recipient, amount: 1000n }),
            getTransferCheckedInstruction({ source, mint, destination, authority: payer, amount: 999n, decimals: 6 }),
            getTransferInstruction({ source, destination, authority: payer, amount: 5n }),
          ],
          m,
        ),
    )

  it('a whole transaction: keys, programs, instructions, SOL and SPL transfers, blockhash', () => {
    const hex = bytesToHex(new Uint8Array(getTransactionEncoder().encode(compileTransaction(message()))))
    const tx = solanaTxFromHex(hex)
    expect(tx?.account_keys[0]).toBe(payer.address)
    expect(tx?.program_keys).toEqual([SYSTEM, TOKEN])
    expect(tx?.recent_blockhash).toBe(BLOCKHASH)
    expect(tx?.transfers).toEqual([{ from: payer.address, to: recipient, amount: 1000n }])
    expect(tx?.spl_transfers).toEqual([
      { from: source, to: destination, amount: 999n, owner: payer.address, signers: [], token_mint: mint },
      { from: source, to: destination, amount: 5n, owner: payer.address, signers: [], token_mint: '' },
    ])
    expect(tx?.instructions[0]).toEqual({
      program_key: SYSTEM,
      accounts: [
        { account_key: payer.address, signer: true, writable: true },
        { account_key: recipient, signer: false, writable: true },
      ],
      instruction_data_hex: '02000000e803000000000000',
      address_table_lookups: [],
    })
    expect(tx?.address_table_lookups).toEqual([])
    const solana = { tx: tx as NonNullable<typeof tx> }
    // tkhq/docs features/policies/examples/solana.
    expect(applies("solana.tx.instructions[0].instruction_data_hex == '02000000e803000000000000'", { solana })).toBe(true)
    expect(applies(`solana.tx.transfers.count == 1 && solana.tx.transfers[0].to == '${recipient}'`, { solana })).toBe(true)
    expect(applies(`solana.tx.program_keys.all(p, p == '${SYSTEM}')`, { solana })).toBe(false)
    expect(applies(`solana.tx.spl_transfers.all(t, t.owner == '${payer.address}' && t.amount < 1000000)`, { solana })).toBe(true)
  })

  it('a bare v0 message with a lookup table: looked-up accounts are ADDRESS_TABLE_LOOKUP', () => {
    const table = key(6)
    const compressed = compressTransactionMessageUsingAddressLookupTables(message(), { [table]: [recipient, destination] as Address[] })
    const bytes = new Uint8Array(getCompiledTransactionMessageEncoder().encode(compileTransactionMessage(compressed)))
    const tx = solanaTxFromHex(bytesToHex(bytes))
    expect(tx?.address_table_lookups).toEqual([{ address_table_key: table, writable_indexes: [0n, 1n], readonly_indexes: [] }])
    expect(tx?.account_keys.filter((k) => k === ADDRESS_TABLE_LOOKUP)).toHaveLength(2)
    expect(tx?.transfers).toEqual([{ from: payer.address, to: ADDRESS_TABLE_LOOKUP, amount: 1000n }])
    expect(tx?.spl_transfers.map((t) => t.to)).toEqual([ADDRESS_TABLE_LOOKUP, ADDRESS_TABLE_LOOKUP])
    expect(tx?.instructions[0]?.address_table_lookups).toEqual(tx?.address_table_lookups)
    expect(tx?.instructions[0]?.accounts[1]).toEqual({ account_key: ADDRESS_TABLE_LOOKUP, signer: false, writable: true })
    const solana = { tx: tx as NonNullable<typeof tx> }
    expect(
      applies(
        "solana.tx.transfers.any(t, t.to == 'ADDRESS_TABLE_LOOKUP') || solana.tx.spl_transfers.any(t, t.to == 'ADDRESS_TABLE_LOOKUP')",
        { solana },
      ),
    ).toBe(true)
    expect(applies('solana.tx.address_table_lookups.count() > 0', { solana })).toBe(true)
  })

  it('bytes that are not Solana: nothing', () => {
    for (const bad of ['', '00', 'zz', `01${'00'.repeat(64)}`]) expect(solanaTxFromHex(bad)).toBeUndefined()
  })
})
