/**
 * The dev chains: anvil and the Solana dev runtime, started by the test on free
 * loopback ports; Solana's own client (@solana/kit) and viem talk to them unmodified; the dev
 * faucet funds addresses through the service; `npm run chain` stops cleanly on Ctrl-C.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  type Address,
  appendTransactionMessageInstruction,
  createSolanaRpc,
  createTransactionMessage,
  devnet,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type KeyPairSigner,
} from '@solana/kit'
import { TurnkeyClient } from '@turnkey/http'
import { createPublicClient, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_SOLANA_CAIP2, DEV_SOLANA_GENESIS_HASH, DEV_SOLANA_MINT, resolveNetworks } from '../../src/chains/networks.js'
import { DEV_FUNDER } from '../../src/devchain/evm.js'
import { type RunningDevChains, startDevChains } from '../../src/devchain/index.js'
import { startSolanaRpc } from '../../src/devchain/solana/server.js'
import { freePort } from './helpers/process.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

let chains: RunningDevChains
let svc: TestService
let rpc: ReturnType<typeof createSolanaRpc<ReturnType<typeof devnet>>>

beforeAll(async () => {
  chains = await startDevChains({ evmPort: await freePort(), solanaPort: 0 })
  rpc = createSolanaRpc(devnet(chains.solana.url))
  svc = await startTestService({
    networks: resolveNetworks(`eip155:31337=${chains.evm.url},${DEV_SOLANA_CAIP2}=${chains.solana.url},eip155:1=http://127.0.0.1:9`),
    devFaucet: true,
  })
})
afterAll(async () => {
  await svc?.stop()
  await chains?.close()
})

async function solanaCall(body: unknown) {
  const res = await fetch(chains.solana.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: res.status, json: (await res.json()) as any }
}

async function transfer(from: KeyPairSigner, to: Address, amount: bigint) {
  const { value: blockhash } = await rpc.getLatestBlockhash().send()
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(from, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) => appendTransactionMessageInstruction(getTransferSolInstruction({ source: from, destination: to, amount }), m),
  )
  const signed = await signTransactionMessageWithSigners(message)
  return { wire: getBase64EncodedWireTransaction(signed), signature: getSignatureFromTransaction(signed) }
}

describe('EVM dev node', () => {
  it('is a real node: chain id 31337, the dev accounts funded, automine', async () => {
    const client = createPublicClient({ transport: http(chains.evm.url) })
    expect(await client.getChainId()).toBe(31337)
    expect(await client.getBalance({ address: DEV_FUNDER })).toBe(parseEther('10000'))
    const before = await client.getBlockNumber()
    const res = await svc.post(
      '/dev/faucet',
      { caip2: 'eip155:31337', address: '0x000000000000000000000000000000000000dEaD', amount: '1' },
      null,
    )
    expect(res.status).toBe(200)
    const receipt = await client.getTransactionReceipt({ hash: res.json.txHash })
    expect(receipt.status).toBe('success')
    expect(receipt.blockNumber).toBe(before + 1n)
  })
})

describe('Solana dev runtime over JSON-RPC', () => {
  it('answers the standard methods through Solana’s own client', async () => {
    expect(await rpc.getHealth().send()).toBe('ok')
    expect(await rpc.getGenesisHash().send()).toBe(DEV_SOLANA_GENESIS_HASH)
    expect(chains.solana.caip2).toBe(DEV_SOLANA_CAIP2)
    const { value } = await rpc.getLatestBlockhash().send()
    expect(value.blockhash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    expect(Number(await rpc.getMinimumBalanceForRentExemption(0n).send())).toBe(890880)
  })

  it('airdrops, transfers, and reports status, fee and balances', async () => {
    const alice = await generateKeyPairSigner()
    const bob = await generateKeyPairSigner()
    const airdrop = await rpc.requestAirdrop(alice.address, lamports(2_000_000_000n)).send()
    const [airdropStatus] = (await rpc.getSignatureStatuses([airdrop]).send()).value
    expect(airdropStatus?.confirmationStatus).toBe('finalized')
    expect((await rpc.getBalance(alice.address).send()).value).toBe(2_000_000_000n)

    const slotBefore = await rpc.getSlot().send()
    const { wire, signature } = await transfer(alice, bob.address, 100_000_000n)
    expect(await rpc.sendTransaction(wire, { encoding: 'base64' }).send()).toBe(signature)
    expect(await rpc.getSlot().send()).toBe(slotBefore + 1n)
    const [status] = (await rpc.getSignatureStatuses([signature]).send()).value
    expect(status).toMatchObject({ err: null, confirmationStatus: 'finalized' })
    expect((await rpc.getBalance(bob.address).send()).value).toBe(100_000_000n)
    expect((await rpc.getBalance(alice.address).send()).value).toBe(2_000_000_000n - 100_000_000n - 5000n)

    const tx = await rpc.getTransaction(signature, { maxSupportedTransactionVersion: 0, encoding: 'json' }).send()
    expect(tx?.meta?.fee).toBe(5000n)
    expect(tx?.meta?.err).toBeNull()
    expect(tx?.transaction.signatures[0]).toBe(signature)
    expect(tx?.meta?.preBalances[0]).toBe(2_000_000_000n)
    const b64 = await rpc.getTransaction(signature, { maxSupportedTransactionVersion: 0, encoding: 'base64' }).send()
    expect(b64?.transaction[0]).toBe(wire)
    // A v0 transaction asked for without maxSupportedTransactionVersion: the standard refusal.
    const legacyOnly = await solanaCall({ jsonrpc: '2.0', id: 1, method: 'getTransaction', params: [signature, { encoding: 'json' }] })
    expect(legacyOnly.json.error.code).toBe(-32015)

    const fee = await solanaCall({ jsonrpc: '2.0', id: 2, method: 'getFeeForMessage', params: [wireMessage(wire)] })
    expect(fee.json.result.value).toBe(5000)

    // The same bytes again: already processed, nothing charged twice.
    const again = await solanaCall({ jsonrpc: '2.0', id: 3, method: 'sendTransaction', params: [wire, { encoding: 'base64' }] })
    expect(again.json.error.code).toBe(-32002)
    expect(again.json.error.data.err).toBe('AlreadyProcessed')
    expect((await rpc.getBalance(bob.address).send()).value).toBe(100_000_000n)
  })

  it('simulates with the accounts after the transaction, as a validator: signatures unchecked unless asked, nothing committed', async () => {
    const erin = await generateKeyPairSigner()
    const frank = await generateKeyPairSigner()
    await rpc.requestAirdrop(erin.address, lamports(1_000_000_000n)).send()
    const { wire } = await transfer(erin, frank.address, 250_000_000n)
    const sim = await rpc
      .simulateTransaction(wire, { encoding: 'base64', accounts: { addresses: [erin.address, frank.address], encoding: 'base64' } })
      .send()
    expect(sim.value.err).toBeNull()
    expect(sim.value.accounts?.map((a) => a?.lamports)).toEqual([1_000_000_000n - 250_000_000n - 5000n, 250_000_000n])
    expect(sim.value.accounts?.[1]?.owner).toBe('11111111111111111111111111111111')
    const now = await rpc.getMultipleAccounts([erin.address, frank.address], { encoding: 'base64' }).send()
    expect(now.value.map((a) => a?.lamports ?? null)).toEqual([1_000_000_000n, null])
    // Unsigned (zeroed signature): simulated unless the caller asks for signatures to be checked.
    const bytes = Buffer.from(wire, 'base64')
    bytes.fill(0, 1, 65)
    const unsigned = bytes.toString('base64') as typeof wire
    expect((await rpc.simulateTransaction(unsigned, { encoding: 'base64' }).send()).value.err).toBeNull()
    expect((await rpc.simulateTransaction(unsigned, { encoding: 'base64', sigVerify: true }).send()).value.err).toBe('SignatureFailure')
  })

  it('fails a transfer beyond the balance in preflight, or records it (fee taken) when preflight is skipped', async () => {
    const carol = await generateKeyPairSigner()
    const dave = await generateKeyPairSigner()
    await rpc.requestAirdrop(carol.address, lamports(10_000_000n)).send()
    const { wire, signature } = await transfer(carol, dave.address, 50_000_000n)
    const sim = await rpc.simulateTransaction(wire, { encoding: 'base64' }).send()
    expect(sim.value.err).toEqual({ InstructionError: [0n, { Custom: 1n }] })
    expect(sim.value.logs?.join('\n')).toContain('insufficient lamports')

    const preflight = await solanaCall({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: [wire, { encoding: 'base64' }] })
    expect(preflight.json.error).toMatchObject({
      code: -32002,
      message: 'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1',
    })
    expect(preflight.json.error.data.err).toEqual({ InstructionError: [0, { Custom: 1 }] })
    expect((await rpc.getSignatureStatuses([signature]).send()).value[0]).toBeNull()
    expect((await rpc.getBalance(carol.address).send()).value).toBe(10_000_000n)

    const skipped = await solanaCall({
      jsonrpc: '2.0',
      id: 2,
      method: 'sendTransaction',
      params: [wire, { encoding: 'base64', skipPreflight: true }],
    })
    expect(skipped.json.result).toBe(signature)
    const [status] = (await rpc.getSignatureStatuses([signature]).send()).value
    expect(status?.err).toEqual({ InstructionError: [0n, { Custom: 1n }] })
    expect((await rpc.getBalance(carol.address).send()).value).toBe(10_000_000n - 5000n)
    expect((await rpc.getBalance(dave.address).send()).value).toBe(0n)
  })

  it('refuses bad requests with the JSON-RPC 2.0 error shapes, and never crashes', async () => {
    const parse = await fetch(chains.solana.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"jsonrpc":' })
    expect(((await parse.json()) as any).error.code).toBe(-32700)
    expect((await solanaCall({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' })).json.error.code).toBe(-32601)
    expect((await solanaCall({ jsonrpc: '2.0', id: 1, method: 'toString' })).json.error.code).toBe(-32601)
    expect((await solanaCall({ jsonrpc: '2.0', id: 1, method: 'getBalance', params: ['not-an-address'] })).json.error.code).toBe(-32602)
    expect(
      (await solanaCall({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: ['AAAA', { encoding: 'base64' }] })).json.error.code,
    ).toBe(-32602)
    expect((await solanaCall({ jsonrpc: '2.0', id: 1, method: 'requestAirdrop', params: [DEV_FUNDER, -1] })).json.error.code).toBe(-32602)
    expect((await solanaCall({ id: 1, method: 'getSlot' })).json.error.code).toBe(-32600)
    expect((await solanaCall([])).json.error.code).toBe(-32600)
    const batch = await solanaCall([
      { jsonrpc: '2.0', id: 'a', method: 'getHealth' },
      { jsonrpc: '2.0', id: 'b', method: 'nope' },
    ])
    expect(batch.json).toEqual([
      { jsonrpc: '2.0', result: 'ok', id: 'a' },
      { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: 'b' },
    ])
    expect((await fetch(chains.solana.url)).status).toBe(405)
    expect(await rpc.getHealth().send()).toBe('ok')
  })

  it('answers a browser client’s CORS preflight for the headers it sends (web3.js and kit add solana-client), without credentials', async () => {
    const preflight = (headers: string) =>
      fetch(chains.solana.url, {
        method: 'OPTIONS',
        headers: { Origin: 'http://127.0.0.1:5173', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': headers },
      })
    const res = await preflight('content-type, solana-client')
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-credentials')).toBeNull()
    expect(res.headers.get('access-control-allow-headers')?.split(', ')).toEqual(['content-type', 'solana-client'])
    // Only header names: anything else asked for is left out, and Content-Type is always allowed.
    const odd = await preflight('x-a, bad header, x\u00e9')
    expect(odd.headers.get('access-control-allow-headers')).toBe('content-type, x-a')
    // The request that follows, with the header web3.js sends, is answered.
    const call = await fetch(chains.solana.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'solana-client': 'js/1.0.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' }),
    })
    expect(((await call.json()) as any).result).toBe('ok')
  })

  it('keeps its state in a file across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sigil-sol-'))
    const stateFile = join(dir, 'solana-state.json')
    try {
      const first = await startSolanaRpc({ port: 0, stateFile })
      const erin = await generateKeyPairSigner()
      const sig = await createSolanaRpc(devnet(first.url)).requestAirdrop(erin.address, lamports(123_456_789n)).send()
      await first.close()
      const second = await startSolanaRpc({ port: 0, stateFile })
      const again = createSolanaRpc(devnet(second.url))
      expect((await again.getBalance(erin.address).send()).value).toBe(123_456_789n)
      expect((await again.getSignatureStatuses([sig]).send()).value[0]?.err).toBeNull()
      await second.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('POST /dev/faucet', () => {
  it('funds an EVM address and a Solana address on the dev chains', async () => {
    const client = createPublicClient({ transport: http(chains.evm.url) })
    const to = '0x1111111111111111111111111111111111111111'
    const eth = await svc.post('/dev/faucet', { caip2: 'eip155:31337', address: to, amount: '2.5' }, null)
    expect(eth.status).toBe(200)
    expect(eth.json).toMatchObject({ caip2: 'eip155:31337', baseUnits: parseEther('2.5').toString() })
    expect(await client.getBalance({ address: to })).toBe(parseEther('2.5'))

    const frank = await generateKeyPairSigner()
    const sol = await svc.post('/dev/faucet', { caip2: DEV_SOLANA_CAIP2, address: frank.address, amount: 0.25 }, null)
    expect(sol.status).toBe(200)
    expect((await rpc.getBalance(frank.address).send()).value).toBe(250_000_000n)
    expect((await rpc.getSignatureStatuses([sol.json.signature]).send()).value[0]?.err).toBeNull()
  })

  it('names the field at fault and funds nothing', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ caip2: 'eip155:999', address: DEV_FUNDER, amount: '1' }, 400, 'caip2'],
      [{ caip2: 'eip155:1', address: DEV_FUNDER, amount: '1' }, 403, 'caip2'],
      [{ caip2: 'eip155:31337', address: '0x1234', amount: '1' }, 400, 'address'],
      [{ caip2: DEV_SOLANA_CAIP2, address: '0x1111111111111111111111111111111111111111', amount: '1' }, 400, 'address'],
      [{ caip2: 'eip155:31337', address: DEV_FUNDER, amount: '0' }, 400, 'amount'],
      [{ caip2: 'eip155:31337', address: DEV_FUNDER, amount: '-1' }, 400, 'amount'],
      [{ caip2: 'eip155:31337', address: DEV_FUNDER, amount: '1e3' }, 400, 'amount'],
      [{ caip2: 'eip155:31337', address: DEV_FUNDER, amount: '1001' }, 400, 'amount'],
      [{ caip2: DEV_SOLANA_CAIP2, address: DEV_SOLANA_GENESIS_HASH, amount: '0.0000000001' }, 400, 'amount'],
      [{ caip2: 'eip155:31337', address: DEV_FUNDER }, 400, 'amount'],
    ]
    for (const [body, status, field] of cases) {
      const res = await svc.post('/dev/faucet', body, null)
      expect(res.status, JSON.stringify(body)).toBe(status)
      const violation = res.json.details.find((d: any) => d.fieldViolations)?.fieldViolations[0]
      expect(violation?.field, JSON.stringify(body)).toBe(field)
    }
    const broken = await fetch(`${svc.url}/dev/faucet`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' })
    expect(broken.status).toBe(400)
  })

  it('is not served in production', async () => {
    const prod = await startTestService({ devFaucet: false })
    try {
      expect((await prod.post('/dev/faucet', { caip2: 'eip155:31337', address: DEV_FUNDER, amount: '1' }, null)).status).toBe(404)
    } finally {
      await prod.stop()
    }
  })
})

describe('balances and supported assets', () => {
  let eth: string
  let sol: string
  let client: TurnkeyClient
  beforeAll(async () => {
    const res = await svc.post(
      '/public/v1/submit/create_wallet',
      submitBody('ACTIVITY_TYPE_CREATE_WALLET', svc.admin.organizationId, {
        walletName: 'balances',
        accounts: [
          { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
          { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' },
        ],
      }),
    )
    expect(res.status).toBe(200)
    ;[eth, sol] = res.json.activity.result.createWalletResult.addresses
    client = adminTurnkeyClient(svc)
  })

  it('reads native balances from the dev chains, through the official client unmodified', async () => {
    const organizationId = svc.admin.organizationId
    const before = await client.getWalletAddressBalances({ organizationId, address: eth, caip2: 'eip155:31337' as any })
    expect(before.balances).toEqual([
      { caip19: 'eip155:31337/slip44:60', symbol: 'ETH', decimals: 18, name: 'Sigil dev EVM ETH', balance: '0', display: { crypto: '0' } },
    ])
    expect((await svc.post('/dev/faucet', { caip2: 'eip155:31337', address: eth, amount: '1.5' }, null)).status).toBe(200)
    expect((await svc.post('/dev/faucet', { caip2: DEV_SOLANA_CAIP2, address: sol, amount: '0.1' }, null)).status).toBe(200)
    const after = await client.getWalletAddressBalances({ organizationId, address: eth.toLowerCase(), caip2: 'eip155:31337' as any })
    expect(after.balances?.[0]).toMatchObject({ balance: parseEther('1.5').toString(), display: { crypto: '1.5' } })
    const sols = await client.getWalletAddressBalances({ organizationId, address: sol, caip2: DEV_SOLANA_CAIP2 as any })
    expect(sols.balances?.[0]).toMatchObject({
      caip19: `${DEV_SOLANA_CAIP2}/slip44:501`,
      symbol: 'SOL',
      decimals: 9,
      balance: '100000000',
      display: { crypto: '0.1' },
    })
    // The dev Solana network's SPL token: the faucet minted 100 dev USDC into the account's token account.
    expect(sols.balances?.[1]).toEqual({
      caip19: `${DEV_SOLANA_CAIP2}/token:${DEV_SOLANA_MINT}`,
      symbol: 'USDC',
      decimals: 6,
      name: 'Dev USD Coin',
      balance: '100000000',
      display: { crypto: '100' },
      tokenProgram: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
    })
    const assets = await client.listSupportedAssets({ organizationId, caip2: DEV_SOLANA_CAIP2 as any })
    expect(assets.assets).toEqual([
      { caip19: `${DEV_SOLANA_CAIP2}/slip44:501`, symbol: 'SOL', decimals: 9, name: 'Solana', stable: false },
      { caip19: `${DEV_SOLANA_CAIP2}/token:${DEV_SOLANA_MINT}`, symbol: 'USDC', decimals: 6, name: 'Dev USD Coin', stable: true },
    ])
  })

  it('names the field at fault: unknown network, foreign address, wrong family, node down', async () => {
    const q = (path: string, body: Record<string, unknown>) =>
      svc.post(`/public/v1/query/${path}`, { organizationId: svc.admin.organizationId, ...body })
    const field = (json: any) => json.details.find((d: any) => d.fieldViolations)?.fieldViolations[0]?.field
    const unknown = await q('get_wallet_address_balances', { address: eth, caip2: 'eip155:5' })
    expect([unknown.status, field(unknown.json)]).toEqual([400, 'caip2'])
    const foreign = await q('get_wallet_address_balances', { address: DEV_FUNDER, caip2: 'eip155:31337' })
    expect([foreign.status, field(foreign.json)]).toEqual([404, 'address'])
    const family = await q('get_wallet_address_balances', { address: sol, caip2: 'eip155:31337' })
    expect([family.status, field(family.json)]).toEqual([400, 'address'])
    const down = await q('get_wallet_address_balances', { address: eth, caip2: 'eip155:1' })
    expect(down.status).toBe(412)
    expect(down.json.message).toContain('eip155:1')
    expect(down.json.message).not.toContain('127.0.0.1:9')
    const missing = await q('list_supported_assets', {})
    expect([missing.status, field(missing.json)]).toEqual([400, 'caip2'])
  })
})

describe('npm run chain', () => {
  it('starts both chains on 127.0.0.1 and stops cleanly on Ctrl-C, keeping state', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sigil-chain-'))
    const [evmPort, solanaPort] = [await freePort(), await freePort()]
    const child = spawn(process.execPath, ['--enable-source-maps', resolve('dist/devchain.js')], {
      env: { ...process.env, SIGIL_DATA_DIR: dataDir, SIGIL_EVM_PORT: String(evmPort), SIGIL_SOLANA_PORT: String(solanaPort) },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    try {
      let stderr = ''
      child.stderr?.on('data', (d) => (stderr += String(d)))
      const deadline = Date.now() + 30_000
      while (!stderr.includes('dev chains ready') && Date.now() < deadline && child.exitCode === null)
        await new Promise((r) => setTimeout(r, 50))
      expect(stderr).toContain(`http://127.0.0.1:${evmPort}`)
      expect(stderr).toContain(`http://127.0.0.1:${solanaPort}`)
      const solana = createSolanaRpc(`http://127.0.0.1:${solanaPort}`)
      expect(await solana.getHealth().send()).toBe('ok')
      const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)))
      child.kill('SIGINT')
      expect(await exited).toBe(0)
      expect(existsSync(join(dataDir, 'chains', 'solana-state.json'))).toBe(true)
      await expect(fetch(`http://127.0.0.1:${evmPort}`, { method: 'POST', body: '{}' })).rejects.toThrow()
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

/** The message bytes of a base64 wire transaction (after the signature count and signatures). */
function wireMessage(wireBase64: string): string {
  const bytes = Buffer.from(wireBase64, 'base64')
  const count = bytes[0] ?? 0
  return bytes.subarray(1 + 64 * count).toString('base64')
}
