/**
 * The Solana dev runtime served over HTTP JSON-RPC 2.0 (single requests and batches), with its
 * PubSub websocket on the next port, as a local validator serves them. Bound to 127.0.0.1 by
 * default; state optionally kept in a file.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { servePubSub } from './pubsub.js'
import { answer, INVALID_REQUEST, PARSE_ERROR } from './rpc.js'
import { DEV_SOLANA_CAIP2 } from '../../chains/networks.js'
import { SolanaDevRuntime } from './runtime.js'
import { ensureDevMint } from './tokens.js'
import type { Address } from '@solana/kit'

const MAX_BODY_BYTES = 1024 * 1024
const MAX_BATCH = 100
/** Methods after which the state is written to the state file. */
const MUTATING = new Set(['sendTransaction', 'requestAirdrop'])

export type SolanaRpcOptions = { host?: string; port?: number; stateFile?: string | undefined }

export type RunningSolanaRpc = {
  url: string
  port: number
  /** The PubSub websocket (ws://host:port+1), where web3.js and @solana/kit subscribe. */
  wsUrl: string
  genesisHash: string
  caip2: string
  runtime: SolanaDevRuntime
  close(): Promise<void>
}

export async function startSolanaRpc(options: SolanaRpcOptions = {}): Promise<RunningSolanaRpc> {
  const runtime = SolanaDevRuntime.open(options.stateFile)
  const mintMade = ensureDevMint({
    account: (a) => runtime.account(a as Address),
    balance: (a) => runtime.balance(a as Address),
    airdrop: (a, lamports) => runtime.airdrop(a as Address, lamports),
    latestBlockhash: () => runtime.latestBlockhash(),
    rentExemptMinimum: (space) => runtime.rentExemptMinimum(space),
    submit: (wire) => runtime.send(SolanaDevRuntime.decode(wire), wire).outcome,
  })
  let saveTimer: NodeJS.Timeout | undefined
  const save = () => {
    if (options.stateFile) runtime.save(options.stateFile)
  }
  const scheduleSave = () => {
    if (!options.stateFile || saveTimer) return
    saveTimer = setTimeout(() => {
      saveTimer = undefined
      save()
    }, 200)
  }
  // The dev mint is part of the state from the start: a restart finds it and does not make another.
  if (mintMade) save()

  const server: Server = createServer((req, res) => {
    void handle(req, res)
  })
  async function handle(req: IncomingMessage, res: ServerResponse) {
    res.setHeader('Access-Control-Allow-Origin', '*')
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'Access-Control-Allow-Methods': 'POST',
        'Access-Control-Allow-Headers': allowedHeaders(req.headers['access-control-request-headers']),
        'Access-Control-Max-Age': '600',
        Vary: 'Access-Control-Request-Headers',
      })
      return res.end()
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST', 'Content-Type': 'text/plain' })
      return res.end('Used HTTP Method is not allowed. POST or OPTIONS is required')
    }
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of req) {
      size += (chunk as Buffer).length
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413, { 'Content-Type': 'text/plain', Connection: 'close' })
        return res.end('Payload Too Large')
      }
      chunks.push(chunk as Buffer)
    }
    let body: unknown
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    } catch {
      return reply(res, { jsonrpc: '2.0', error: { code: PARSE_ERROR, message: 'Parse error' }, id: null })
    }
    const one = (r: unknown) => {
      const out = answer(runtime, r)
      if (!('error' in out) && MUTATING.has((r as { method?: string }).method ?? '')) scheduleSave()
      return out
    }
    if (Array.isArray(body)) {
      if (body.length === 0 || body.length > MAX_BATCH) {
        return reply(res, { jsonrpc: '2.0', error: { code: INVALID_REQUEST, message: 'Invalid request' }, id: null })
      }
      return reply(res, body.map(one))
    }
    return reply(res, one(body))
  }

  const host = options.host ?? '127.0.0.1'
  const wsServer = createServer((_req, res) => {
    res.writeHead(426, { 'Content-Type': 'text/plain', Upgrade: 'websocket' })
    res.end('This port serves the PubSub websocket only')
  })
  const port = await listenPair(server, wsServer, options.port ?? 8899, host)
  const pubsub = servePubSub(runtime, wsServer)
  const hostInUrl = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${hostInUrl}:${port}`,
    wsUrl: `ws://${hostInUrl}:${port + 1}`,
    port,
    genesisHash: runtime.genesisHash,
    caip2: DEV_SOLANA_CAIP2,
    runtime,
    async close() {
      await pubsub.close()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      if (saveTimer) clearTimeout(saveTimer)
      save()
    },
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (e: Error) => reject(e)
    server.once('error', failed)
    server.listen(port, host, () => {
      server.off('error', failed)
      resolve()
    })
  })
}

/**
 * Listens with `rpc` on `port` and `ws` on the next one, as a validator's clients expect (they
 * derive the websocket from the RPC URL). Port 0 tries free ports until the next one is free too.
 */
async function listenPair(rpc: Server, ws: Server, port: number, host: string): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    await listen(rpc, port, host)
    const p = (rpc.address() as AddressInfo).port
    try {
      if (p === 65535) throw Object.assign(new Error('no port after 65535'), { code: 'EADDRINUSE' })
      await listen(ws, p + 1, host)
      return p
    } catch (e) {
      await new Promise<void>((resolve) => rpc.close(() => resolve()))
      if (port !== 0 || attempt >= 20 || (e as { code?: string }).code !== 'EADDRINUSE') throw e
    }
  }
}

function reply(res: ServerResponse, payload: unknown) {
  const text = JSON.stringify(payload)
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) })
  res.end(text)
}

/**
 * The headers a browser client may send, for a CORS preflight: the ones it asks for (web3.js and
 * `@solana/kit` add `solana-client`; others add their own), as a validator's RPC allows any, when
 * each is a plain header name; always `Content-Type`. No credentials are ever allowed, so this
 * opens nothing a page could not already do with a simple request.
 */
export function allowedHeaders(requested: string | undefined): string {
  const names = (requested ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => /^[a-z0-9!#$%&'*+.^_`|~-]{1,64}$/.test(h))
    .slice(0, 32)
  return [...new Set(['content-type', ...names])].join(', ')
}
