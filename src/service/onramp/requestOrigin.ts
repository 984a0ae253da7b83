/**
 * The service's own base URL for links to the sandbox provider page (issue 6): the
 * configured public URL, else the origin the current request reached the service at
 * (its Host header; the port may be chosen at start), else the configured host and port.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Runtime } from '../runtime.js'

const current = new AsyncLocalStorage<string>()

const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/

/** Runs `fn` with the origin of `req` recorded for {@link serviceBaseUrl}. */
export function withRequestOrigin<T>(req: Request, fn: () => T): T {
  const host = req.headers.get('host')
  if (!host || !HOST.test(host)) return fn()
  return current.run(`http://${host}`, fn)
}

/** Base URL (no trailing slash) at which people reach this service. */
export function serviceBaseUrl(rt: Runtime): string {
  if (rt.config.publicUrl) return rt.config.publicUrl.replace(/\/+$/, '')
  const fromRequest = current.getStore()
  if (fromRequest) return fromRequest
  const host = rt.config.host.includes(':') ? `[${rt.config.host}]` : rt.config.host
  return `http://${host}:${rt.config.port}`
}
