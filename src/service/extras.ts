import type { Hono } from 'hono'
import type { Runtime } from './runtime.js'
import { mountRelay } from '../relay/mount.js'
import { mountMailbox } from './mail/routes.js'
import { outboxFor } from './mail/outbox.js'
import { mountSandboxOnRamp } from './onramp/sandboxRoutes.js'

/** Routes beyond the wire interface: dev mailbox, relay, sandbox on-ramp (issues 5, 6). */
export function mountExtras(app: Hono<any>, rt: Runtime): void {
  mountSandboxOnRamp(app, rt)
  // issue 5: dev mailbox (A6), the outbox worker when a transport is configured, the relay at /auth
  if (rt.config.devMailbox) mountMailbox(app, rt)
  if (rt.config.smtpUrl || rt.config.smsWebhookUrl) outboxFor(rt)
  if (rt.config.relay) mountRelay(app, rt)
}
