/**
 * The built-in sandbox provider page: the order, its status, and plain HTML form
 * buttons to complete or fail the simulated purchase. No script; styles from one stylesheet.
 */
import type { OnRampTransactionRow } from '../store/onramp.js'
import { SANDBOX_MAX_FIAT, type SandboxQuote } from './delivery.js'

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c)
const strip = (v: string | null, prefix: string) => (v ? v.replace(prefix, '') : '')
const words = (v: string) =>
  v
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ')

const PAYMENT_LABELS: Record<string, string> = {
  CREDIT_DEBIT_CARD: 'Credit or debit card',
  ACH_BANK_ACCOUNT: 'ACH bank account',
  GBP_BANK_TRANSFER: 'GBP bank transfer',
  GBP_OPEN_BANKING_PAYMENT: 'GBP open banking',
  SEPA_BANK_TRANSFER: 'SEPA bank transfer',
  PIX_INSTANT_PAYMENT: 'PIX instant payment',
}
const paymentLabel = (m: string) => PAYMENT_LABELS[m] ?? words(m)

/** Security headers of every sandbox page: no script at all, forms post to this service only. */
export const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<link rel="stylesheet" href="/sandbox/onramp/assets/sandbox.css">
<link rel="icon" href="data:,">
</head>
<body>
<main class="card">
<p class="badge">Sandbox — simulated payment, no real money moves</p>
${body}
</main>
</body>
</html>
`
}

const STATUS_TEXT: Record<OnRampTransactionRow['status'], string> = {
  PENDING: 'Waiting for you to complete or fail the purchase.',
  COMPLETED: 'The simulated purchase went through; the crypto was sent to the wallet.',
  FAILED: 'The simulated purchase did not go through; nothing was sent.',
  NOT_DELIVERED: 'Sandbox: nothing is delivered.',
}

/** What the sandbox delivers, or why nothing, in words. */
function deliveryText(q: SandboxQuote): string {
  if (!q.deliverable) return `Sandbox: nothing is delivered — ${q.reason}.`
  const cap = q.capped ? ` (the sandbox delivers at most ${SANDBOX_MAX_FIAT} worth per order)` : ''
  return `${q.amount} ${q.symbol} on ${q.network.name}, from the dev faucet at the sandbox rate of ${q.rate} per ${q.symbol}, any currency counted as US dollars${cap}.`
}

/** The order page of one transaction. */
export function orderPage(t: OnRampTransactionRow, quote: SandboxQuote, notice?: string): string {
  const crypto = strip(t.crypto_currency, 'FIAT_ON_RAMP_CRYPTO_CURRENCY_')
  const network = words(strip(t.network, 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_'))
  const fiat = strip(t.fiat_currency, 'FIAT_ON_RAMP_CURRENCY_')
  const amount = t.fiat_amount ? `${t.fiat_amount} ${fiat || ''}`.trim() : 'Entered at checkout'
  const rows: Array<[string, string]> = [
    ['You buy', `${crypto} on ${network}`],
    ['You pay', amount],
    ['You receive', deliveryText(quote)],
    ['Payment method', t.payment_method ? paymentLabel(strip(t.payment_method, 'FIAT_ON_RAMP_PAYMENT_METHOD_')) : 'Any'],
    ['Wallet address', t.wallet_address],
    ['Country', [t.country_code, t.country_subdivision_code].filter(Boolean).join(' / ') || 'Not given'],
    ['Provider', words(strip(t.provider, 'FIAT_ON_RAMP_PROVIDER_')) + (t.sandbox_mode ? ' (sandbox mode)' : '')],
    ['Order', t.id],
  ]
  const list = rows
    .map(([k, v]) => {
      const long = k === 'Wallet address' || k === 'Order' || k === 'You receive'
      const mono = k === 'Wallet address' || k === 'Order'
      return `<div class="row${long ? ' long' : ''}"><dt>${esc(k)}</dt><dd${mono ? ' class="mono"' : ''}>${esc(v)}</dd></div>`
    })
    .join('\n')
  const actions =
    t.status === 'PENDING'
      ? `<div class="actions">
<form method="post" action="/sandbox/onramp/${esc(t.id)}/complete"><button type="submit" class="primary">${quote.deliverable ? 'Complete purchase' : 'Complete (nothing is delivered)'}</button></form>
<form method="post" action="/sandbox/onramp/${esc(t.id)}/fail"><button type="submit" class="secondary">Fail</button></form>
</div>`
      : ''
  const hash = t.tx_hash ? `<p class="hash">Transaction hash <code>${esc(t.tx_hash)}</code></p>` : ''
  return layout(
    `Buy ${crypto} — Sigil sandbox`,
    `<h1>Buy ${esc(crypto)}</h1>
<dl>
${list}
</dl>
<p class="status status-${t.status.toLowerCase().replace('_', '-')}" role="status">${statusLine(t, quote)}</p>
${hash}
${notice ? `<p class="notice" role="alert">${esc(notice)}</p>` : ''}
${actions}`,
  )
}

function statusLine(t: OnRampTransactionRow, quote: SandboxQuote): string {
  if (t.status === 'NOT_DELIVERED')
    return `<strong>${esc(STATUS_TEXT.NOT_DELIVERED)}</strong>${quote.deliverable ? '' : ` ${esc(quote.reason)}.`}`
  return `<strong>${esc(words(t.status))}.</strong> ${esc(STATUS_TEXT[t.status])}`
}

/** A page for an unknown order. */
export function badSignaturePage(): string {
  return layout(
    'Signature does not verify — Sigil sandbox',
    '<h1>Signature does not verify</h1>\n<p>This link carries a signature the sandbox provider did not make for it.</p>',
  )
}

export function notFoundPage(): string {
  return layout('Order not found — Sigil sandbox', '<h1>Order not found</h1>\n<p>No sandbox on-ramp order has this id.</p>')
}

/** The one stylesheet of the sandbox pages. */
export const SANDBOX_CSS = `:root{color-scheme:light dark;--bg:#f4f5f7;--card:#fff;--fg:#1b1d22;--muted:#5d6270;--line:#e3e5ea;--accent:#3949ab;--accent-fg:#fff;--ok:#1b7f3b;--bad:#b3261e;--warn:#8a5a00}
@media (prefers-color-scheme:dark){:root{--bg:#15171b;--card:#1f2228;--fg:#eceef2;--muted:#a3a8b4;--line:#30343c;--accent:#8c9eff;--accent-fg:#10131a;--ok:#6fd08c;--bad:#f2b8b5;--warn:#f5c46b}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;padding:24px}
.card{width:100%;max-width:520px;background:var(--card);border:1px solid var(--line);border-radius:16px;padding:28px 32px;box-shadow:0 8px 24px rgba(0,0,0,.06)}
.badge{display:inline-block;margin:0 0 12px;padding:2px 10px;border-radius:999px;background:var(--bg);color:var(--warn);font-size:13px;font-weight:600}
h1{margin:0 0 16px;font-size:24px}
dl{margin:0 0 20px;border-top:1px solid var(--line)}
.row{display:flex;gap:16px;justify-content:space-between;padding:10px 0;border-bottom:1px solid var(--line)}
.row.long{display:block}.row.long dd{text-align:left;margin-top:2px}
dt{color:var(--muted);flex:none}
dd{margin:0;text-align:right;overflow-wrap:anywhere}
.mono,code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
.status{margin:0 0 12px;padding:10px 12px;border-radius:10px;background:var(--bg)}
.status-completed strong{color:var(--ok)}.status-failed strong,.status-not-delivered strong{color:var(--bad)}.status-pending strong{color:var(--warn)}
.hash code{overflow-wrap:anywhere}
.notice{color:var(--bad);font-weight:600}
.actions{display:flex;gap:12px;margin-top:20px}
.actions form{flex:1;margin:0}
button{width:100%;padding:12px 16px;border-radius:10px;font:inherit;font-weight:600;cursor:pointer;border:1px solid var(--accent)}
.primary{background:var(--accent);color:var(--accent-fg)}
.secondary{background:transparent;color:var(--accent)}
button:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
`
