import type { z } from 'zod'
import { type OnRampProvider, onRampProviderOf } from '../../api/enumLists.js'
import { SigilError, invalidField } from '../../api/errors.js'
import type { initFiatOnRamp } from '../../api/operations/init_fiat_on_ramp.js'
import { checkWalletAddress, currencyOnNetwork } from '../onramp/addresses.js'
import { serviceBaseUrl } from '../onramp/requestOrigin.js'
import { buildOnRampUrl, queryOf, signQuery } from '../onramp/url.js'
import { ancestry } from '../store/organizations.js'
import { findCredential, insertTransaction, openCredentialSecret, type OnRampCredentialRow } from '../store/onramp.js'
import type { Sql } from '../store/sql.js'
import { sandboxSigningKey } from '../onramp/sandboxSignature.js'
import type { ActivityHandler } from './types.js'

type Params = z.infer<typeof initFiatOnRamp.parameters>

/** What a real provider would refuse, beyond the schema. */
function checkOrder(p: Params): void {
  if (!currencyOnNetwork(p.cryptoCurrencyCode, p.network)) {
    throw invalidField('parameters.cryptoCurrencyCode', `${p.cryptoCurrencyCode} is not carried on ${p.network}`)
  }
  const address = checkWalletAddress(p.network, p.walletAddress)
  if (!address.ok) throw invalidField('parameters.walletAddress', `not a valid ${p.network} address: ${address.reason}`)
  if (p.countryCode !== undefined && !/^[A-Za-z]{2}$/.test(p.countryCode)) {
    throw invalidField('parameters.countryCode', 'must be an ISO 3166-1 two-letter country code')
  }
  if (p.countrySubdivisionCode !== undefined) {
    const m = /^(?:([A-Za-z]{2})-)?([A-Za-z0-9]{1,3})$/.exec(p.countrySubdivisionCode)
    if (!m || (m[1] !== undefined && p.countryCode !== undefined && m[1].toUpperCase() !== p.countryCode.toUpperCase())) {
      throw invalidField('parameters.countrySubdivisionCode', 'must be an ISO 3166-2 subdivision code of countryCode')
    }
  }
}

/** The organization's own credential for the provider and mode, else its nearest ancestor's. */
async function credentialFor(
  sql: Sql,
  orgId: string,
  provider: OnRampProvider,
  sandboxMode: boolean,
): Promise<OnRampCredentialRow | undefined> {
  for (const id of await ancestry(sql, orgId)) {
    const row = await findCredential(sql, id, provider, sandboxMode)
    if (row) return row
  }
  return undefined
}

/**
 * init_fiat_on_ramp (service-interface.md submit 5): validates the order, builds the provider
 * URL (the built-in sandbox page when no credential or provider URL is configured), signs it
 * when asked, and records the PENDING transaction in the activity's transaction.
 *
 * @throws INVALID_ARGUMENT when parameters.cryptoCurrencyCode is not carried on parameters.network, parameters.walletAddress is not an address of that network, parameters.countryCode or parameters.countrySubdivisionCode is malformed, or parameters.urlForSignature is not an absolute http(s) URL
 * @throws INTERNAL when the on-ramp credential that would sign parameters.urlForSignature has no stored secret
 */
export const handler: ActivityHandler<Params> = async (ctx, p) => {
  checkOrder(p)
  const sandboxMode = p.sandboxMode ?? false
  // Either spelling names the same provider: its credential, its configured URL, its stored transactions.
  const provider = onRampProviderOf(p.onrampProvider)
  const credential = await credentialFor(ctx.tx, ctx.organizationId, provider, sandboxMode)
  const configured = ctx.rt.config.onRampUrls[provider][sandboxMode ? 'sandbox' : 'live']
  const hostedBySigil = !(credential && configured)
  const transactionId = crypto.randomUUID()
  const base = hostedBySigil ? `${serviceBaseUrl(ctx.rt)}/sandbox/onramp/${transactionId}` : (configured as string)
  const onRampUrl = buildOnRampUrl(base, {
    transactionId,
    walletAddress: p.walletAddress,
    network: p.network,
    cryptoCurrencyCode: p.cryptoCurrencyCode,
    fiatCurrencyCode: p.fiatCurrencyCode,
    fiatCurrencyAmount: p.fiatCurrencyAmount,
    paymentMethod: p.paymentMethod,
    countryCode: p.countryCode,
    countrySubdivisionCode: p.countrySubdivisionCode,
    publishableApiKey: credential?.publishable_api_key,
    projectId: credential?.project_id ?? undefined,
    sandboxMode,
  })

  let onRampUrlSignature: string | undefined
  if (p.urlForSignature !== undefined) {
    // An absolute URL is the caller's own widget URL (the provider SDKs' flow); any other value asks for onRampUrl's.
    let target = onRampUrl
    if (/^https?:\/\//i.test(p.urlForSignature)) {
      try {
        target = new URL(p.urlForSignature).toString()
      } catch {
        throw invalidField('parameters.urlForSignature', 'must be an absolute http(s) URL')
      }
    }
    // Without a stored credential the order goes to the sandbox provider, which signs with its own key.
    const secret = credential ? openCredentialSecret(ctx.rt.secrets, credential, 'secret') : sandboxSigningKey(ctx.rt.keys)
    if (!secret) throw new SigilError('INTERNAL', 'on-ramp credential has no secret')
    try {
      onRampUrlSignature = signQuery(queryOf(target), secret)
    } finally {
      secret.fill(0)
    }
  }

  await insertTransaction(ctx.tx, {
    id: transactionId,
    organization_id: ctx.organizationId,
    activity_id: ctx.activityId,
    provider,
    sandbox_mode: sandboxMode,
    hosted_by_sigil: hostedBySigil,
    credential_id: credential?.id ?? null,
    wallet_address: p.walletAddress,
    network: p.network,
    crypto_currency: p.cryptoCurrencyCode,
    fiat_currency: p.fiatCurrencyCode ?? null,
    fiat_amount: p.fiatCurrencyAmount ?? null,
    payment_method: p.paymentMethod ?? null,
    country_code: p.countryCode?.toUpperCase() ?? null,
    country_subdivision_code: p.countrySubdivisionCode?.toUpperCase() ?? null,
    created_at: ctx.now,
  })
  return { onRampUrl, onRampTransactionId: transactionId, ...(onRampUrlSignature ? { onRampUrlSignature } : {}) }
}
