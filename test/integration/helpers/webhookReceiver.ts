import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export type ReceivedWebhook = { headers: IncomingHttpHeaders; body: string; at: number }

/**
 * A webhook receiver on 127.0.0.1: records every POST (headers, exact body) and answers with the
 * next status of `statuses` (200 once they run out).
 */
export async function startWebhookReceiver(statuses: number[] = []) {
  const received: ReceivedWebhook[] = []
  const waiters: Array<() => void> = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() })
      res.statusCode = statuses.shift() ?? 200
      res.end('ok')
      for (const w of waiters.splice(0)) w()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    statuses,
    /** Resolves once `pred` holds for what was received (fails after `timeoutMs`). */
    async waitFor(pred: (r: ReceivedWebhook[]) => boolean, timeoutMs = 5_000): Promise<ReceivedWebhook[]> {
      const until = Date.now() + timeoutMs
      while (!pred(received)) {
        if (Date.now() > until) throw new Error(`webhook receiver: condition not met within ${timeoutMs} ms (got ${received.length})`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 50)
        })
      }
      return received
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>
