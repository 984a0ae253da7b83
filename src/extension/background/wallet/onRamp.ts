/**
 * Fiat on-ramp: parameters validated with the service's own schema
 * (src/api/operations/init_fiat_on_ramp.ts), init_fiat_on_ramp, then the returned URL opened in
 * a new tab; get_on_ramp_transaction_status for the result.
 */
import { z } from 'zod'
import type { SigilClient } from '../../../api/client'
import { InitFiatOnRampParams } from '../../../api/operations/init_fiat_on_ramp'
import type { ActiveSession, Core } from '../core'
import { ExtensionError } from '../failures'
import { fieldFailure } from '../fieldErrors'

/** `storage.session` key of the last purchase started (the popup may close when the tab opens). */
export const LAST_ON_RAMP_KEY = 'sigil.lastOnRamp'

const LastOnRamp = z.object({ transactionId: z.string(), createdAt: z.number() })

/** The last purchase started in this browser session, if any. */
export async function readLastOnRamp(core: Core): Promise<z.output<typeof LastOnRamp> | null> {
  const parsed = LastOnRamp.safeParse((await core.deps.session.get(LAST_ON_RAMP_KEY))[LAST_ON_RAMP_KEY])
  return parsed.success ? parsed.data : null
}

/** Validate on-ramp parameters; INVALID_ARGUMENT naming the fields otherwise. */
export function parseOnRampParams(input: unknown): z.output<typeof InitFiatOnRampParams> {
  const parsed = InitFiatOnRampParams.safeParse(input)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  if (issue?.path.at(-1) === 'fiatCurrencyAmount' && issue.code === 'custom') {
    const fiat = String((input as { fiatCurrencyCode?: unknown }).fiatCurrencyCode ?? 'USD').replace(/^FIAT_ON_RAMP_CURRENCY_/, '')
    throw new ExtensionError('INVALID_ARGUMENT', `The minimum is more than 20 ${fiat}.`, 'fiatCurrencyAmount')
  }
  throw fieldFailure(parsed.error.issues)
}

/** Start a purchase and open the provider page. */
export async function startOnRamp(
  core: Core,
  client: SigilClient,
  session: ActiveSession,
  input: unknown,
): Promise<{ onRampUrl: string; onRampTransactionId: string; status: string }> {
  const params = parseOnRampParams(input)
  const res = await client.initFiatOnRamp({ organizationId: session.record.organizationId, ...params })
  if (res.activity.status !== 'ACTIVITY_STATUS_COMPLETED' || !res.onRampUrl) {
    return { onRampUrl: '', onRampTransactionId: '', status: res.activity.status }
  }
  let url: URL
  try {
    url = new URL(res.onRampUrl)
  } catch {
    throw new ExtensionError('REQUEST_FAILED', 'The service returned an invalid on-ramp URL.')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ExtensionError('REQUEST_FAILED', 'The service returned an invalid on-ramp URL.')
  }
  await core.deps.session.set({ [LAST_ON_RAMP_KEY]: { transactionId: res.onRampTransactionId, createdAt: core.now() } })
  await core.deps.openTab(url.href)
  return { onRampUrl: url.href, onRampTransactionId: res.onRampTransactionId, status: res.activity.status }
}

/** Status of an on-ramp transaction. */
export async function onRampStatus(
  client: SigilClient,
  session: ActiveSession,
  p: { transactionId: string },
): Promise<{ transactionStatus: string }> {
  return client.getOnRampTransactionStatus({
    organizationId: session.record.organizationId,
    transactionId: p.transactionId,
    refresh: true,
  })
}
