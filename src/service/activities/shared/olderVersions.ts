/**
 * What the older OTP and recovery intents leave out and the current handlers need: an app name.
 * Those intents carried it, optionally, inside the email customization; without one the hosted
 * service sent its default email, so Sigil names itself.
 */
import type { InitOtpFields, InitOtpFieldsV1 } from '../../../api/params.js'

/** The app name of emails and SMS sent for an older intent that names none. */
export const DEFAULT_APP_NAME = 'Sigil'

/** The app name of an older intent's email customization, else {@link DEFAULT_APP_NAME}. */
export function appNameOf(customization: { appName?: string | undefined } | undefined): string {
  return customization?.appName?.trim() || DEFAULT_APP_NAME
}

/** Older OTP-init parameters as the current ones: `appName` lifted out of the email customization. */
export function otpFieldsOf(p: Partial<InitOtpFieldsV1> & Pick<InitOtpFieldsV1, 'otpType' | 'contact'>): InitOtpFields {
  const { emailCustomization, ...rest } = p
  const out: InitOtpFields = { ...rest, appName: appNameOf(emailCustomization) }
  if (emailCustomization) {
    const { appName: _, ...custom } = emailCustomization
    out.emailCustomization = custom
  }
  return out
}
