import type { Runtime } from '../runtime.js'
import { listMessages, type MessageRow } from '../store/mailbox.js'
import type { ServiceApp } from './app.js'

/** A message as `GET /dev/messages` shows it (wire-formats A6), plus its delivery state. */
function toWire(m: MessageRow) {
  return {
    id: m.id,
    channel: m.channel,
    to: m.to_address,
    from: m.from_address,
    subject: m.subject,
    text: m.text_body,
    html: m.html_body,
    createdAt: new Date(Number(m.created_at)).toISOString(),
    replyTo: m.reply_to,
    delivery: m.delivery,
    attempts: Number(m.attempts),
    lastError: m.last_error,
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

/**
 * The dev mailbox (wire-formats A6): `GET /dev/messages` (JSON, newest first) and `GET /dev/mailbox`
 * (the same for people). Mounted only when `config.devMailbox` is on. It shows message text,
 * which holds OTP codes and recovery bundles by design: it is a development tool.
 */
export function mountMailbox(app: ServiceApp, rt: Runtime): void {
  app.get('/dev/messages', async (c) => {
    const rows = await listMessages(rt.db)
    c.header('Cache-Control', 'no-store')
    return c.json({ messages: rows.map(toWire) })
  })
  app.get('/dev/mailbox', async (c) => {
    const rows = await listMessages(rt.db)
    const items = rows
      .map((m) => {
        const w = toWire(m)
        return `<article><h2>${escapeHtml(w.subject || '(SMS)')}</h2>
<p><b>${escapeHtml(w.channel)}</b> to ${escapeHtml(w.to)} from ${escapeHtml(w.from)} at ${escapeHtml(w.createdAt)} (${escapeHtml(w.delivery)})</p>
<pre>${escapeHtml(w.text)}</pre></article>`
      })
      .join('<hr>')
    c.header('Cache-Control', 'no-store')
    c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
    return c.html(
      `<!doctype html><html><head><meta charset="utf-8"><title>Sigil dev mailbox</title><meta http-equiv="refresh" content="5">
<style>body{font-family:sans-serif;max-width:50em;margin:2em auto}pre{white-space:pre-wrap;background:#f4f4f4;padding:1em}</style></head>
<body><h1>Sigil dev mailbox</h1><p>${rows.length} message(s), newest first.</p>${items || '<p>No messages yet.</p>'}</body></html>`,
    )
  })
}
