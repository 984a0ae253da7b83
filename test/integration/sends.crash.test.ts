/**
 * A send survives kill -9 at the worst moments: after the signed transaction is stored
 * but before the node saw it, and after the node took it but before the service heard back. A
 * JSON-RPC proxy in front of the dev EVM node holds eth_sendRawTransaction to make those moments;
 * after the restart the send completes exactly once (one nonce used, the value moved once).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Transaction } from 'micro-eth-signer'
import { createPublicClient, http, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningDevChains, startDevChains } from '../../src/devchain/index.js'
import { adminClient, freePort, spawnService, waitExit } from './helpers/process.js'
import { freshDatabaseUrl, submitBody } from './helpers/service.js'

type Mode = 'pass' | 'swallow' | 'forward-no-reply'
let chains: RunningDevChains
let proxy: Server
let proxyUrl: string
let mode: Mode = 'pass'
const held: Array<{ body: string }> = []
const dataDir = mkdtempSync(join(tmpdir(), 'sigil-send-crash-'))

beforeAll(async () => {
  chains = await startDevChains({ evmPort: await freePort(), solanaPort: 0 })
  proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = ''
    req.on('data', (d) => (body += String(d)))
    req.on('end', async () => {
      const forward = () => fetch(chains.evm.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })
      if (mode !== 'pass' && body.includes('eth_sendRawTransaction')) {
        held.push({ body })
        if (mode === 'forward-no-reply') await forward()
        return // never answer: the service is killed while it waits
      }
      const answer = await forward()
      res.writeHead(answer.status, { 'Content-Type': 'application/json' })
      res.end(await answer.text())
    })
  })
  await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', () => ok()))
  proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`
})
afterAll(async () => {
  proxy?.closeAllConnections()
  await new Promise((ok) => proxy?.close(ok))
  await chains?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('send crash safety', () => {
  it.each<Mode>(['swallow', 'forward-no-reply'])('completes exactly once after kill -9 while broadcasting (%s)', async (crashMode) => {
    const env: Record<string, string> = { SIGIL_DATA_DIR: join(dataDir, crashMode), SIGIL_RPC: `eip155:31337=${proxyUrl}` }
    const databaseUrl = await freshDatabaseUrl()
    if (databaseUrl) env.DATABASE_URL = databaseUrl
    let { child, url } = await spawnService(env)
    const { admin, post } = adminClient(env.SIGIL_DATA_DIR as string, () => url)
    const wallet = await post(
      '/public/v1/submit/create_wallet',
      submitBody('ACTIVITY_TYPE_CREATE_WALLET', admin.organizationId, {
        walletName: 'crash',
        accounts: [
          { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
        ],
      }),
    )
    const [from] = wallet.json.activity.result.createWalletResult.addresses as [Hex]
    mode = 'pass'
    expect(
      (
        await fetch(`${url}/dev/faucet`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ caip2: 'eip155:31337', address: from, amount: '1' }),
        })
      ).status,
    ).toBe(200)
    const evm = createPublicClient({ transport: http(chains.evm.url) })
    const nonceBefore = await evm.getTransactionCount({ address: from })
    const to = `0x${crashMode === 'swallow' ? '66' : '77'}${'00'.repeat(19)}` as Hex

    mode = crashMode
    held.length = 0
    const sent = await post(
      '/public/v1/submit/eth_send_transaction',
      submitBody('ACTIVITY_TYPE_ETH_SEND_TRANSACTION', admin.organizationId, { from, caip2: 'eip155:31337', to, value: '12345' }),
    )
    expect(sent.status).toBe(200)
    const id = sent.json.activity.result.ethSendTransactionResult.sendTransactionStatusId
    const deadline = Date.now() + 20_000
    while (held.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
    expect(held.length).toBe(1)
    child.kill('SIGKILL')
    await waitExit(child)
    expect(await evm.getBalance({ address: to })).toBe(crashMode === 'swallow' ? 0n : 12345n)

    mode = 'pass'
    ;({ child, url } = await spawnService(env))
    try {
      let status: any
      while (Date.now() < deadline + 20_000) {
        status = (
          await post('/public/v1/query/get_send_transaction_status', { organizationId: admin.organizationId, sendTransactionStatusId: id })
        ).json
        if (status.txStatus === 'INCLUDED' || status.txStatus === 'FAILED') break
        await new Promise((r) => setTimeout(r, 50))
      }
      expect(status.txStatus).toBe('INCLUDED')
      // the transaction on chain is the one signed before the crash
      const heldRaw = JSON.parse(held[0]?.body ?? '{}').params[0] as string
      expect(status.eth.txHash).toBe(Transaction.fromHex(heldRaw, false).hash)
      expect((await evm.getTransaction({ hash: status.eth.txHash })).hash).toBe(status.eth.txHash)
      expect(await evm.getTransactionCount({ address: from })).toBe(nonceBefore + 1)
      expect(await evm.getBalance({ address: to })).toBe(12345n)
    } finally {
      child.kill('SIGTERM')
      await waitExit(child)
    }
  })
})
