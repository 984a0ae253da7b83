/**
 * The Solana dev runtime's PubSub websocket, as a validator serves it on its RPC port + 1:
 * JSON-RPC 2.0 over ws with signatureSubscribe, accountSubscribe, slotSubscribe and
 * logsSubscribe (and their unsubscribes), notifications in the shapes of
 * solana.com/docs/rpc/websocket, driven by the runtime's own events. Every frame is validated;
 * bad input is answered with a JSON-RPC error on the socket and never stops the server.
 */
import type { Server } from 'node:http'
import { base58, base64 } from '@scure/base'
import { type Address, isAddress } from '@solana/kit'
import { type WebSocket, WebSocketServer } from 'ws'
import { z } from 'zod'
import { INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR } from './rpc.js'
import type { SolanaDevRuntime, TransactionRecord } from './runtime.js'

/** The largest frame a client may send; larger ones close that socket (1009), never the server. */
const MAX_FRAME_BYTES = 64 * 1024
/** Subscriptions one socket may hold at once. */
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 256
/** A subscription could not be added (the socket holds the most it may). */
const SUBSCRIPTION_LIMIT = -32000
const SYSTEM_PROGRAM = '11111111111111111111111111111111'

const Pubkey = z.string().refine((s) => isAddress(s), 'Invalid param: Invalid')
const Signature = z.string().refine((s) => {
  try {
    return /^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(s) && base58.decode(s).length === 64
  } catch {
    return false
  }
}, 'Invalid param: not a signature')
const Commitment = z.enum(['processed', 'confirmed', 'finalized']).optional()
const SubscriptionId = z.tuple([z.number().int().nonnegative()])

type Subscription =
  | { kind: 'signature'; signature: string }
  | { kind: 'account'; pubkey: string; encoding: 'base58' | 'base64' | 'jsonParsed'; last: string }
  | { kind: 'slot' }
  | { kind: 'logs'; mentions: string | null }

type Socket = { ws: WebSocket; subscriptions: Map<number, Subscription> }

const SUBSCRIBE = {
  signatureSubscribe: z
    .tuple([Signature])
    .rest(z.looseObject({ commitment: Commitment, enableReceivedNotification: z.boolean().optional() }).optional()),
  accountSubscribe: z.tuple([Pubkey]).rest(
    z
      .looseObject({
        commitment: Commitment,
        encoding: z.enum(['base58', 'base64', 'jsonParsed']).optional(),
      })
      .optional(),
  ),
  slotSubscribe: z.tuple([]),
  logsSubscribe: z
    .tuple([
      z.union([
        z.enum(['all', 'allWithVotes']),
        z.strictObject({ mentions: z.tuple([Pubkey], { message: 'Invalid Request: Only 1 address supported' }) }),
      ]),
    ])
    .rest(z.looseObject({ commitment: Commitment }).optional()),
} as const

/** Which subscription kind each unsubscribe removes. */
const UNSUBSCRIBE: Record<string, Subscription['kind']> = {
  signatureUnsubscribe: 'signature',
  accountUnsubscribe: 'account',
  slotUnsubscribe: 'slot',
  logsUnsubscribe: 'logs',
}

export type RunningPubSub = { port: number; close(): Promise<void> }

/** Serves PubSub for `runtime` on `server` (already listening); notifications follow the runtime's events. */
export function servePubSub(runtime: SolanaDevRuntime, server: Server): RunningPubSub {
  const wss = new WebSocketServer({ server, maxPayload: MAX_FRAME_BYTES })
  const sockets = new Set<Socket>()
  let nextId = 0

  const send = (s: Socket, payload: unknown) => {
    if (s.ws.readyState === s.ws.OPEN) s.ws.send(JSON.stringify(payload))
  }
  const notify = (s: Socket, method: string, subscription: number, result: unknown) =>
    send(s, { jsonrpc: '2.0', method, params: { result, subscription } })

  const accountValue = (pubkey: string, encoding: 'base58' | 'base64' | 'jsonParsed') => {
    const a = runtime.account(pubkey as Address)
    const data = a ? Uint8Array.from(a.data) : new Uint8Array()
    // A closed account is announced as Solana does: no lamports, no data, owned by the system program.
    return {
      data: encoding === 'base58' ? [base58.encode(data), 'base58'] : [base64.encode(data), 'base64'],
      executable: a?.executable ?? false,
      lamports: Number(a?.lamports ?? 0n),
      owner: a?.programAddress ?? SYSTEM_PROGRAM,
      rentEpoch: Number.MAX_SAFE_INTEGER,
      space: data.length,
    }
  }
  const fingerprint = (pubkey: string) => {
    const a = runtime.account(pubkey as Address)
    return a ? `${a.lamports}:${a.programAddress}:${a.executable}:${base64.encode(Uint8Array.from(a.data))}` : 'closed'
  }

  const signatureResult = (r: TransactionRecord) => ({ context: { slot: r.slot }, value: { err: r.err } })

  const stop = runtime.listen({
    processed(record) {
      const keys = new Set(record.accountKeys ?? [])
      for (const s of sockets) {
        for (const [id, sub] of s.subscriptions) {
          if (sub.kind === 'signature' && sub.signature === record.signature) {
            s.subscriptions.delete(id)
            notify(s, 'signatureNotification', id, signatureResult(record))
          } else if (sub.kind === 'account' && keys.has(sub.pubkey)) {
            const now = fingerprint(sub.pubkey)
            if (now === sub.last) continue
            sub.last = now
            notify(s, 'accountNotification', id, { context: { slot: record.slot }, value: accountValue(sub.pubkey, sub.encoding) })
          } else if (sub.kind === 'logs' && (sub.mentions === null || keys.has(sub.mentions))) {
            notify(s, 'logsNotification', id, {
              context: { slot: record.slot },
              value: { signature: record.signature, err: record.err, logs: record.logs },
            })
          }
        }
      }
    },
    slot(slot, parent) {
      for (const s of sockets)
        for (const [id, sub] of s.subscriptions) if (sub.kind === 'slot') notify(s, 'slotNotification', id, { parent, root: parent, slot })
    },
  })

  const error = (s: Socket, id: unknown, code: number, message: string) =>
    send(s, { jsonrpc: '2.0', error: { code, message }, id: typeof id === 'number' || typeof id === 'string' ? id : null })

  function handle(s: Socket, text: string) {
    let request: unknown
    try {
      request = JSON.parse(text)
    } catch {
      return error(s, null, PARSE_ERROR, 'Parse error')
    }
    if (!request || typeof request !== 'object' || Array.isArray(request)) return error(s, null, INVALID_REQUEST, 'Invalid request')
    const { jsonrpc, method, params, id } = request as { jsonrpc?: unknown; method?: unknown; params?: unknown; id?: unknown }
    if (jsonrpc !== '2.0' || typeof method !== 'string') return error(s, id, INVALID_REQUEST, 'Invalid request')

    const kind = Object.hasOwn(UNSUBSCRIBE, method) ? UNSUBSCRIBE[method] : undefined
    if (kind) {
      const parsed = SubscriptionId.safeParse(params ?? [])
      if (!parsed.success) return error(s, id, INVALID_PARAMS, 'Invalid params: 0: expected a subscription id')
      const [subscription] = parsed.data
      const found = s.subscriptions.get(subscription)?.kind === kind
      if (found) s.subscriptions.delete(subscription)
      return send(s, { jsonrpc: '2.0', result: found, id })
    }
    if (!Object.hasOwn(SUBSCRIBE, method)) return error(s, id, METHOD_NOT_FOUND, 'Method not found')
    const schema = SUBSCRIBE[method as keyof typeof SUBSCRIBE]
    const parsed = schema.safeParse(params ?? [])
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      return error(s, id, INVALID_PARAMS, `Invalid params: ${issue ? `${issue.path.join('.') || 'params'}: ${issue.message}` : 'invalid'}`)
    }
    if (s.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_SOCKET) {
      return error(s, id, SUBSCRIPTION_LIMIT, `Too many subscriptions on this connection (at most ${MAX_SUBSCRIPTIONS_PER_SOCKET})`)
    }
    const subscription = nextId++
    const p = parsed.data as unknown[]
    let sub: Subscription
    if (method === 'signatureSubscribe') sub = { kind: 'signature', signature: p[0] as string }
    else if (method === 'accountSubscribe') {
      const pubkey = p[0] as string
      const encoding = (p[1] as { encoding?: 'base58' | 'base64' | 'jsonParsed' } | undefined)?.encoding ?? 'base58'
      // jsonParsed has no parser for arbitrary accounts here: base64, as Solana falls back.
      sub = { kind: 'account', pubkey, encoding: encoding === 'jsonParsed' ? 'base64' : encoding, last: fingerprint(pubkey) }
    } else if (method === 'slotSubscribe') sub = { kind: 'slot' }
    else {
      const filter = p[0] as 'all' | 'allWithVotes' | { mentions: [string] }
      sub = { kind: 'logs', mentions: typeof filter === 'string' ? null : filter.mentions[0] }
    }
    send(s, { jsonrpc: '2.0', result: subscription, id })
    if (sub.kind === 'signature') {
      // Already processed: the one notification now, and the subscription is done.
      const record = runtime.status(sub.signature)
      if (record) return notify(s, 'signatureNotification', subscription, signatureResult(record))
    }
    s.subscriptions.set(subscription, sub)
  }

  wss.on('connection', (ws) => {
    const s: Socket = { ws, subscriptions: new Map() }
    sockets.add(s)
    ws.on('message', (data, isBinary) => {
      if (isBinary) return error(s, null, INVALID_REQUEST, 'Invalid request: binary frames are not JSON-RPC')
      try {
        handle(s, data.toString())
      } catch {
        error(s, null, -32603, 'Internal error')
      }
    })
    ws.on('error', () => ws.terminate())
    ws.on('close', () => sockets.delete(s))
  })
  wss.on('error', () => {})

  return {
    port: (server.address() as { port: number }).port,
    async close() {
      stop()
      for (const s of sockets) s.ws.terminate()
      sockets.clear()
      await new Promise<void>((resolve) => wss.close(() => resolve()))
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
  }
}
