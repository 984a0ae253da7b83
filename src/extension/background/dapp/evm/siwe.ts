/**
 * Sign-In with Ethereum (EIP-4361) inside personal_sign: a message whose text is exactly an EIP-4361
 * message is shown as "Sign in to <domain>" with its fields, checked against the requesting origin
 * (dapp/signInOrigin.ts), and refused before any window when it cannot be a valid sign-in for this
 * site and account now (expired, not yet valid, another chain, another account). Anything that is
 * not exactly an EIP-4361 message (extra lines, a missing field, a malformed value) stays an
 * ordinary message: the user then sees its raw text, never fields read from part of it.
 */
import { isAddress } from 'viem'
import { parseSiweMessage } from 'viem/siwe'
import type { FieldRow, SignInView } from '../../../protocol/approvalView'
import { signInMismatches } from '../signInOrigin'

/** The header line's fixed ending (EIP-4361 ABNF). */
const HEADER_TAIL = ' wants you to sign in with your Ethereum account:'
/** `[scheme "://"] domain`: an RFC 3986 scheme and an authority without path, query or spaces. */
const HEADER = /^(?:[a-zA-Z][a-zA-Z0-9+\-.]*:\/\/)?[^\s/?#]+$/
/** RFC 3339 date-time, as EIP-4361 requires for its times. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/
/** The optional fields after Issued At, in the order EIP-4361 fixes. */
const OPTIONAL = [
  ['Expiration Time', 'expirationTime'],
  ['Not Before', 'notBefore'],
  ['Request ID', 'requestId'],
] as const

/** An EIP-4361 message's fields, times as written in the message. */
export type SiweFields = {
  scheme?: string
  domain: string
  address: string
  statement: string | null
  uri: string
  version: '1'
  chainId: number
  nonce: string
  issuedAt: string
  expirationTime?: string
  notBefore?: string
  requestId?: string
  resources: string[]
  /** The message's rows after its statement, in message order (URI … Request ID). */
  rows: FieldRow[]
}

function validTime(s: string): boolean {
  return DATE_TIME.test(s) && !Number.isNaN(Date.parse(s))
}

/**
 * The fields of `text` when it is exactly an EIP-4361 message (every line accounted for, every
 * required field present and well-formed), else null. viem's `parseSiweMessage` reads the values;
 * the line-by-line walk here makes sure nothing in the text is left out of what the window shows.
 */
export function parseSiwe(text: string): SiweFields | null {
  const lines = text.split('\n')
  const header = lines[0] ?? ''
  if (!header.endsWith(HEADER_TAIL)) return null
  const origin = header.slice(0, -HEADER_TAIL.length)
  if (!HEADER.test(origin)) return null
  const address = lines[1] ?? ''
  if (!isAddress(address, { strict: false }) || lines[2] !== '') return null
  // Statement: "address LF LF [statement LF] LF URI"; some writers leave out the empty line without one.
  let i = 3
  let statement: string | null = null
  if (lines[i] === '') i += 1
  else if (!lines[i]?.startsWith('URI: ')) {
    statement = lines[i] ?? ''
    if (lines[i + 1] !== '') return null
    i += 2
  }
  const rows: FieldRow[] = []
  const take = (label: string): string | null => {
    const line = lines[i]
    if (line === undefined || !line.startsWith(`${label}: `)) return null
    i += 1
    const value = line.slice(label.length + 2)
    rows.push([label, value])
    return value
  }
  const uri = take('URI')
  const version = take('Version')
  const chainId = take('Chain ID')
  const nonce = take('Nonce')
  const issuedAt = take('Issued At')
  if (uri === null || version !== '1' || chainId === null || !/^[1-9]\d{0,15}$/.test(chainId)) return null
  if (nonce === null || !/^[a-zA-Z0-9]{8,}$/.test(nonce) || issuedAt === null || !validTime(issuedAt)) return null
  const optional: Partial<Record<(typeof OPTIONAL)[number][1], string>> = {}
  for (const [label, key] of OPTIONAL) {
    const value = take(label)
    if (value === null) continue
    if (key !== 'requestId' && !validTime(value)) return null
    optional[key] = value
  }
  const resources: string[] = []
  if (lines[i] === 'Resources:') {
    i += 1
    while (lines[i]?.startsWith('- ')) {
      resources.push((lines[i] ?? '').slice(2))
      i += 1
    }
  }
  if (i !== lines.length) return null
  // viem's reading must agree with ours: the same domain, account, statement and fields.
  const parsed = parseSiweMessage(text)
  const scheme = origin.includes('://') ? origin.slice(0, origin.indexOf('://')) : undefined
  const domain = scheme === undefined ? origin : origin.slice(scheme.length + 3)
  if (
    parsed.domain !== domain ||
    parsed.scheme !== scheme ||
    parsed.address?.toLowerCase() !== address.toLowerCase() ||
    (parsed.statement ?? null) !== statement ||
    parsed.uri !== uri ||
    parsed.chainId !== Number(chainId) ||
    parsed.nonce !== nonce
  ) {
    return null
  }
  return {
    ...(scheme !== undefined ? { scheme } : {}),
    domain,
    address,
    statement,
    uri,
    version: '1',
    chainId: Number(chainId),
    nonce,
    issuedAt,
    ...optional,
    resources,
    rows,
  }
}

/** What personal_sign checks a sign-in against: the time, the site's chain and the account asked to sign. */
export type SiweContext = { now: number; chainId: bigint; signer: string }

/**
 * Why this sign-in cannot be signed now, naming the field ("Sign-in message: expirationTime … has
 * passed"), or null when it can.
 */
export function siweRefusal(fields: SiweFields, ctx: SiweContext): string | null {
  if (fields.expirationTime !== undefined && Date.parse(fields.expirationTime) <= ctx.now) {
    return `Sign-in message: expirationTime ${fields.expirationTime} has passed`
  }
  if (fields.notBefore !== undefined && Date.parse(fields.notBefore) > ctx.now) {
    return `Sign-in message: notBefore ${fields.notBefore} is in the future`
  }
  if (BigInt(fields.chainId) !== ctx.chainId) {
    return `Sign-in message: chainId ${fields.chainId} is not this site's current chain (${ctx.chainId.toString(10)})`
  }
  if (fields.address.toLowerCase() !== ctx.signer.toLowerCase()) {
    return `Sign-in message: address ${fields.address} is not the account asked to sign (${ctx.signer})`
  }
  return null
}

/** The approval window's view of an EIP-4361 sign-in asked by `origin`, signed by `signer`. */
export function siweView(origin: string, signer: string, fields: SiweFields, text: string): SignInView {
  return {
    kind: 'signIn',
    chain: 'ethereum',
    address: signer,
    domain: fields.domain,
    statement: fields.statement,
    rows: fields.rows,
    resources: fields.resources,
    mismatches: signInMismatches(origin, { domain: fields.domain, uri: fields.uri, scheme: fields.scheme }),
    text,
  }
}
