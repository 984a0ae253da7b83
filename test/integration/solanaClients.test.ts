/**
 * The Solana dev runtime as a validator for Solana's own clients, unmodified: @solana/web3.js 1.x
 * sends and confirms over HTTP and its PubSub websocket (port + 1), its account, logs and slot
 * listeners fire and unsubscribe; @solana/kit's sendAndConfirmTransactionFactory confirms through
 * rpcSubscriptions; getSignaturesForAddress pages newest first; getProgramAccounts filters; and
 * hostile websocket input is answered with JSON-RPC errors while the server keeps serving.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  appendTransactionMessageInstruction,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getSignatureFromTransaction,
  lamports,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  type Logs,
  PublicKey,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
} from '@solana/web3.js'
import bs58 from 'bs58'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { DEV_SOLANA_MINT } from '../../src/chains/networks.js'
import { TOKEN_PROGRAM } from '../../src/chains/splToken.js'
import { MAX_SUBSCRIPTIONS_PER_SOCKET } from '../../src/devchain/solana/pubsub.js'
import { type RunningSolanaRpc, startSolanaRpc } from '../../src/devchain/solana/server.js'

let dir: string
let chain: RunningSolanaRpc
let connection: Connection
let payer: Keypair

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sigil-solclients-'))
  chain = await startSolanaRpc({ port: 0, stateFile: join(dir, 'solana.json') })
  connection = new Connection(chain.url, 'confirmed')
  payer = Keypair.generate()
  const airdrop = await connection.requestAirdrop(payer.publicKey, 10 * LAMPORTS_PER_SOL)
  const latest = await connection.getLatestBlockhash()
  await connection.confirmTransaction({ signature: airdrop, ...latest })
})
afterAll(async () => {
  await chain?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const until = async <T>(read: () => T | undefined, what: string, ms = 10_000): Promise<T> => {
  const end = Date.now() + ms
  for (;;) {
    const v = read()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

function transfer(to: PublicKey, amount: number, from = payer) {
  return new Transaction().add(SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports: amount }))
}

describe('the ports', () => {
  it('serves PubSub on the RPC port + 1, where web3.js looks for it', () => {
    expect(chain.wsUrl).toBe(`ws://127.0.0.1:${chain.port + 1}`)
  })
})

describe('@solana/web3.js 1.x', () => {
  it('sendAndConfirmTransaction of a SystemProgram transfer returns the signature and moves the balances', async () => {
    const to = Keypair.generate().publicKey
    const before = await connection.getBalance(payer.publicKey)
    const signature = await sendAndConfirmTransaction(connection, transfer(to, 1_234_567), [payer])
    expect(bs58.decode(signature)).toHaveLength(64)
    expect(await connection.getBalance(to)).toBe(1_234_567)
    expect(await connection.getBalance(payer.publicKey)).toBe(before - 1_234_567 - 5000)
    const status = await connection.getSignatureStatus(signature)
    expect(status.value?.err).toBeNull()
  })

  it('confirmTransaction({signature, blockhash, lastValidBlockHeight}) returns err: null for a sent transfer', async () => {
    const to = Keypair.generate().publicKey
    const latest = await connection.getLatestBlockhash()
    const tx = transfer(to, 1_050_000)
    tx.recentBlockhash = latest.blockhash
    tx.feePayer = payer.publicKey
    tx.sign(payer)
    const signature = await connection.sendRawTransaction(tx.serialize())
    const confirmed = await connection.confirmTransaction({ signature, ...latest }, 'confirmed')
    expect(confirmed.value.err).toBeNull()
    expect(confirmed.context.slot).toBeGreaterThan(0)
  })

  it('onAccountChange fires on each change of the account and stops after removeAccountChangeListener', async () => {
    const to = Keypair.generate().publicKey
    const seen: number[] = []
    const id = connection.onAccountChange(to, (info) => seen.push(info.lamports), { commitment: 'confirmed' })
    // The subscription is made over the socket; wait for it to be acknowledged before sending.
    await new Promise((r) => setTimeout(r, 300))
    await sendAndConfirmTransaction(connection, transfer(to, 1_000_000), [payer])
    await until(() => (seen.length >= 1 ? true : undefined), 'the first account notification')
    await sendAndConfirmTransaction(connection, transfer(to, 1_100_000), [payer])
    await until(() => (seen.length >= 2 ? true : undefined), 'the second account notification')
    expect(seen).toEqual([1_000_000, 2_100_000])
    await connection.removeAccountChangeListener(id)
    await new Promise((r) => setTimeout(r, 200))
    await sendAndConfirmTransaction(connection, transfer(to, 1_200_000), [payer])
    await new Promise((r) => setTimeout(r, 300))
    expect(seen).toEqual([1_000_000, 2_100_000])
  })

  it('onLogs (mentions one address) gets the signature and the program logs; removeOnLogsListener stops it', async () => {
    const sender = Keypair.generate()
    await sendAndConfirmTransaction(connection, transfer(sender.publicKey, LAMPORTS_PER_SOL), [payer])
    const logs: Logs[] = []
    const id = connection.onLogs(sender.publicKey, (l) => logs.push(l), 'confirmed')
    await new Promise((r) => setTimeout(r, 300))
    // A transaction not naming the address is not announced to this subscription.
    await sendAndConfirmTransaction(connection, transfer(Keypair.generate().publicKey, 1_010_000), [payer])
    const signature = await sendAndConfirmTransaction(connection, transfer(payer.publicKey, 10_000, sender), [sender])
    const got = await until(() => logs[0], 'a logs notification')
    expect(got.signature).toBe(signature)
    expect(got.err).toBeNull()
    expect(got.logs).toContain('Program 11111111111111111111111111111111 success')
    expect(logs).toHaveLength(1)
    await connection.removeOnLogsListener(id)
    await new Promise((r) => setTimeout(r, 200))
    await sendAndConfirmTransaction(connection, transfer(payer.publicKey, 11_000, sender), [sender])
    await new Promise((r) => setTimeout(r, 300))
    expect(logs).toHaveLength(1)
  })

  it('onSlotChange announces each new slot with its parent and root; removeSlotChangeListener stops it', async () => {
    const slots: Array<{ slot: number; parent: number; root: number }> = []
    const id = connection.onSlotChange((s) => slots.push(s))
    await new Promise((r) => setTimeout(r, 300))
    await sendAndConfirmTransaction(connection, transfer(Keypair.generate().publicKey, 1_020_000), [payer])
    const s = await until(() => slots[0], 'a slot notification')
    expect(s.parent).toBe(s.slot - 1)
    expect(s.root).toBeLessThanOrEqual(s.slot)
    expect(await connection.getSlot()).toBeGreaterThanOrEqual(s.slot)
    await connection.removeSlotChangeListener(id)
    await new Promise((r) => setTimeout(r, 200))
    const count = slots.length
    await sendAndConfirmTransaction(connection, transfer(Keypair.generate().publicKey, 1_020_000), [payer])
    await new Promise((r) => setTimeout(r, 300))
    expect(slots).toHaveLength(count)
  })
})

describe('@solana/kit', () => {
  it('sendAndConfirmTransactionFactory with rpcSubscriptions on wsUrl confirms a transfer', async () => {
    const rpc = createSolanaRpc(chain.url)
    const rpcSubscriptions = createSolanaRpcSubscriptions(chain.wsUrl)
    const from = await generateKeyPairSigner()
    const to = (await generateKeyPairSigner()).address
    await sendAndConfirmTransaction(connection, transfer(new PublicKey(from.address), LAMPORTS_PER_SOL), [payer])
    const { value: latest } = await rpc.getLatestBlockhash().send()
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(from, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
      (m) =>
        appendTransactionMessageInstruction(getTransferSolInstruction({ source: from, destination: to, amount: lamports(1_777_000n) }), m),
    )
    const signed = await signTransactionMessageWithSigners(message)
    await sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })(
      signed as Parameters<ReturnType<typeof sendAndConfirmTransactionFactory>>[0],
      {
        commitment: 'confirmed',
      },
    )
    expect((await rpc.getBalance(to).send()).value).toBe(1_777_000n)
    const [status] = (await rpc.getSignatureStatuses([getSignatureFromTransaction(signed)]).send()).value
    expect(status?.err).toBeNull()
  })
})

describe('getSignaturesForAddress', () => {
  it('lists the transactions naming an address newest first, with limit, before and until', async () => {
    const account = Keypair.generate()
    const signatures: string[] = []
    for (let i = 0; i < 4; i++)
      signatures.push(await sendAndConfirmTransaction(connection, transfer(account.publicKey, 1_000_000 + i), [payer]))
    const all = await connection.getSignaturesForAddress(account.publicKey)
    expect(all.map((s) => s.signature)).toEqual([...signatures].reverse())
    const first = all[0]
    expect(first).toMatchObject({ err: null, memo: null, confirmationStatus: 'finalized' })
    expect(typeof first?.blockTime).toBe('number')
    expect(all.map((s) => s.slot)).toEqual([...all.map((s) => s.slot)].sort((a, b) => b - a))

    expect((await connection.getSignaturesForAddress(account.publicKey, { limit: 2 })).map((s) => s.signature)).toEqual([
      signatures[3],
      signatures[2],
    ])
    expect(
      (await connection.getSignaturesForAddress(account.publicKey, { before: signatures[2] as string })).map((s) => s.signature),
    ).toEqual([signatures[1], signatures[0]])
    expect(
      (
        await connection.getSignaturesForAddress(account.publicKey, { until: signatures[0] as string, before: signatures[3] as string })
      ).map((s) => s.signature),
    ).toEqual([signatures[2], signatures[1]])
    // The payer's list holds these too, and an address never seen has none.
    const payerList = (await connection.getSignaturesForAddress(payer.publicKey, { limit: 1000 })).map((s) => s.signature)
    for (const s of signatures) expect(payerList).toContain(s)
    expect(await connection.getSignaturesForAddress(Keypair.generate().publicKey)).toEqual([])
  })

  it('survives a restart from the state file', async () => {
    const account = Keypair.generate().publicKey
    const signature = await sendAndConfirmTransaction(connection, transfer(account, 1_100_000), [payer])
    const copy = join(dir, 'copy.json')
    chain.runtime.save(copy)
    const second = await startSolanaRpc({ port: 0, stateFile: copy })
    try {
      const list = await new Connection(second.url).getSignaturesForAddress(account)
      expect(list.map((s) => s.signature)).toEqual([signature])
    } finally {
      await second.close()
    }
  })

  it('refuses a limit over 1000 and an unknown before signature, naming the field', async () => {
    const over = await call('getSignaturesForAddress', [payer.publicKey.toBase58(), { limit: 1001 }])
    expect(over.error.code).toBe(-32602)
    expect(over.error.message).toContain('limit')
    const unknown = await call('getSignaturesForAddress', [payer.publicKey.toBase58(), { before: bs58.encode(new Uint8Array(64).fill(7)) }])
    expect(unknown.error.code).toBe(-32602)
    expect(unknown.error.message).toContain('before')
    const ahead = await call('getSignaturesForAddress', [payer.publicKey.toBase58(), { minContextSlot: chain.runtime.slot + 1000 }])
    expect(ahead.error).toMatchObject({ code: -32016, data: { contextSlot: chain.runtime.slot } })
  })
})

async function call(method: string, params: unknown[]) {
  const res = await fetch(chain.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await res.json()) as any
}

describe('getProgramAccounts', () => {
  it('filters system-owned accounts by dataSize and answers each in web3.js shape', async () => {
    const fresh = Keypair.generate().publicKey
    await sendAndConfirmTransaction(connection, transfer(fresh, 3_000_000), [payer])
    const accounts = await connection.getProgramAccounts(SystemProgram.programId, { filters: [{ dataSize: 0 }] })
    const mine = accounts.find((a) => a.pubkey.equals(fresh))
    expect(mine?.account.lamports).toBe(3_000_000)
    expect(mine?.account.data).toHaveLength(0)
    expect(accounts.some((a) => a.pubkey.equals(payer.publicKey))).toBe(true)
    expect(accounts.every((a) => a.account.owner.equals(SystemProgram.programId) && a.account.data.length === 0)).toBe(true)
    // No system account holds 165 bytes: the filter excludes every one.
    expect(await connection.getProgramAccounts(SystemProgram.programId, { filters: [{ dataSize: 165 }] })).toEqual([])
  })

  it('matches memcmp (base58 and base64 bytes) at an offset, slices the data and wraps it withContext', async () => {
    const mint = new PublicKey(DEV_SOLANA_MINT)
    const info = await connection.getAccountInfo(mint)
    expect(info?.data.length).toBe(82)
    // A mint's authority is its first field after the 4-byte option tag.
    const authority = info!.data.subarray(4, 36)
    const byBase58 = await connection.getProgramAccounts(new PublicKey(TOKEN_PROGRAM), {
      filters: [{ dataSize: 82 }, { memcmp: { offset: 4, bytes: bs58.encode(authority) } }],
    })
    expect(byBase58.map((a) => a.pubkey.toBase58())).toContain(DEV_SOLANA_MINT)
    const byBase64 = await call('getProgramAccounts', [
      TOKEN_PROGRAM,
      {
        encoding: 'base64',
        withContext: true,
        dataSlice: { offset: 44, length: 1 },
        filters: [{ memcmp: { offset: 4, bytes: Buffer.from(authority).toString('base64'), encoding: 'base64' } }],
      },
    ])
    expect(byBase64.result.context.slot).toBeGreaterThan(0)
    const entry = byBase64.result.value.find((a: any) => a.pubkey === DEV_SOLANA_MINT)
    // Byte 44 is the mint's decimals (6): only that byte comes back, the space is the account's.
    expect(entry.account.data).toEqual([Buffer.from([6]).toString('base64'), 'base64'])
    expect(entry.account.space).toBe(82)
    // A different authority matches nothing.
    const none = await connection.getProgramAccounts(new PublicKey(TOKEN_PROGRAM), {
      filters: [{ memcmp: { offset: 4, bytes: Keypair.generate().publicKey.toBase58() } }],
    })
    expect(none.map((a) => a.pubkey.toBase58())).not.toContain(DEV_SOLANA_MINT)
  })

  it('refuses a malformed filter, naming it', async () => {
    const bad = await call('getProgramAccounts', [TOKEN_PROGRAM, { filters: [{ memcmp: { offset: 0, bytes: '0OIl' } }] }])
    expect(bad.error.code).toBe(-32602)
    expect(bad.error.message).toContain('filters.memcmp.bytes')
    const unknown = await call('getProgramAccounts', [TOKEN_PROGRAM, { filters: [{ size: 3 }] }])
    expect(unknown.error.code).toBe(-32602)
    expect(unknown.error.message).toContain('filters')
  })
})

describe('hostile websocket input', () => {
  function open(): Promise<{ ws: WebSocket; next: () => Promise<any>; closed: Promise<number> }> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(chain.wsUrl)
      const queue: any[] = []
      const waiters: Array<(v: any) => void> = []
      ws.on('message', (d) => {
        const v = JSON.parse(d.toString())
        const w = waiters.shift()
        if (w) w(v)
        else queue.push(v)
      })
      const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)))
      ws.on('open', () =>
        resolve({ ws, closed, next: () => (queue.length ? Promise.resolve(queue.shift()) : new Promise((r) => waiters.push(r))) }),
      )
      ws.on('error', reject)
    })
  }

  it('answers garbage, unknown methods and bad params with JSON-RPC errors, and keeps serving', async () => {
    const { ws, next } = await open()
    ws.send('{not json')
    expect((await next()).error.code).toBe(-32700)
    ws.send('[1,2]')
    expect((await next()).error.code).toBe(-32600)
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'rootSubscribe' }))
    expect(await next()).toMatchObject({ id: 7, error: { code: -32601 } })
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'accountSubscribe', params: ['not-a-key'] }))
    const bad = await next()
    expect(bad).toMatchObject({ id: 8, error: { code: -32602 } })
    ws.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'logsSubscribe',
        params: [{ mentions: [payer.publicKey.toBase58(), SystemProgram.programId.toBase58()] }],
      }),
    )
    expect(await next()).toMatchObject({ id: 9, error: { code: -32602 } })
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'slotUnsubscribe', params: [123456] }))
    expect(await next()).toEqual({ jsonrpc: '2.0', result: false, id: 10 })
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'slotSubscribe' }))
    const sub = await next()
    expect(typeof sub.result).toBe('number')
    // An id of another kind is not removed by the wrong unsubscribe.
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 12, method: 'accountUnsubscribe', params: [sub.result] }))
    expect((await next()).result).toBe(false)
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 13, method: 'slotUnsubscribe', params: [sub.result] }))
    expect((await next()).result).toBe(true)
    ws.close()
  })

  it('a signature already processed is notified at once and the subscription ends', async () => {
    const signature = await sendAndConfirmTransaction(connection, transfer(Keypair.generate().publicKey, 1_040_000), [payer])
    const { ws, next } = await open()
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'signatureSubscribe', params: [signature, { commitment: 'finalized' }] }))
    const sub = await next()
    const note = await next()
    expect(note).toMatchObject({
      jsonrpc: '2.0',
      method: 'signatureNotification',
      params: { subscription: sub.result, result: { value: { err: null } } },
    })
    expect(note.params.result.context.slot).toBeGreaterThan(0)
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'signatureUnsubscribe', params: [sub.result] }))
    expect((await next()).result).toBe(false)
    ws.close()
  })

  it('caps the subscriptions of one socket', async () => {
    const { ws, next } = await open()
    for (let i = 0; i <= MAX_SUBSCRIPTIONS_PER_SOCKET; i++) ws.send(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'slotSubscribe' }))
    const answers = []
    for (let i = 0; i <= MAX_SUBSCRIPTIONS_PER_SOCKET; i++) answers.push(await next())
    expect(answers.filter((a) => typeof a.result === 'number')).toHaveLength(MAX_SUBSCRIPTIONS_PER_SOCKET)
    expect(answers.at(-1)).toMatchObject({ id: MAX_SUBSCRIPTIONS_PER_SOCKET, error: { code: -32000 } })
    ws.close()
  })

  it('a huge frame closes only that socket (1009); the server keeps answering', async () => {
    const { ws, closed } = await open()
    ws.send('x'.repeat(2 * 1024 * 1024))
    expect(await closed).toBe(1009)
    const again = await open()
    again.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'slotSubscribe' }))
    expect(typeof (await again.next()).result).toBe('number')
    again.ws.close()
    expect((await call('getHealth', [])).result).toBe('ok')
  })
})

describe('closing', () => {
  it('closes open sockets when the server closes', async () => {
    const other = await startSolanaRpc({ port: 0 })
    const ws = new WebSocket(other.wsUrl)
    await new Promise((r) => ws.on('open', r))
    const closed = new Promise((r) => ws.on('close', r))
    await other.close()
    await closed
    expect(ws.readyState).toBe(WebSocket.CLOSED)
  })
})

describe('blockhashes, as a validator gives them', () => {
  const rpc = async (method: string, params: unknown[]) => {
    const res = await fetch(chain.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    return (await res.json()) as { result?: any; error?: { code: number; message: string } }
  }
  const signedTransfer = (blockhash: string, lamports: number) => {
    const tx = transfer(Keypair.generate().publicKey, lamports)
    tx.recentBlockhash = blockhash
    tx.feePayer = payer.publicKey
    tx.sign(payer)
    return tx.serialize().toString('base64')
  }

  it('each processed slot has a new blockhash, so web3.js sends the same transfer twice without waiting for one', async () => {
    const to = Keypair.generate().publicKey
    const before = (await connection.getLatestBlockhash()).blockhash
    const first = await sendAndConfirmTransaction(connection, transfer(to, LAMPORTS_PER_SOL / 100), [payer])
    const after = (await connection.getLatestBlockhash()).blockhash
    expect(after).not.toBe(before)
    const second = await sendAndConfirmTransaction(connection, transfer(to, LAMPORTS_PER_SOL / 100), [payer])
    expect(second).not.toBe(first)
    expect(await connection.getBalance(to)).toBe(LAMPORTS_PER_SOL / 50)
  })

  it('a blockhash stays valid for 150 slots, then the transaction is refused as BlockhashNotFound', async () => {
    const old = (await rpc('getLatestBlockhash', [])).result.value.blockhash as string
    const height = (await rpc('getBlockHeight', [])).result as number
    const fresh = signedTransfer(old, 1_000_000)
    await rpc('requestAirdrop', [Keypair.generate().publicKey.toBase58(), 1_000_000])
    expect((await rpc('isBlockhashValid', [old])).result.value).toBe(true)
    expect((await rpc('sendTransaction', [fresh, { encoding: 'base64' }])).result).toEqual(expect.any(String))
    const stale = signedTransfer(old, 2_000_000)
    while (((await rpc('getBlockHeight', [])).result as number) <= height + 150) {
      await rpc('requestAirdrop', [Keypair.generate().publicKey.toBase58(), 1_000_000])
    }
    expect((await rpc('isBlockhashValid', [old])).result.value).toBe(false)
    const refused = await rpc('sendTransaction', [stale, { encoding: 'base64' }])
    expect(refused.error?.code).toBe(-32002)
    expect(JSON.stringify(refused.error)).toContain('BlockhashNotFound')
    const simulated = await rpc('simulateTransaction', [stale, { encoding: 'base64' }])
    expect(simulated.result.value.err).toBe('BlockhashNotFound')
    // replaceRecentBlockhash runs it anyway (compute-unit estimates) and says which hash it used.
    const replaced = await rpc('simulateTransaction', [stale, { encoding: 'base64', replaceRecentBlockhash: true, sigVerify: false }])
    expect(replaced.result.value.err).toBeNull()
    expect(replaced.result.value.replacementBlockhash.blockhash).toBe((await rpc('getLatestBlockhash', [])).result.value.blockhash)
  })

  it('the blockhashes handed out before a restart stay valid after it', async () => {
    const held = (await rpc('getLatestBlockhash', [])).result.value.blockhash as string
    await rpc('requestAirdrop', [Keypair.generate().publicKey.toBase58(), 1_000_000])
    const tx = signedTransfer(held, 3_000_000)
    // the running chain stops (saving its state) and starts again from that state
    await chain.close()
    chain = await startSolanaRpc({ port: 0, stateFile: join(dir, 'solana.json') })
    connection = new Connection(chain.url, 'confirmed')
    expect((await rpc('isBlockhashValid', [held])).result.value).toBe(true)
    expect((await rpc('sendTransaction', [tx, { encoding: 'base64' }])).result).toEqual(expect.any(String))
  })
})
