import { createServer } from 'node:http'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  type Address,
  address,
  appendTransactionMessageInstruction,
  compileTransaction,
  createNoopSigner,
  createSolanaRpc,
  createTransactionMessage,
  devnet,
  generateKeyPairSigner,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Blockhash,
} from '@solana/kit'
import { TurnkeyClient } from '@turnkey/http'
import { HDKey } from '@scure/bip32'
import { mnemonicToSeedSync } from '@scure/bip39'
import { Transaction } from 'micro-eth-signer'
import { createPublicClient, http, parseEther, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_SOLANA_CAIP2, resolveNetworks } from '../../src/chains/networks.js'
import { DEV_FUNDER, DEV_MNEMONIC, startEvmNode } from '../../src/devchain/evm.js'
import { type RunningDevChains, startDevChains } from '../../src/devchain/index.js'
import { sendFromDevFunder } from './helpers/devchain.js'
import { freePort } from './helpers/process.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

let chains: RunningDevChains
let svc: TestService
let client: TurnkeyClient
let org: string
let eth: string
let sol: string
let offlinePort: number

beforeAll(async () => {
  chains = await startDevChains({ evmPort: await freePort(), solanaPort: 0 })
  offlinePort = await freePort()
  svc = await startTestService({
    networks: resolveNetworks(
      `eip155:31337=${chains.evm.url},${DEV_SOLANA_CAIP2}=${chains.solana.url},eip155:31338=http://127.0.0.1:${offlinePort}`,
    ),
  })
  org = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
  const wallet = await client.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: String(Date.now()),
    organizationId: org,
    parameters: {
      walletName: 'sends',
      accounts: [
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
        { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' },
      ],
    },
  })
  ;[eth, sol] = wallet.activity.result.createWalletResult?.addresses as [string, string]
  expect((await svc.post('/dev/faucet', { caip2: 'eip155:31337', address: eth, amount: '10' }, null)).status).toBe(200)
  expect((await svc.post('/dev/faucet', { caip2: DEV_SOLANA_CAIP2, address: sol, amount: '2' }, null)).status).toBe(200)
})
afterAll(async () => {
  await svc?.stop()
  await chains?.close()
})

const evm = () => createPublicClient({ transport: http(chains.evm.url) })
const solanaRpc = () => createSolanaRpc(devnet(chains.solana.url))

/** Polls get_send_transaction_status (official client) until a terminal state. */
async function settle(sendTransactionStatusId: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const status = await client.getSendTransactionStatus({ organizationId: org, sendTransactionStatusId })
    if (status.txStatus === 'INCLUDED' || status.txStatus === 'FAILED' || Date.now() > deadline) return status
    await new Promise((r) => setTimeout(r, 50))
  }
}

const ethSend = (parameters: Record<string, unknown>) =>
  svc.post(
    '/public/v1/submit/eth_send_transaction',
    submitBody('ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2', org, { from: eth, caip2: 'eip155:31337', ...parameters }),
  )

/** Init code of a contract whose every call reverts with `revertData` (at most 243 bytes). */
function revertingContract(revertData: string): string {
  const data = revertData.replace(/^0x/, '')
  const len = data.length / 2
  const b = (n: number) => n.toString(16).padStart(2, '0')
  // runtime: CODECOPY(0, 12, len); REVERT(0, len); then the data
  const runtime = `60${b(len)}600c600039` + `60${b(len)}6000fd` + data
  const rlen = runtime.length / 2
  // init: CODECOPY(0, 12, rlen); RETURN(0, rlen); then the runtime
  return `0x60${b(rlen)}600c600039` + `60${b(rlen)}6000f3` + runtime
}

async function deploy(initCode: string): Promise<string> {
  const receipt = await sendFromDevFunder(chains.evm.url, { data: initCode, gas: '0x100000' })
  return receipt.contractAddress as string
}

describe('eth_send_transaction', () => {
  it('fills nonce, gas and fees, signs, broadcasts and tracks to INCLUDED (official client, V2 calls)', async () => {
    const to = '0x2222222222222222222222222222222222222222'
    const res = await client.ethSendTransaction({
      type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: { from: eth, caip2: 'eip155:31337' as any, calls: [{ to, value: parseEther('0.1').toString() }] },
    })
    const id = res.activity.result.ethSendTransactionResultV2?.sendTransactionStatusId as string
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    const status = await settle(id)
    expect(status.txStatus).toBe('INCLUDED')
    const receipt = await evm().getTransactionReceipt({ hash: status.eth?.txHash as Hex })
    expect(receipt.status).toBe('success')
    expect(receipt.from.toLowerCase()).toBe(eth.toLowerCase())
    expect(await evm().getBalance({ address: to })).toBe(parseEther('0.1'))
    const tx = await evm().getTransaction({ hash: status.eth?.txHash as Hex })
    expect(tx.type).toBe('eip1559')
  })

  it('sends several in a row from one address with consecutive nonces; a byte-identical resubmission sends nothing more', async () => {
    const start = await evm().getTransactionCount({ address: eth as Hex })
    const bodies = [1, 2, 3].map((i) =>
      submitBody('ACTIVITY_TYPE_ETH_SEND_TRANSACTION', org, {
        from: eth,
        caip2: 'eip155:31337',
        to: '0x3333333333333333333333333333333333333333',
        value: String(i),
      }),
    )
    const ids: string[] = []
    for (const body of bodies) {
      const r = await svc.post('/public/v1/submit/eth_send_transaction', body)
      expect(r.status).toBe(200)
      ids.push(r.json.activity.result.ethSendTransactionResult.sendTransactionStatusId)
    }
    const again = await svc.post('/public/v1/submit/eth_send_transaction', bodies[0])
    expect(again.json.activity.result.ethSendTransactionResult.sendTransactionStatusId).toBe(ids[0])
    const statuses = await Promise.all(ids.map((id) => settle(id)))
    expect(statuses.map((s) => s.txStatus)).toEqual(['INCLUDED', 'INCLUDED', 'INCLUDED'])
    const nonces = await Promise.all(statuses.map(async (s) => (await evm().getTransaction({ hash: s.eth?.txHash as Hex })).nonce))
    expect(nonces).toEqual([start, start + 1, start + 2])
    expect(await evm().getTransactionCount({ address: eth as Hex })).toBe(start + 3)
    const { nonce } = await client.getNonces({ organizationId: org, address: eth, caip2: 'eip155:31337' as any, nonce: true })
    expect(nonce).toBe(String(start + 3))
    // An account that never ran a Gas Station batch is at batch nonce 0; a network without a Gas Station has none.
    const station = await svc.post('/public/v1/query/get_nonces', {
      organizationId: org,
      address: eth,
      caip2: 'eip155:31337',
      gasStationNonce: true,
    })
    expect(station.status).toBe(200)
    expect(station.json).toEqual({ gasStationNonce: '0' })
    const none = await svc.post('/public/v1/query/get_nonces', {
      organizationId: org,
      address: eth,
      caip2: 'eip155:31338',
      gasStationNonce: true,
    })
    expect(none.status).toBe(400)
    expect(none.json.message).toContain('gasStationNonce')
    expect(await evm().getBalance({ address: '0x3333333333333333333333333333333333333333' })).toBe(6n)
  })

  it('ends FAILED with the revert decoded: Error(string) in simulation, Panic and unknown selectors on chain', async () => {
    const errorString = `0x08c379a0${(32).toString(16).padStart(64, '0')}${(4).toString(16).padStart(64, '0')}${Buffer.from('nope').toString('hex').padEnd(64, '0')}`
    const reverts = await deploy(revertingContract(errorString))
    const simulated = await settle(
      (await ethSend({ calls: [{ to: reverts, data: '0x12345678' }] })).json.activity.result.ethSendTransactionResultV2
        .sendTransactionStatusId,
    )
    expect(simulated.txStatus).toBe('FAILED')
    expect(simulated.error?.revertChain?.[0]).toMatchObject({
      errorType: 'native',
      native: { nativeType: 'error_string', message: 'nope' },
    })
    expect(simulated.txError).toContain('nope')
    expect(simulated.eth?.txHash).toBeUndefined()

    const panic = await deploy(revertingContract(`0x4e487b71${(0x11).toString(16).padStart(64, '0')}`))
    const onChain = await settle(
      (await ethSend({ calls: [{ to: panic }], gasLimit: '100000' })).json.activity.result.ethSendTransactionResultV2
        .sendTransactionStatusId,
    )
    expect(onChain.txStatus).toBe('FAILED')
    expect(onChain.eth?.txHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect((await evm().getTransactionReceipt({ hash: onChain.eth?.txHash as Hex })).status).toBe('reverted')
    expect(onChain.error?.revertChain?.[0]).toMatchObject({
      address: panic,
      errorType: 'native',
      native: { nativeType: 'panic', panicCode: '0x11' },
    })

    const custom = await deploy(revertingContract('0xdeadbeef0000000000000000000000000000000000000000000000000000000000000007'))
    const unknown = await settle(
      (await ethSend({ calls: [{ to: custom }] })).json.activity.result.ethSendTransactionResultV2.sendTransactionStatusId,
    )
    expect(unknown.error?.revertChain?.[0]).toMatchObject({ errorType: 'unknown', unknown: { selector: '0xdeadbeef' } })
  })

  it('fails a send the account cannot pay for, naming the cause', async () => {
    const status = await settle(
      (await ethSend({ calls: [{ to: DEV_FUNDER, value: parseEther('1000').toString() }] })).json.activity.result.ethSendTransactionResultV2
        .sendTransactionStatusId,
    )
    expect(status.txStatus).toBe('FAILED')
    expect(status.txError).toMatch(/insufficient funds/)
  })

  it('refuses bad input with a 400/404 naming the field, recording no send', async () => {
    const field = (json: any) => json.details.find((d: any) => d.fieldViolations)?.fieldViolations[0]?.field
    const cases: Array<[Record<string, unknown>, number, string]> = [
      // sponsored sends and batches need the network's Gas Station (eip155:31338 has none)
      [{ calls: [{ to: DEV_FUNDER }], sponsor: true, caip2: 'eip155:31338' }, 412, 'parameters.caip2'],
      [{ calls: [{ to: DEV_FUNDER }, { to: DEV_FUNDER }], caip2: 'eip155:31338' }, 412, 'parameters.caip2'],
      [{ calls: [{ to: DEV_FUNDER }, { value: '1' }] }, 400, 'parameters.calls[1].to'],
      [{ calls: [{ to: DEV_FUNDER }], caip2: 'eip155:5' }, 400, 'parameters.caip2'],
      [{ calls: [{ to: DEV_FUNDER }], caip2: DEV_SOLANA_CAIP2 }, 400, 'parameters.caip2'],
      [{ calls: [{ to: DEV_FUNDER }], from: DEV_FUNDER }, 404, 'parameters.from'],
      [{ calls: [{ to: '0x1234' }] }, 400, 'parameters.calls[0].to'],
      [{ calls: [{ to: DEV_FUNDER, value: '-1' }] }, 400, 'parameters.calls[0].value'],
      [{ calls: [{ to: DEV_FUNDER, data: '0xabc' }] }, 400, 'parameters.calls[0].data'],
      [{ calls: [{ to: DEV_FUNDER }], maxFeePerGas: '1', maxPriorityFeePerGas: '2' }, 400, 'parameters.maxPriorityFeePerGas'],
      // found by the fuzz suite on PostgreSQL: a refinement ran on a value its regex had refused (500)
      [{ calls: [{ to: DEV_FUNDER }], nonce: '1e308' }, 400, 'parameters.nonce'],
      [{ calls: [{ to: DEV_FUNDER, value: '0x' }] }, 400, 'parameters.calls[0].value'],
    ]
    for (const [parameters, status, name] of cases) {
      const r = await ethSend(parameters)
      expect(r.status, JSON.stringify(parameters)).toBe(status)
      expect(field(r.json), JSON.stringify(parameters)).toBe(name)
    }
    const missing = await client
      .getSendTransactionStatus({ organizationId: org, sendTransactionStatusId: crypto.randomUUID() })
      .catch((e) => e)
    expect(String(missing)).toMatch(/sendTransactionStatusId/)
  })

  it('waits for a node that is down, and finishes when it comes back', async () => {
    // A second dev node (chain 31338) behind a proxy the test can take down and bring back.
    const node = await startEvmNode({ port: await freePort(), chainId: 31338 })
    let down = false
    const proxy = createServer((req, res) => {
      if (down) return req.socket.destroy()
      let body = ''
      req.on('data', (d) => (body += String(d)))
      req.on('end', async () => {
        const answer = await fetch(node.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })
        res.writeHead(answer.status, { 'Content-Type': 'application/json' })
        res.end(await answer.text())
      })
    })
    await new Promise<void>((ok) => proxy.listen(offlinePort, '127.0.0.1', () => ok()))
    try {
      await sendFromDevFunder(node.url, { to: eth, value: `0x${parseEther('1').toString(16)}` })
      down = true
      const r = await ethSend({ caip2: 'eip155:31338', calls: [{ to: '0x4444444444444444444444444444444444444444', value: '5' }] })
      expect(r.status).toBe(200)
      const id = r.json.activity.result.ethSendTransactionResultV2.sendTransactionStatusId
      await new Promise((res) => setTimeout(res, 600))
      expect((await client.getSendTransactionStatus({ organizationId: org, sendTransactionStatusId: id })).txStatus).toBe('INITIALIZED')
      down = false
      const status = await settle(id, 30_000)
      expect(status.txStatus).toBe('INCLUDED')
      expect(
        await createPublicClient({ transport: http(node.url) }).getBalance({ address: '0x4444444444444444444444444444444444444444' }),
      ).toBe(5n)
    } finally {
      proxy.closeAllConnections()
      await new Promise((ok) => proxy.close(ok))
      await node.close()
    }
  })
})

describe('eth_send_raw_transaction', () => {
  const key = HDKey.fromMasterSeed(mnemonicToSeedSync(DEV_MNEMONIC)).derive("m/44'/60'/0'/0/1").privateKey as Uint8Array
  const raw = async (chainId: bigint, nonce?: bigint) => {
    const from = Transaction.prepare(
      { to: DEV_FUNDER, value: 1n, nonce: 0n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n, chainId },
      false,
    ).signBy(key).sender
    const n = nonce ?? BigInt(await evm().getTransactionCount({ address: from as Hex }))
    return Transaction.prepare(
      {
        to: '0x5555555555555555555555555555555555555555',
        value: 7n,
        nonce: n,
        maxFeePerGas: 10_000_000_000n,
        maxPriorityFeePerGas: 1_000_000_000n,
        gasLimit: 21000n,
        chainId,
      },
      false,
    ).signBy(key)
  }

  it('broadcasts a signed transaction and answers its hash', async () => {
    const tx = await raw(31337n)
    const res = await client.ethSendRawTransaction({
      type: 'ACTIVITY_TYPE_ETH_SEND_RAW_TRANSACTION',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: { signedTransaction: tx.toHex(), caip2: 'eip155:31337' as any },
    })
    expect(res.activity.result.ethSendRawTransactionResult?.transactionHash).toBe(tx.hash)
    const receipt = await evm().waitForTransactionReceipt({ hash: tx.hash as Hex })
    expect(receipt.status).toBe('success')
  })

  it('refuses an unsigned transaction, another chain, garbage and a node refusal, naming the field', async () => {
    const send = (signedTransaction: string) =>
      svc.post(
        '/public/v1/submit/eth_send_raw_transaction',
        submitBody('ACTIVITY_TYPE_ETH_SEND_RAW_TRANSACTION', org, { signedTransaction, caip2: 'eip155:31337' }),
      )
    const other = await send((await raw(1n)).toHex())
    expect([other.status, other.json.message]).toEqual([400, expect.stringContaining('chain id 1')])
    const unsigned = await send(
      Transaction.prepare(
        { to: DEV_FUNDER, value: 1n, nonce: 0n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n, chainId: 31337n },
        false,
      ).toHex({ includeSignature: false }),
    )
    expect(unsigned.status).toBe(400)
    expect((await send('0xdeadbeef')).status).toBe(400)
    const stale = await send((await raw(31337n, 0n)).toHex())
    expect(stale.status).toBe(412)
    expect(stale.json.message).toMatch(/nonce/i)
  })
})

describe('sol_send_transaction', () => {
  async function unsignedTransfer(lamports: bigint, blockhash?: string) {
    const recipient = (await generateKeyPairSigner()).address
    const hash = (blockhash ?? '11111111111111111111111111111111') as Blockhash
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(address(sol), m),
      (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: hash, lastValidBlockHeight: 0n }, m),
      (m) =>
        appendTransactionMessageInstruction(
          getTransferSolInstruction({ source: createNoopSigner(address(sol)), destination: recipient, amount: lamports }),
          m,
        ),
    )
    const bytes = getTransactionEncoder().encode(compileTransaction(message))
    return { recipient, hex: Buffer.from(bytes).toString('hex') }
  }

  it('sets a fresh blockhash, signs, broadcasts and tracks to INCLUDED (official client)', async () => {
    const { recipient, hex } = await unsignedTransfer(100_000_000n)
    const res = await client.solSendTransaction({
      type: 'ACTIVITY_TYPE_SOL_SEND_TRANSACTION_V2',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: { unsignedTransaction: hex, signWiths: [sol], caip2: DEV_SOLANA_CAIP2 as any },
    })
    const status = await settle(res.activity.result.solSendTransactionResultV2?.sendTransactionStatusId as string)
    expect(status.txStatus).toBe('INCLUDED')
    expect(
      (
        await solanaRpc()
          .getBalance(recipient as Address)
          .send()
      ).value,
    ).toBe(100_000_000n)
    const signature = (status as { solana?: { signature?: string } }).solana?.signature
    expect(
      (
        await solanaRpc()
          .getSignatureStatuses([signature as any])
          .send()
      ).value[0]?.err,
    ).toBeNull()
  })

  it('ends FAILED with the preflight error when the transfer exceeds the balance', async () => {
    const { hex } = await unsignedTransfer(50_000_000_000n)
    const r = await svc.post(
      '/public/v1/submit/sol_send_transaction',
      submitBody('ACTIVITY_TYPE_SOL_SEND_TRANSACTION', org, { unsignedTransaction: hex, signWith: sol, caip2: DEV_SOLANA_CAIP2 }),
    )
    const status = await settle(r.json.activity.result.solSendTransactionResult.sendTransactionStatusId)
    expect(status.txStatus).toBe('FAILED')
    expect(status.error?.solana).toMatchObject({ source: 'preflight', rpcCode: -32002 })
    expect(JSON.parse(status.error?.solana?.transactionErrorJson as string)).toEqual({ InstructionError: [0, { Custom: 1 }] })
  })

  it('refuses garbage, a signer that is not in the transaction, and the wrong network', async () => {
    const field = (json: any) => json.details.find((d: any) => d.fieldViolations)?.fieldViolations[0]?.field
    const send = (parameters: Record<string, unknown>) =>
      svc.post(
        '/public/v1/submit/sol_send_transaction',
        submitBody('ACTIVITY_TYPE_SOL_SEND_TRANSACTION', org, { signWith: sol, caip2: DEV_SOLANA_CAIP2, ...parameters }),
      )
    const { hex } = await unsignedTransfer(1n)
    expect(field((await send({ unsignedTransaction: 'zz' })).json)).toBe('parameters.unsignedTransaction')
    expect(field((await send({ unsignedTransaction: 'deadbeef' })).json)).toBe('parameters.unsignedTransaction')
    expect(field((await send({ unsignedTransaction: hex, signWith: eth })).json)).toBe('parameters.signWith')
    expect(field((await send({ unsignedTransaction: hex, caip2: 'eip155:31337' })).json)).toBe('parameters.caip2')
    expect(field((await send({ unsignedTransaction: hex, sponsor: true })).json)).toBe('parameters.sponsor')
  })
})
