/** init_fiat_on_ramp (service-interface.md "Submit operations" 5, "Errors" 3). */
import { z } from 'zod'
import { OnRampCryptoCurrency, OnRampFiatCurrency, OnRampNetwork, OnRampPaymentMethod, OnRampProviderName } from '../enums.js'
import { FiatAmount } from '../fields.js'
import { defineSubmit } from '../operation.js'

/** Parameters; `countrySubdivisionCode` is required when `countryCode` is US. */
export const InitFiatOnRampParams = z
  .object({
    /** Either spelling (ALPHA = COINBASE, BETA = MOONPAY); the intent echoes it as sent. */
    onrampProvider: OnRampProviderName,
    walletAddress: z.string().min(1, { error: 'required' }),
    network: OnRampNetwork,
    cryptoCurrencyCode: OnRampCryptoCurrency,
    fiatCurrencyCode: OnRampFiatCurrency.optional(),
    fiatCurrencyAmount: FiatAmount.optional(),
    paymentMethod: OnRampPaymentMethod.optional(),
    countryCode: z.string().optional(),
    countrySubdivisionCode: z.string().optional(),
    sandboxMode: z.boolean().optional(),
    urlForSignature: z.string().optional(),
  })
  .superRefine((p, ctx) => {
    if (p.countryCode?.toUpperCase() === 'US' && !p.countrySubdivisionCode) {
      ctx.addIssue({ code: 'custom', path: ['countrySubdivisionCode'], message: 'required when countryCode is US' })
    }
  })

/** Starts an on-ramp purchase flow: ACTIVITY_TYPE_INIT_FIAT_ON_RAMP. */
export const initFiatOnRamp = defineSubmit({
  name: 'init_fiat_on_ramp',
  path: '/public/v1/submit/init_fiat_on_ramp',
  type: 'ACTIVITY_TYPE_INIT_FIAT_ON_RAMP',
  intentKey: 'initFiatOnRampIntent',
  resultKey: 'initFiatOnRampResult',
  parameters: InitFiatOnRampParams,
  result: z.object({
    onRampUrl: z.string(),
    onRampTransactionId: z.string(),
    onRampUrlSignature: z.string().optional(),
  }),
})
