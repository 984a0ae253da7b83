import type { Hono } from 'hono'
import type { Runtime } from './runtime.js'

/** Routes beyond the wire interface: dev mailbox, relay, sandbox on-ramp (issues 5, 6). */
export function mountExtras(_app: Hono<any>, _rt: Runtime): void {}
