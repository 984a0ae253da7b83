import { invalidField } from '../../api/errors.js'
import type { NewMessage } from '../store/mailbox.js'

/** Email customization fields (service-interface init_otp_auth, init_user_email_recovery). */
export type EmailOptions = {
  appName: string
  logoUrl?: string | undefined
  magicLinkTemplate?: string | undefined
  templateVariables?: string | undefined
  templateId?: string | undefined
  sendFromEmailAddress?: string | undefined
  sendFromEmailSenderName?: string | undefined
  replyToEmailAddress?: string | undefined
}

const EMAIL = /^[^\s@<>",]+@[^\s@<>",]+\.[^\s@<>",]+$/

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

/** `"Name" <address>`; the name defaults to `Notifications` (service-interface init_otp_auth). */
export function senderOf(o: EmailOptions, defaultFrom: string, field = 'parameters'): string {
  const address = o.sendFromEmailAddress || defaultFrom
  if (o.sendFromEmailAddress && !EMAIL.test(o.sendFromEmailAddress)) {
    throw invalidField(`${field}.sendFromEmailAddress`, 'is not an email address')
  }
  const name = (o.sendFromEmailSenderName || 'Notifications').replace(/["\r\n<>]/g, '')
  return `"${name}" <${address}>`
}

/** Checks the customization fields, naming the bad one. */
export function checkEmailOptions(o: EmailOptions, field: string, customizationField: string): void {
  if (!o.appName?.trim() && !o.templateId) throw invalidField(`${field}.appName`, 'required')
  if (o.replyToEmailAddress && !EMAIL.test(o.replyToEmailAddress)) {
    throw invalidField(`${field}.replyToEmailAddress`, 'is not an email address')
  }
  if (o.logoUrl && !/^https?:\/\//.test(o.logoUrl)) throw invalidField(`${customizationField}.logoUrl`, 'must be an http(s) URL')
  if (o.magicLinkTemplate && !/^(https?|chrome-extension|moz-extension):\/\//i.test(o.magicLinkTemplate)) {
    throw invalidField(`${customizationField}.magicLinkTemplate`, 'must be an http(s) or extension URL')
  }
  if (o.magicLinkTemplate && !o.magicLinkTemplate.includes('%s')) {
    throw invalidField(`${customizationField}.magicLinkTemplate`, 'must contain the %s placeholder')
  }
  if (o.templateVariables) {
    let v: unknown
    try {
      v = JSON.parse(o.templateVariables)
    } catch {
      throw invalidField(`${customizationField}.templateVariables`, 'must be a JSON object as a string')
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      throw invalidField(`${customizationField}.templateVariables`, 'must be a JSON object as a string')
    }
  }
}

/** `{{name}}` placeholders from templateVariables, HTML-escaped when `html`. */
function applyVariables(s: string, o: EmailOptions, html: boolean): string {
  if (!o.templateVariables) return s
  const vars = JSON.parse(o.templateVariables) as Record<string, unknown>
  return s.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (m, k: string) =>
    Object.hasOwn(vars, k) ? (html ? escapeHtml(String(vars[k])) : String(vars[k])) : m,
  )
}

function emailMessage(o: EmailOptions, to: string, defaultFrom: string, subject: string, lines: string[], secret: string): NewMessage {
  const link = o.magicLinkTemplate ? o.magicLinkTemplate.split('%s').join(encodeURIComponent(secret)) : undefined
  const text = [...lines, ...(link ? ['', `Open: ${link}`] : [])].join('\n')
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    o.logoUrl ? `<img src="${escapeHtml(o.logoUrl)}" alt="${escapeHtml(o.appName)}" style="max-width:340px;max-height:124px">` : '',
    ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    link
      ? `<p><a href="${escapeHtml(link)}" style="padding:8px 16px;background:#222;color:#fff;text-decoration:none">Continue to ${escapeHtml(o.appName)}</a></p>`
      : '',
    '</body></html>',
  ].join('')
  return {
    channel: 'email',
    to_address: to,
    from_address: senderOf(o, defaultFrom),
    reply_to: o.replyToEmailAddress || null,
    subject: applyVariables(subject, o, false),
    text_body: applyVariables(text, o, false),
    html_body: applyVariables(html, o, true),
    delivery: 'pending',
  }
}

/** The OTP email: the code in text and HTML, a magic link when a template is given. */
export function otpEmail(o: EmailOptions, to: string, code: string, expiresInSeconds: number, defaultFrom: string): NewMessage {
  const minutes = Math.max(1, Math.round(expiresInSeconds / 60))
  return emailMessage(
    o,
    to,
    defaultFrom,
    `Your ${o.appName} verification code`,
    [
      `Your ${o.appName} verification code is: ${code}`,
      `It expires in ${minutes} minute${minutes === 1 ? '' : 's'}. If you did not ask for it, ignore this email.`,
    ],
    code,
  )
}

/** The recovery email: the credential bundle in the body, and in the magic link when a template is given. */
export function recoveryEmail(o: EmailOptions, to: string, bundle: string, expiresInSeconds: number, defaultFrom: string): NewMessage {
  const minutes = Math.max(1, Math.round(expiresInSeconds / 60))
  return emailMessage(
    o,
    to,
    defaultFrom,
    `Recover your ${o.appName} account`,
    [
      `Someone asked to recover your ${o.appName} account. If it was you, use this recovery code within ${minutes} minutes:`,
      bundle,
      'If you did not ask for it, ignore this email.',
    ],
    bundle,
  )
}

/** The email-auth email: the credential bundle in the body, and in the magic link when a template is given. */
export function emailAuthEmail(o: EmailOptions, to: string, bundle: string, expiresInSeconds: number, defaultFrom: string): NewMessage {
  const minutes = Math.max(1, Math.round(expiresInSeconds / 60))
  const app = o.appName.trim() || 'your account'
  return emailMessage(
    { ...o, appName: app },
    to,
    defaultFrom,
    `Log in to ${app}`,
    [
      `Someone asked to log in to ${app} with this email address. If it was you, use this login code within ${minutes} minute${minutes === 1 ? '' : 's'}:`,
      bundle,
      'If you did not ask for it, ignore this email.',
    ],
    bundle,
  )
}

/** The OTP SMS: `smsCustomization.template` with `%s` or `{{code}}` replaced, or a default text. */
export function otpSms(appName: string, template: string | undefined, to: string, code: string, from: string): NewMessage {
  const text = template
    ? template
        .split('%s')
        .join(code)
        .replace(/\{\{\s*(code|otp|\.OtpCode)\s*\}\}/g, code)
    : `${appName}: your verification code is ${code}`
  if (template && !text.includes(code)) throw invalidField('parameters.smsCustomization.template', 'must contain %s or {{code}}')
  return {
    channel: 'sms',
    to_address: to,
    from_address: from,
    reply_to: null,
    subject: '',
    text_body: text,
    html_body: '',
    delivery: 'pending',
  }
}

/** What an invitation email tells its receiver (create_invitations). */
export type InvitationMail = {
  organizationName: string
  senderName: string
  invitationId: string
  userId: string
  /** The one-time code: the WebAuthn registration challenge of the passkey that accepts. */
  code: string
  expiresInHours: number
}

/** The invitation email: who invites, to which organization, and the ids and code that accept it. */
export function invitationEmail(m: InvitationMail, to: string, defaultFrom: string): NewMessage {
  return emailMessage(
    { appName: m.organizationName },
    to,
    defaultFrom,
    `${m.senderName} invited you to ${m.organizationName}`,
    [
      `${m.senderName} invited you to join the organization ${m.organizationName}.`,
      `Invitation id: ${m.invitationId}`,
      `Your user id: ${m.userId}`,
      `Invitation code: ${m.code}`,
      'To accept, register a passkey whose WebAuthn challenge is the invitation code and send it with the invitation id and ' +
        'your user id to the relay\u2019s /v1/accept_invitation (or accept it in the Sigil extension).',
      `The invitation expires in ${m.expiresInHours} hours. If you did not expect it, ignore this email.`,
    ],
    m.code,
  )
}
