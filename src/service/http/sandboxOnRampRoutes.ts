/**
 * HTTP routes of the built-in sandbox provider: `GET /sandbox/onramp/{id}` shows
 * the order; `POST …/{id}/complete` and `…/{id}/fail` finish a PENDING purchase (409 once
 * finished, 404 for an unknown order). Browsers get pages, other clients the A3 JSON bodies.
 */
import type { Context } from 'hono'
import { SigilError } from '../../api/errors.js'
import type { Runtime } from '../runtime.js'
import { finishTransaction, getTransaction, type OnRampTransactionRow } from '../store/onramp.js'
import { PAGE_HEADERS, SANDBOX_CSS, badSignaturePage, notFoundPage, orderPage } from '../onramp/sandboxPage.js'
import { verifySandboxSignature } from '../onramp/sandboxSignature.js'
import { queryOf } from '../onramp/url.js'
import { simulatedTxHash } from '../onramp/txHash.js'
import type { ServiceApp } from './app.js'

const wantsHtml = (c: Context) => (c.req.header('accept') ?? '').includes('text/html')

function html(c: Context, body: string, status: 200 | 403 | 404 | 409) {
  return c.html(body, status, PAGE_HEADERS)
}

/** Only orders routed to the built-in sandbox can be seen or finished here. */
async function sandboxOrder(rt: Runtime, id: string): Promise<OnRampTransactionRow | undefined> {
  const t = await getTransaction(rt.db, id)
  return t?.hosted_by_sigil ? t : undefined
}

function refuse(c: Context, e: SigilError, page: string) {
  const status = e.httpStatus as 404 | 409
  return wantsHtml(c) ? html(c, page, status) : c.json(e.toWire(), status)
}

async function finish(rt: Runtime, c: Context, outcome: 'COMPLETED' | 'FAILED') {
  const id = c.req.param('id') ?? ''
  const t = await sandboxOrder(rt, id)
  if (!t) return refuse(c, new SigilError('NOT_FOUND', 'no such sandbox on-ramp order'), notFoundPage())
  const txHash = outcome === 'COMPLETED' ? simulatedTxHash(t.network) : null
  if (!(await finishTransaction(rt.db, t.id, outcome, txHash, rt.now()))) {
    const now = (await getTransaction(rt.db, t.id)) ?? t
    const message = `this order is already ${now.status.toLowerCase()}`
    return refuse(c, new SigilError('ALREADY_EXISTS', message), orderPage(now, `Refused: ${message}.`))
  }
  rt.log.info('sandbox on-ramp order finished', { status: outcome })
  if (wantsHtml(c)) return c.redirect(`/sandbox/onramp/${encodeURIComponent(t.id)}`, 303)
  return c.json({ transactionStatus: outcome, ...(txHash ? { txHash } : {}) })
}

/** Mounts the sandbox provider routes on the service's app. */
export function mountSandboxOnRamp(app: ServiceApp, rt: Runtime): void {
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
    return html(c, orderPage(t), 200)
  })
  app.post('/sandbox/onramp/:id/complete', (c) => finish(rt, c, 'COMPLETED'))
  app.post('/sandbox/onramp/:id/fail', (c) => finish(rt, c, 'FAILED'))
}
