/**
 * Velocity controls through the unmodified `@turnkey/http` client: create/get/list/delete with
 * their field errors, and enforcement, not storage: within a control's window a signature or send (ETH,
 * ERC-20, SOL; sign_transaction, eth_send_transaction, sol_send_transaction)
 * under the limit passes and one over it is refused (429 VELOCITY_LIMIT_EXCEEDED naming the
 * control and the remaining allowance) with nothing counted; a rolling window frees its allowance
 * once it has passed; and two service instances on one PostgreSQL signing at once against a limit
 * only one signature fits under sign exactly one.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  address,
  appendTransactionMessageInstruction,
  type Blockhash,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit'
import type { TurnkeyClient } from '@turnkey/http'
import { encodeFunctionData, erc20Abi, type Hex, parseEther, serializeTransaction } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_SOLANA_CAIP2 } from '../../src/chains/networks.js'
import { type EmbeddedCluster, startEmbeddedPostgres } from '../../src/service/store/embeddedPostgres.js'
import { adminTurnkeyClient, freshDatabaseUrl, startTestService, submitBody, type TestService } from './helpers/service.js'

const CHAIN = 'eip155:31337'
const ETH = `${CHAIN}/slip44:60`
const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const RECIPIENT = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

const reasonOf = (json: any): string | undefined => json?.details?.find((d: any) => typeof d.reason === 'string')?.reason
const fieldsOf = (json: any): string[] =>
  (json?.details ?? []).flatMap((d: any) => (d.fieldViolations ?? []).map((v: any) => v.field as string))
const limitOf = (json: any) => json?.details?.find((d: any) => d['@type'] === 'type.googleapis.com/sigil.VelocityLimit')

let nonce = 0
/** An unsigned EIP-1559 transaction on the dev chain paying `value` wei (each one distinct by its nonce). */
const unsignedEth = (value: bigint, data?: Hex, to: Hex = RECIPIENT) =>
  serializeTransaction({
    type: 'eip1559',
    chainId: 31337,
    nonce: nonce++,
    gas: 100_000n,
    maxFeePerGas: 2_000_000_000n,
    maxPriorityFeePerGas: 1n,
    to,
    value,
    ...(data ? { data } : {}),
  })

const signBody = (org: string, signWith: string, unsignedTransaction: string) =>
  submitBody('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', org, { signWith, unsignedTransaction, type: 'TRANSACTION_TYPE_ETHEREUM' })
const sign = (svc: TestService, org: string, signWith: string, unsignedTransaction: string) =>
  svc.post('/public/v1/submit/sign_transaction', signBody(org, signWith, unsignedTransaction))

/** A control in the hosted shape: a native-ETH spend limit per wallet over a rolling window, unless overridden. */
function control(over: { identifier: string; threshold?: string; duration?: string }): ControlParams {
  const { identifier, threshold = '1', duration = '3600' } = over
  return {
    name: `limit ${identifier}`,
    identifier,
    dataSource: { chainAssetTransfer: { definition: [{ caip19: ETH, decimals: '18' }] } },
    aggregation: {
      method: 'VELOCITY_CONTROL_AGGREGATION_METHOD_SUM',
      operator: 'VELOCITY_CONTROL_AGGREGATION_OPERATOR_LESS_THAN_OR_EQUAL',
      threshold,
      window: { rolling: { duration } },
      groupBy: { wallet: {} },
    },
  }
}

/** The official client's own intent type. */
type ControlParams = Parameters<TurnkeyClient['createVelocityControl']>[0]['parameters']

const createControl = (client: TurnkeyClient, org: string, parameters: ControlParams) =>
  client.createVelocityControl({
    type: 'ACTIVITY_TYPE_CREATE_VELOCITY_CONTROL',
    timestampMs: String(Date.now()),
    organizationId: org,
    parameters,
  })
const deleteControl = (client: TurnkeyClient, org: string, velocityControlId: string) =>
  client.deleteVelocityControl({
    type: 'ACTIVITY_TYPE_DELETE_VELOCITY_CONTROL',
    timestampMs: String(Date.now()),
    organizationId: org,
    parameters: { velocityControlId },
  })

/** A new wallet of the organization with one Ethereum account; its address. */
async function ethAccount(client: TurnkeyClient, org: string, name: string): Promise<Hex> {
  const r = await client.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: String(Date.now()),
    organizationId: org,
    parameters: {
      walletName: name,
      accounts: [
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
      ],
    },
  })
  return r.activity.result.createWalletResult?.addresses[0] as Hex
}

/** An unsigned Solana transfer of `lamports` from `from` (hex; a placeholder blockhash the tracker replaces). */
function unsignedSolTransfer(from: string, lamports: bigint): string {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(address(from), m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: '11111111111111111111111111111111' as Blockhash, lastValidBlockHeight: BigInt(nonce++) },
        m,
      ),
    (m) =>
      appendTransactionMessageInstruction(
        getTransferSolInstruction({
          source: createNoopSigner(address(from)),
          destination: address('Sysvar1111111111111111111111111111111111111'),
          amount: lamports + BigInt(nonce++ % 2), // distinct bodies; a lamport more or less
        }),
        m,
      ),
  )
  return Buffer.from(getTransactionEncoder().encode(compileTransaction(message))).toString('hex')
}

describe('velocity controls on one instance', () => {
  let svc: TestService
  let client: TurnkeyClient
  let org: string

  beforeAll(async () => {
    svc = await startTestService()
    client = adminTurnkeyClient(svc)
    org = svc.admin.organizationId
  }, 120_000)
  afterAll(async () => {
    await svc?.stop()
  })

  it('creates, reads, lists (paged) and deletes controls in the hosted shape', async () => {
    const params = control({ identifier: 'crud_a' })
    const created = await createControl(client, org, params)
    const id = created.activity.result.createVelocityControlResult?.velocityControlId as string
    expect(id).toBeTruthy()
    const got = await client.getVelocityControl({ organizationId: org, velocityControlId: id })
    expect(got.velocityControl).toMatchObject({
      velocityControlId: id,
      organizationId: org,
      name: params.name,
      identifier: 'crud_a',
      dataSource: params.dataSource,
      aggregation: params.aggregation,
    })
    expect(Number(got.velocityControl.createdAt.seconds)).toBeGreaterThan(0)
    const second = await createControl(client, org, control({ identifier: 'crud_b' }))
    const id2 = second.activity.result.createVelocityControlResult?.velocityControlId as string
    const all = await client.listVelocityControls({ organizationId: org })
    expect(all.velocityControls.map((c) => c.velocityControlId)).toEqual([id, id2])
    const page = await client.listVelocityControls({ organizationId: org, paginationOptions: { limit: '1', after: id } })
    expect(page.velocityControls.map((c) => c.velocityControlId)).toEqual([id2])
    expect(page.pageInfo.endCursor).toBe(id2)

    const removed = await deleteControl(client, org, id)
    expect(removed.activity.result.deleteVelocityControlResult?.velocityControlId).toBe(id)
    await expect(client.getVelocityControl({ organizationId: org, velocityControlId: id })).rejects.toThrow(/velocityControlId/)
    await expect(deleteControl(client, org, id)).rejects.toThrow(/parameters\.velocityControlId/)
    expect((await client.listVelocityControls({ organizationId: org })).velocityControls.map((c) => c.velocityControlId)).toEqual([id2])
    await deleteControl(client, org, id2)
  })

  it('refuses bad controls with a stable code naming the field', async () => {
    const post = (parameters: unknown) =>
      svc.post('/public/v1/submit/create_velocity_control', submitBody('ACTIVITY_TYPE_CREATE_VELOCITY_CONTROL', org, parameters))
    const base = control({ identifier: 'field_errors' })
    const cases: Array<[unknown, string, number, string]> = [
      [{ ...base, aggregation: { ...base.aggregation, threshold: '-1' } }, 'parameters.aggregation.threshold', 400, 'INVALID_ARGUMENT'],
      [
        { ...base, aggregation: { ...base.aggregation, threshold: '1.1234567890123456789' } },
        'parameters.aggregation.threshold',
        400,
        'INVALID_ARGUMENT',
      ],
      [{ ...base, identifier: '9lives' }, 'parameters.identifier', 400, 'INVALID_ARGUMENT'],
      [{ ...base, name: ' ' }, 'parameters.name', 400, 'INVALID_ARGUMENT'],
      [
        {
          ...base,
          dataSource: {
            chainAssetTransfer: { definition: [{ caip19: 'bip122:000000000019d6689c085ae165831e93/slip44:0', decimals: '8' }] },
          },
        },
        'parameters.dataSource.chainAssetTransfer.definition[0].caip19',
        400,
        'INVALID_ARGUMENT',
      ],
      [
        { ...base, dataSource: { chainAssetTransfer: { definition: [{ caip19: ETH, decimals: '256' }] } } },
        'parameters.dataSource.chainAssetTransfer.definition[0].decimals',
        400,
        'INVALID_ARGUMENT',
      ],
      [{ ...base, dataSource: {} }, 'parameters.dataSource', 400, 'INVALID_ARGUMENT'],
      [
        { ...base, aggregation: { ...base.aggregation, window: { rolling: { duration: '60' }, infinite: {} } } },
        'parameters.aggregation.window',
        400,
        'INVALID_ARGUMENT',
      ],
      [
        { ...base, aggregation: { ...base.aggregation, window: { rolling: { duration: '0' } } } },
        'parameters.aggregation.window.rolling.duration',
        400,
        'INVALID_ARGUMENT',
      ],
      [{ ...base, aggregation: { ...base.aggregation, groupBy: {} } }, 'parameters.aggregation.groupBy', 400, 'INVALID_ARGUMENT'],
      [
        { ...base, aggregation: { ...base.aggregation, operator: 'VELOCITY_CONTROL_AGGREGATION_OPERATOR_GREATER_THAN' } },
        'parameters.aggregation.operator',
        400,
        'INVALID_ARGUMENT',
      ],
      [{ ...base, dataSource: { activityExecution: {} } }, 'parameters.aggregation.method', 400, 'INVALID_ARGUMENT'],
      [
        {
          ...base,
          dataSource: {
            chainAssetTransfer: {
              definition: [{ caip19: ETH, decimals: '18' }],
              filter: { activity: [{ activityType: 'ACTIVITY_TYPE_CREATE_WALLET' }] },
            },
          },
        },
        'parameters.dataSource.chainAssetTransfer.filter.activity[0].activityType',
        400,
        'INVALID_ARGUMENT',
      ],
    ]
    for (const [parameters, field, status, reason] of cases) {
      const r = await post(parameters)
      expect(r.status, `${field}: ${JSON.stringify(r.json)}`).toBe(status)
      expect(reasonOf(r.json)).toBe(reason)
      expect(fieldsOf(r.json)).toContain(field)
    }
    // the identifier is unique within the organization
    const first = await post(base)
    expect(first.status).toBe(200)
    const twice = await post({ ...base, name: 'another name' })
    expect(twice.status).toBe(409)
    expect(reasonOf(twice.json)).toBe('ALREADY_EXISTS')
    expect(fieldsOf(twice.json)).toEqual(['parameters.identifier'])
    await deleteControl(client, org, first.json.activity.result.createVelocityControlResult.velocityControlId)
    // unknown ids
    const missing = await svc.post('/public/v1/query/get_velocity_control', { organizationId: org, velocityControlId: 'nope' })
    expect(missing.status).toBe(404)
    expect(fieldsOf(missing.json)).toEqual(['velocityControlId'])
  })

  it('a signature under the limit passes; one over it is refused naming the control and the remaining allowance', async () => {
    const from = await ethAccount(client, org, 'limited wallet')
    const other = await ethAccount(client, org, 'other wallet')
    const created = await createControl(client, org, control({ identifier: 'one_eth_an_hour', threshold: '1' }))
    const id = created.activity.result.createVelocityControlResult?.velocityControlId as string
    try {
      expect((await sign(svc, org, from, unsignedEth(parseEther('0.4')))).status).toBe(200)
      const over = await sign(svc, org, from, unsignedEth(parseEther('0.7')))
      expect(over.status, JSON.stringify(over.json)).toBe(429)
      expect(reasonOf(over.json)).toBe('VELOCITY_LIMIT_EXCEEDED')
      expect(over.json.message).toContain('limit one_eth_an_hour')
      expect(over.json.message).toContain(id)
      expect(over.json.message).toContain('0.6 of its assets remain')
      expect(limitOf(over.json)).toMatchObject({
        velocityControlId: id,
        identifier: 'one_eth_an_hour',
        remaining: '0.6',
        requested: '0.7',
        spent: '0.4',
      })
      // the refused one counted nothing: exactly what remains still fits, then nothing more
      expect((await sign(svc, org, from, unsignedEth(parseEther('0.6')))).status).toBe(200)
      const wei = await sign(svc, org, from, unsignedEth(1n))
      expect(wei.status).toBe(429)
      expect(limitOf(wei.json)?.remaining).toBe('0')
      // a transaction moving no ETH is not counted; another wallet has a bucket of its own
      expect((await sign(svc, org, from, unsignedEth(0n))).status).toBe(200)
      expect((await sign(svc, org, other, unsignedEth(parseEther('1')))).status).toBe(200)
      // the same limit holds for sends: eth_send_transaction is counted by the same control
      const send = await svc.post(
        '/public/v1/submit/eth_send_transaction',
        submitBody('ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2', org, { caip2: CHAIN, from: other, calls: [{ to: RECIPIENT, value: '1' }] }),
      )
      expect(send.status, JSON.stringify(send.json)).toBe(429)
      expect(limitOf(send.json)?.velocityControlId).toBe(id)
    } finally {
      await deleteControl(client, org, id)
    }
    // deleted: no longer enforced
    expect((await sign(svc, org, from, unsignedEth(parseEther('5')))).status).toBe(200)
  })

  it('ERC-20 transfer amounts count against a control naming the token, in its decimals', async () => {
    const from = await ethAccount(client, org, 'token wallet')
    const params = control({ identifier: 'usdc_limit', threshold: '10' })
    const created = await createControl(client, org, {
      ...params,
      dataSource: { chainAssetTransfer: { definition: [{ caip19: `${CHAIN}/erc20:${TOKEN}`, decimals: '6' }] } },
      aggregation: { ...params.aggregation, operator: 'VELOCITY_CONTROL_AGGREGATION_OPERATOR_LESS_THAN' },
    })
    const id = created.activity.result.createVelocityControlResult?.velocityControlId as string
    const transfer = (amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [RECIPIENT, amount] })
    try {
      expect((await sign(svc, org, from, unsignedEth(0n, transfer(9_000_000n), TOKEN))).status).toBe(200)
      // LESS_THAN: reaching the threshold exactly is over it
      const over = await sign(svc, org, from, unsignedEth(0n, transfer(1_000_000n), TOKEN))
      expect(over.status).toBe(429)
      expect(limitOf(over.json)).toMatchObject({ remaining: '1', requested: '1' })
      expect(over.json.message).toContain('below the threshold')
      expect((await sign(svc, org, from, unsignedEth(0n, transfer(999_999n), TOKEN))).status).toBe(200)
      // native ETH is not this control's asset
      expect((await sign(svc, org, from, unsignedEth(parseEther('100')))).status).toBe(200)
    } finally {
      await deleteControl(client, org, id)
    }
  })

  it('SOL moved by sol_send_transaction and by a Solana sign_transaction counts against a SOL control', async () => {
    const r = await client.createWallet({
      type: 'ACTIVITY_TYPE_CREATE_WALLET',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: {
        walletName: 'sol wallet',
        accounts: [
          { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' },
        ],
      },
    })
    const sol = r.activity.result.createWalletResult?.addresses[0] as string
    const params = control({ identifier: 'one_sol', threshold: '1' })
    const created = await createControl(client, org, {
      ...params,
      dataSource: { chainAssetTransfer: { definition: [{ caip19: `${DEV_SOLANA_CAIP2}/slip44:501`, decimals: '9' }] } },
    })
    const id = created.activity.result.createVelocityControlResult?.velocityControlId as string
    const solSend = (lamports: bigint) =>
      svc.post(
        '/public/v1/submit/sol_send_transaction',
        submitBody('ACTIVITY_TYPE_SOL_SEND_TRANSACTION_V2', org, {
          unsignedTransaction: unsignedSolTransfer(sol, lamports),
          signWiths: [sol],
          caip2: DEV_SOLANA_CAIP2,
        }),
      )
    try {
      const first = await solSend(600_000_000n)
      expect(first.status, JSON.stringify(first.json)).toBe(200)
      const over = await solSend(500_000_000n)
      expect(over.status, JSON.stringify(over.json)).toBe(429)
      expect(limitOf(over.json)?.velocityControlId).toBe(id)
      expect(Number(limitOf(over.json)?.remaining)).toBeLessThan(0.41)
      expect(Number(limitOf(over.json)?.remaining)).toBeGreaterThan(0.39)
      // a sign_transaction names no network: the SOL it moves counts against every SOL asset of the control
      const signed = await svc.post(
        '/public/v1/submit/sign_transaction',
        submitBody('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', org, {
          signWith: sol,
          unsignedTransaction: unsignedSolTransfer(sol, 500_000_000n),
          type: 'TRANSACTION_TYPE_SOLANA',
        }),
      )
      expect(signed.status, JSON.stringify(signed.json)).toBe(429)
      expect(reasonOf(signed.json)).toBe('VELOCITY_LIMIT_EXCEEDED')
    } finally {
      await deleteControl(client, org, id)
    }
  })

  it("a rolling window's allowance comes back once the window has passed", async () => {
    const from = await ethAccount(client, org, 'window wallet')
    const params = control({ identifier: 'one_per_second', threshold: '1', duration: '1' })
    const created = await createControl(client, org, {
      ...params,
      dataSource: { activityExecution: { filter: { activity: [{ activityType: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2' }] } } },
      aggregation: { ...params.aggregation, method: 'VELOCITY_CONTROL_AGGREGATION_METHOD_COUNT', groupBy: { organization: {} } },
    })
    const id = created.activity.result.createVelocityControlResult?.velocityControlId as string
    try {
      expect((await sign(svc, org, from, unsignedEth(0n))).status).toBe(200)
      const again = await sign(svc, org, from, unsignedEth(0n))
      expect(again.status).toBe(429)
      expect(again.json.message).toContain('0 activities remain of 1 in its rolling window of 1 seconds')
      await new Promise((r) => setTimeout(r, 1100))
      expect((await sign(svc, org, from, unsignedEth(0n))).status).toBe(200)
      // what fell out of the window is gone: only the last signature is still counted
      const rows = await svc.rt.db.query<{ n: number }>('SELECT count(*)::int AS n FROM velocity_spends WHERE control_id = $1', [id])
      expect(rows[0]?.n).toBe(1)
    } finally {
      await deleteControl(client, org, id)
    }
  })
})

describe('velocity controls across two instances on one PostgreSQL', () => {
  let a: TestService
  let b: TestService
  let cluster: EmbeddedCluster | undefined
  const dataDir = mkdtempSync(join(tmpdir(), 'sigil-velocity-instances-'))
  const pgDir = mkdtempSync(join(tmpdir(), 'sigil-velocity-pg-'))

  beforeAll(async () => {
    // One database and one data dir (master key, admin key): two instances of one deployment.
    let databaseUrl = await freshDatabaseUrl()
    if (!databaseUrl) {
      cluster = await startEmbeddedPostgres(pgDir)
      databaseUrl = cluster.url
    }
    a = await startTestService({ databaseUrl, dataDir })
    b = await startTestService({ databaseUrl, dataDir })
  }, 120_000)
  afterAll(async () => {
    await a?.stop()
    await b?.stop()
    await cluster?.stop()
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(pgDir, { recursive: true, force: true })
  })

  it('signatures sent to both instances at once, of which only one fits under the limit: exactly one is signed', async () => {
    const client = adminTurnkeyClient(a)
    const org = a.admin.organizationId
    const from = await ethAccount(client, org, 'raced wallet')
    await createControl(client, org, control({ identifier: 'raced', threshold: '1' }))
    for (let round = 0; round < 3; round++) {
      // each round has its own wallet bucket: 0.6 ETH fits once under 1 ETH
      const wallet = round === 0 ? from : await ethAccount(client, org, `raced wallet ${round}`)
      const bodies = Array.from({ length: 6 }, () => signBody(org, wallet, unsignedEth(parseEther('0.6'))))
      const answers = await Promise.all(bodies.map((body, i) => (i % 2 === 0 ? a : b).post('/public/v1/submit/sign_transaction', body)))
      const statuses = answers.map((r) => r.status)
      expect(
        statuses.filter((s) => s === 200),
        JSON.stringify(answers.map((r) => r.json?.message ?? r.status)),
      ).toHaveLength(1)
      expect(statuses.filter((s) => s === 429)).toHaveLength(5)
      for (const r of answers.filter((x) => x.status === 429)) expect(limitOf(r.json)).toMatchObject({ remaining: '0.4', requested: '0.6' })
    }
    const [row] = await a.rt.db.query<{ n: number }>('SELECT count(*)::int AS n FROM velocity_spends')
    expect(row?.n).toBe(3)
  }, 120_000)
})
