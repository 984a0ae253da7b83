/**
 * HTTP routes of the built-in sandbox provider: `GET /sandbox/onramp/{id}` shows
 * the order; `POST …/{id}/complete` and `…/{id}/fail` finish a PENDING purchase (409 once
 * finished, 404 for an unknown order). Browsers get pages, other clients the A3 JSON bodies.
 * Completing sends the bought coin through `deliver` when the order maps to a dev network
 * (onramp/delivery.ts) and records the mined transaction's hash; otherwise the order ends
 * NOT_DELIVERED. A delivery the chain does not take leaves the order PENDING, to try again.
 */
import type { Context } from 'hono'
import { SigilError } from '../../api/errors.js'
import type { Runtime } from '../runtime.js'
import { finishTransaction, getTransaction, type OnRampTransactionRow } from '../store/onramp.js'
import { PAGE_HEADERS, SANDBOX_CSS, badSignaturePage, notFoundPage, orderPage } from '../onramp/sandboxPage.js'
import { verifySandboxSignature } from '../onramp/sandboxSignature.js'
import { queryOf } from '../onramp/url.js'
import { type SandboxDeliver, sandboxQuote } from '../onramp/delivery.js'
import type { ServiceApp } from './app.js'

const wantsHtml = (c: Context) => (c.req.header('accept') ?? '').includes('text/html')

function html(c: Context, body: string, status: 200 | 403 | 404 | 409 | 503) {
  return c.html(body, status, PAGE_HEADERS)
}

/** Only orders routed to the built-in sandbox can be seen or finished here. */
async function sandboxOrder(rt: Runtime, id: string): Promise<OnRampTransactionRow | undefined> {
  const t = await getTransaction(rt.db, id)
  return t?.hosted_by_sigil ? t : undefined
}

function refuse(c: Context, e: SigilError, page: string) {
  const status = e.httpStatus as 404 | 409 | 503
  return wantsHtml(c) ? html(c, page, status) : c.json(e.toWire(), status)
}

/** Orders whose delivery is under way in this process: a second complete waits its turn with a 409. */
const delivering = new Set<string>()

async function finish(rt: Runtime, c: Context, outcome: 'COMPLETED' | 'FAILED', deliver: SandboxDeliver | undefined) {
  const id = c.req.param('id') ?? ''
  const t = await sandboxOrder(rt, id)
  if (!t) return refuse(c, new SigilError('NOT_FOUND', 'no such sandbox on-ramp order'), notFoundPage())
  const quote = sandboxQuote(t, rt.config.networks, deliver !== undefined)
  if (delivering.has(t.id)) {
    const message = 'this order is being delivered'
    return refuse(c, new SigilError('ALREADY_EXISTS', message), orderPage(t, quote, `Refused: ${message}.`))
  }
  delivering.add(t.id)
  try {
    if (t.status !== 'PENDING') return alreadyFinished(rt, c, t, deliver !== undefined)
    let status: 'COMPLETED' | 'FAILED' | 'NOT_DELIVERED' = outcome
    let txHash: string | null = null
    if (outcome === 'COMPLETED' && !quote.deliverable) status = 'NOT_DELIVERED'
    if (outcome === 'COMPLETED' && quote.deliverable && deliver) {
      try {
        txHash = (await deliver(quote.network, t.wallet_address, quote.amount)).txHash
      } catch (e) {
        const reason = e instanceof Error ? e.message : String(e)
        rt.log.warn('sandbox on-ramp delivery failed', { reason })
        const message = `the dev chain did not take the delivery (${reason}); nothing was sent, the order is still open`
        return refuse(c, new SigilError('UNAVAILABLE', message), orderPage(t, quote, `${message}.`))
      }
    }
    if (!(await finishTransaction(rt.db, t.id, status, txHash, rt.now()))) return alreadyFinished(rt, c, t, deliver !== undefined)
    rt.log.info('sandbox on-ramp order finished', { status })
    if (wantsHtml(c)) return c.redirect(`/sandbox/onramp/${encodeURIComponent(t.id)}`, 303)
    return c.json({
      transactionStatus: status,
      ...(txHash ? { txHash } : {}),
      ...(!quote.deliverable && outcome === 'COMPLETED' ? { message: `sandbox: nothing is delivered — ${quote.reason}` } : {}),
      ...(quote.deliverable && status === 'COMPLETED' ? { amount: quote.amount, symbol: quote.symbol, caip2: quote.network.caip2 } : {}),
    })
  } finally {
    delivering.delete(t.id)
  }
}

async function alreadyFinished(rt: Runtime, c: Context, t: OnRampTransactionRow, canDeliver: boolean) {
  const now = (await getTransaction(rt.db, t.id)) ?? t
  const message = `this order is already ${now.status === 'NOT_DELIVERED' ? 'finished (nothing was delivered)' : now.status.toLowerCase()}`
  const quote = sandboxQuote(now, rt.config.networks, canDeliver)
  return refuse(c, new SigilError('ALREADY_EXISTS', message), orderPage(now, quote, `Refused: ${message}.`))
}

/**
 * Mounts the sandbox provider routes on the service's app. `deliver` (dev tools only, wired by the
 * composition root) lets a completed purchase send the bought coin on a dev network.
 */
export function mountSandboxOnRamp(app: ServiceApp, rt: Runtime, deliver?: SandboxDeliver): void {
  app.get('/sandbox/onramp/assets/sandbox.css', (c) =>
    c.body(SANDBOX_CSS, 200, {
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
    }),
  )
  app.get('/sandbox/onramp/:id', async (c) => {
    const t = await sandboxOrder(rt, c.req.param('id'))
    if (!t) return html(c, notFoundPage(), 404)
    // A link carrying a `signature` (the signed-URL flow) must carry the sandbox provider's own.
    const parts = queryOf(c.req.url).split('&')
    const signature = parts.find((p) => p.startsWith('signature='))
    if (signature !== undefined) {
      const signed = parts.filter((p) => !p.startsWith('signature=')).join('&')
      if (!verifySandboxSignature(rt.keys, signed, decodeURIComponent(signature.slice('signature='.length)))) {
        return html(c, badSignaturePage(), 403)
      }
    }
    return html(c, orderPage(t, sandboxQuote(t, rt.config.networks, deliver !== undefined)), 200)
  })
  app.post('/sandbox/onramp/:id/complete', (c) => finish(rt, c, 'COMPLETED', deliver))
  app.post('/sandbox/onramp/:id/fail', (c) => finish(rt, c, 'FAILED', deliver))
}
