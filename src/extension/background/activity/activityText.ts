/**
 * An activity in plain words: what happened, to whom, built from the
 * activity's intent, never the wire type name ("sign raw payload v2"). Pure; the popup shows the
 * sentence with the time and {@link activityStatusText}.
 */
import type { Activity } from '../../../api/common'
import { formatUnits } from '../../amounts'
import { hexToBytes, utf8Decode, utf8Encode } from '../../../crypto/encoding'
import { parseSiwe } from '../dapp/evm/siwe'

/** `0x1234…abcd`. */
const short = (a: unknown) => {
  const s = typeof a === 'string' ? a : ''
  return s.length > 14 ? `${s.slice(0, 6)}…${s.slice(-4)}` : s || 'an account'
}

/** Account names by address (EVM also lowercased), for the user's own addresses. */
export type AccountNames = ReadonlyMap<string, string>

/** The account's name when it is one of the user's, else its short address. */
function who(a: unknown, names: AccountNames | undefined): string {
  if (typeof a === 'string' && names) {
    const name = names.get(a) ?? (a.startsWith('0x') ? names.get(a.toLowerCase()) : undefined)
    if (name) return name
  }
  return short(a)
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined)

/** The intent object of an activity (its one keyed value). */
function intentOf(a: Pick<Activity, 'intent'>): Record<string, unknown> {
  return Object.values(a.intent)[0] ?? {}
}

function nativeSymbol(caip2: string | undefined): string {
  return caip2?.startsWith('solana:') ? 'SOL' : 'ETH'
}

const TRANSFER = '0xa9059cbb'

function ethSend(i: Record<string, unknown>, names: AccountNames | undefined): string {
  const calls = Array.isArray(i.calls) ? (i.calls as Array<Record<string, unknown>>) : [i]
  const call = calls[0] ?? {}
  const to = str(call.to)
  const data = str(call.data) ?? ''
  const value = str(call.value)
  const more = `${calls.length > 1 ? ` (and ${calls.length - 1} more)` : ''}${i.sponsor === true ? ', gas sponsored' : ''}`
  if (to === undefined && data.length > 2) return `Deployed a contract${more}`
  if (data.toLowerCase().startsWith(TRANSFER) && data.length >= 10 + 64) {
    return `Sent a token transfer to ${who(`0x${data.slice(10 + 24, 10 + 64)}`, names)}${more}`
  }
  if (data.length > 2) return `Called the contract ${short(to)}${more}`
  const amount = value && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value) ? formatUnits(BigInt(value), 18) : '0'
  return `Sent ${amount} ${nativeSymbol(str(i.caip2))} to ${who(to, names)}${more}`
}

/** personal_sign's prefix (EIP-191), followed by the message's length in decimal and the message. */
const EIP191 = utf8Encode('\x19Ethereum Signed Message:\n')
/** A Sign In With Solana message's first line (the wallet writes it, dapp/solana/signIn.ts). */
const SIWS_HEADER = /^(?:[a-zA-Z][a-zA-Z0-9+\-.]*:\/\/)?([^\s/?#]+) wants you to sign in with your Solana account:\n/

/** The message inside EIP-191 bytes (prefix, decimal length, message), or null when they are not. */
function eip191Message(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length < EIP191.length || EIP191.some((b, k) => bytes[k] !== b)) return null
  const rest = bytes.subarray(EIP191.length)
  let length = 0
  for (let k = 0; k < Math.min(rest.length, 6); k++) {
    const digit = (rest[k] ?? 0) - 0x30
    if (digit < 0 || digit > 9) return null
    length = length * 10 + digit
    if (rest.length - (k + 1) === length) return rest.subarray(k + 1)
  }
  return null
}

/**
 * The domain a signed payload signs the user in to: an EIP-4361 message signed through
 * personal_sign, or a Sign In With Solana message; null for any other payload.
 */
function signInDomain(i: Record<string, unknown>): string | null {
  if (i.encoding !== 'PAYLOAD_ENCODING_HEXADECIMAL' || typeof i.payload !== 'string') return null
  try {
    const bytes = hexToBytes(i.payload, 'payload')
    const message = eip191Message(bytes)
    if (message !== null) return parseSiwe(utf8Decode(message))?.domain ?? null
    return SIWS_HEADER.exec(utf8Decode(bytes))?.[1] ?? null
  } catch {
    return null
  }
}

const simple: Array<[RegExp, string]> = [
  [/^CREATE_SUB_ORGANIZATION/, 'Created your Sigil account'],
  [/^(OTP_LOGIN|STAMP_LOGIN|OAUTH_LOGIN|EMAIL_AUTH|OTP_AUTH|CREATE_READ_WRITE_SESSION|CREATE_READ_ONLY_SESSION)/, 'Logged in'],
  [/^INIT_OTP/, 'Asked for a login code'],
  [/^VERIFY_OTP/, 'Checked a login code'],
  [/^DELETE_API_KEYS/, 'Ended a session'],
  [/^CREATE_API_KEYS/, 'Added a session key'],
  [/^CREATE_AUTHENTICATORS/, 'Added a passkey'],
  [/^DELETE_AUTHENTICATORS/, 'Removed a passkey'],
  [/^INIT_USER_EMAIL_RECOVERY/, 'Started account recovery by email'],
  [/^RECOVER_USER/, 'Recovered your account'],
  [/^CREATE_POLIC/, 'Created a policy'],
  [/^UPDATE_POLICY/, 'Changed a policy'],
  [/^DELETE_POLIC/, 'Deleted a policy'],
  [/^APPROVE_ACTIVITY/, 'Approved a request'],
  [/^REJECT_ACTIVITY/, 'Rejected a request'],
  [/^EXPORT_/, 'Exported a key'],
  [/^(INIT_)?IMPORT_/, 'Imported a key'],
]

/**
 * One sentence saying what the activity did; `site` names the dApp that asked for it (its host,
 * activitySites.ts), when one did: "Signed a message for app.example with 0x12…ab"; the user's own
 * accounts go by their names from `names` ("… with Savings").
 */
export function activityTitle(a: Pick<Activity, 'type' | 'intent'>, site?: string, names?: AccountNames): string {
  const kind = a.type.replace(/^ACTIVITY_TYPE_/, '').replace(/_V\d+$/, '')
  const i = intentOf(a)
  const forSite = site ? ` for ${site}` : ''
  switch (kind) {
    case 'SIGN_RAW_PAYLOAD': {
      const domain = signInDomain(i)
      if (domain !== null) {
        const askedBy = site && site.toLowerCase() !== domain.toLowerCase() ? ` (asked by ${site})` : ''
        return `Signed in to ${domain}${askedBy} with ${who(i.signWith, names)}`
      }
      const what =
        i.encoding === 'PAYLOAD_ENCODING_EIP712'
          ? 'typed data'
          : i.encoding === 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION'
            ? 'an account delegation (EIP-7702)'
            : 'a message'
      return `Signed ${what}${forSite} with ${who(i.signWith, names)}`
    }
    case 'SIGN_RAW_PAYLOADS': {
      const n = Array.isArray(i.payloads) ? i.payloads.length : 0
      return `Signed ${n === 1 ? 'a message' : `${n} messages`}${forSite} with ${who(i.signWith, names)}`
    }
    case 'SIGN_TRANSACTION':
      return `Signed a transaction${forSite} with ${who(i.signWith, names)}`
    case 'ETH_SEND_TRANSACTION':
      return `${ethSend(i, names)}${forSite}`
    case 'ETH_UNDELEGATE_7702':
      return `Removed the delegation (EIP-7702) of ${who(i.from, names)}${forSite}`
    case 'ETH_SEND_RAW_TRANSACTION':
      return `Sent a signed transaction${forSite}`
    case 'SOL_SEND_TRANSACTION': {
      const signer = Array.isArray(i.signWiths) ? i.signWiths[0] : i.signWith
      return `Sent a Solana transaction${forSite} from ${who(signer, names)}`
    }
    case 'INIT_FIAT_ON_RAMP': {
      const coin = (str(i.cryptoCurrencyCode) ?? '').replace(/^FIAT_ON_RAMP_CRYPTO_CURRENCY_/, '') || 'crypto'
      return `Bought ${coin}${i.sandboxMode === true ? ' (sandbox)' : ''} for ${who(i.walletAddress, names)}`
    }
    case 'CREATE_WALLET_ACCOUNTS': {
      const n = Array.isArray(i.accounts) ? i.accounts.length : 1
      return n === 1 ? 'Added an account' : `Added ${n} accounts`
    }
    case 'CREATE_WALLET':
      return `Created the wallet ${str(i.walletName) ?? ''}`.trim()
  }
  for (const [re, text] of simple) if (re.test(kind)) return `${text}${forSite}`
  const words = kind.replace(/_/g, ' ').toLowerCase()
  return `Changed your account (${words})${forSite}`
}

const STATUS: Record<string, string> = {
  ACTIVITY_STATUS_COMPLETED: 'Done',
  ACTIVITY_STATUS_FAILED: 'Failed',
  ACTIVITY_STATUS_REJECTED: 'Rejected',
  ACTIVITY_STATUS_CONSENSUS_NEEDED: 'Waiting for approval',
  ACTIVITY_STATUS_AUTHENTICATORS_NEEDED: 'Waiting for a passkey',
  ACTIVITY_STATUS_CREATED: 'In progress',
  ACTIVITY_STATUS_PENDING: 'In progress',
}

/** The status in words. */
export function activityStatusText(status: string): string {
  return STATUS[status] ?? 'In progress'
}
