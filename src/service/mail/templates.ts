import { invalidField } from '../../api/errors.js'
import { EXTENSION_ORIGIN } from '../../api/identity.js'
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

/**
 * What the operator lets requests put into service email (src/service/config.ts), so
 * a request cannot send mail in another sender's name or link to a page of its choosing: sender
 * and reply-to addresses or domains, and magic-link origins. `ServiceConfig` is one.
 */
export type MailPolicy = {
  mailFrom: string
  mailSenders: readonly string[]
  mailLinkOrigins: readonly string[]
  publicUrl?: string | undefined
}

/** Longest sender name accepted (a display name, not a sentence). */
export const MAX_SENDER_NAME = 64

/** The bare address of `Name <address>` or of an address, lower case. */
function bareAddress(s: string): string {
  return (s.match(/<([^<>]+)>\s*$/)?.[1] ?? s).trim().toLowerCase()
}

/** True when `address` is the operator's From address, an allowed address, or at an allowed domain. */
export function senderAllowed(address: string, policy: MailPolicy): boolean {
  const a = address.trim().toLowerCase()
  if (a === bareAddress(policy.mailFrom)) return true
  const domain = a.slice(a.lastIndexOf('@') + 1)
  return policy.mailSenders.some((entry) => {
    const e = entry.trim().toLowerCase()
    return e.includes('@') && !e.startsWith('@') ? e === a : e.replace(/^@/, '') === domain
  })
}

/** `scheme://host[:port]` of a URL (WHATWG parser; extension URLs have no `origin` of their own). */
function originOf(url: string): string | undefined {
  try {
    const u = new URL(url)
    return u.host ? `${u.protocol}//${u.host}`.toLowerCase() : undefined
  } catch {
    return undefined
  }
}

/** The origins magic links may point to: the extension's, the service's public URL's, the operator's list. */
export function linkOrigins(policy: MailPolicy): string[] {
  return [EXTENSION_ORIGIN, ...(policy.publicUrl ? [policy.publicUrl] : []), ...policy.mailLinkOrigins]
    .map(originOf)
    .filter((o): o is string => o !== undefined)
}

/**
 * Checks the customization fields, naming the bad one. Sender, sender name and reply-to are
 * top-level parameters; the sender and reply-to must be allowed by the operator (`policy`), the
 * magic link must stay on an allowed origin whatever replaces its `%s`.
 */
export function checkEmailOptions(o: EmailOptions, field: string, customizationField: string, policy: MailPolicy): void {
  if (!o.appName?.trim() && !o.templateId) throw invalidField(`${field}.appName`, 'required')
  for (const key of ['sendFromEmailAddress', 'replyToEmailAddress'] as const) {
    const value = o[key]
    if (!value) continue
    if (!EMAIL.test(value)) throw invalidField(`parameters.${key}`, 'is not an email address')
    if (!senderAllowed(value, policy)) {
      throw invalidField(`parameters.${key}`, 'is not a sender address this service is allowed to use (SIGIL_MAIL_SENDERS)')
    }
  }
  const name = o.sendFromEmailSenderName
  if (name) {
    if (name.length > MAX_SENDER_NAME)
      throw invalidField('parameters.sendFromEmailSenderName', `must be at most ${MAX_SENDER_NAME} characters`)
    if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}"\\<>@]/u.test(name)) {
      throw invalidField(
        'parameters.sendFromEmailSenderName',
        'must be a plain name: no address, quotes, angle brackets or control characters',
      )
    }
  }
  if (o.logoUrl && !/^https?:\/\//.test(o.logoUrl)) throw invalidField(`${customizationField}.logoUrl`, 'must be an http(s) URL')
  const template = o.magicLinkTemplate
  if (template && !/^(https?|chrome-extension|moz-extension):\/\//i.test(template)) {
    throw invalidField(`${customizationField}.magicLinkTemplate`, 'must be an http(s) or extension URL')
  }
  if (template && !template.includes('%s')) {
    throw invalidField(`${customizationField}.magicLinkTemplate`, 'must contain the %s placeholder')
  }
  if (template) {
    // The origin must not depend on what replaces %s (a placeholder in the host or userinfo).
    const a = originOf(template.split('%s').join('a'))
    const b = originOf(template.split('%s').join('b.c%2F%40'))
    if (!a || a !== b || !linkOrigins(policy).includes(a)) {
      throw invalidField(`${customizationField}.magicLinkTemplate`, 'must point to an origin this service allows (SIGIL_MAIL_LINK_ORIGINS)')
    }
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
