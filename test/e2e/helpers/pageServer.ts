/** A tiny HTTP server for test pages on 127.0.0.1 with an ephemeral port. */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A running page server. */
export type PageServer = { origin: string; url: (path: string) => string; close: () => Promise<void> }

/** Serve `pages` (`{ '/path': html }`) as text/html; anything else is 404. */
export async function startPageServer(pages: Record<string, string>): Promise<PageServer> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
    const html = Object.hasOwn(pages, path) ? pages[path] : undefined
    if (html === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      return
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo
  const origin = `http://127.0.0.1:${port}`
  return {
    origin,
    url: (path) => `${origin}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
