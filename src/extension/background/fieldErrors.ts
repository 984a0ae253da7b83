/**
 * Validation failures in words, at the field: a zod issue becomes the form
 * field it is about and a sentence with the rule ("Include the country code, e.g. +1…"), never
 * the wire path (`fiatCurrencyAmount: must be …`) or "Some input is not valid".
 */
import type { z } from 'zod'
import { ExtensionError } from './failures'

/** What each field is called on the popup's forms. */
const LABELS: Record<string, string> = {
  contact: 'Contact',
  email: 'Email address',
  code: 'Code',
  name: 'Name',
  apiBaseUrl: 'Service URL',
  relayUrl: 'Relay URL',
  autoLockMinutes: 'Auto-lock',
  fiatCurrencyAmount: 'Amount',
  walletAddress: 'Receiving address',
  countrySubdivisionCode: 'State',
  to: 'Recipient',
  amount: 'Amount',
  address: 'Address',
  walletName: 'Wallet name',
  mnemonic: 'Seed phrase',
  privateKey: 'Private key',
}

function rule(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_small':
      return Number(issue.minimum) <= 1 && issue.origin === 'string' ? 'is required.' : `must be at least ${issue.minimum}.`
    case 'too_big':
      return issue.origin === 'string' ? `must be at most ${issue.maximum} characters.` : `must be at most ${issue.maximum}.`
    case 'invalid_type':
      return issue.input === undefined ? 'is required.' : 'has the wrong type.'
    default:
      return /^[A-Z]/.test(issue.message) ? issue.message : `${issue.message.replace(/\.$/, '')}.`
  }
}

/** The first issue as `{ field, message }`: the field's last path segment and a sentence naming it. */
export function describeIssue(issues: readonly z.core.$ZodIssue[]): { field: string; message: string } {
  const issue = issues[0]
  if (!issue) return { field: '', message: 'Check the form: a value is missing.' }
  const field = String(issue.path.at(-1) ?? '')
  const text = rule(issue)
  // Rules written as sentences (a capital letter first) stand alone; others follow the field's name.
  const label = LABELS[field] ?? (field ? field.replace(/([A-Z])/g, ' $1').toLowerCase() : 'The input')
  const message = /^[A-Z]/.test(text) ? text : `${label.charAt(0).toUpperCase()}${label.slice(1)} ${text}`
  return { field, message }
}

/** INVALID_ARGUMENT for the first issue, naming its field. */
export function fieldFailure(issues: readonly z.core.$ZodIssue[]): ExtensionError {
  const { field, message } = describeIssue(issues)
  return new ExtensionError('INVALID_ARGUMENT', message, field || undefined)
}
