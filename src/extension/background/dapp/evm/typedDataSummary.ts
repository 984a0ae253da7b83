/**
 * Readable summaries of the typed data that moves tokens: EIP-2612 and DAI
 * permits, Uniswap Permit2 (allowance and signature transfer, single and batch) and Seaport
 * orders, each recognised by the shape of its `types` (not its name alone), plus the domain
 * warnings. Input is typed data that `checkTypedData` (typedData.ts) accepted; every row of it is still
 * shown below the summary. Token amounts are in the token's units with its symbol ("10 USDC", exact)
 * when its decimals were read ({@link typedDataTokens} names the tokens to read), else the raw integer.
 */
import { formatUnits, getAddress } from 'viem'
import { amountText, isUnlimited, timeText } from '../../approval/text'
import type { TokenFacts } from './tokenInfo'
import type { FieldRow, TypedDataSummary } from '../../../protocol/approvalView'
import { domainFields, type TypedDataInput, typedInteger } from './typedData'

/** The summary (null when the data is none of the known kinds) and the warnings to show above everything. */
export type TypedDataDescription = { summary: TypedDataSummary | null; warnings: string[] }

type Obj = Record<string, unknown>
type Types = TypedDataInput['types']

const obj = (v: unknown): Obj => v as Obj
const int = (v: unknown): bigint => typedInteger(v) ?? 0n
const addr = (v: unknown): string => getAddress(String(v))
const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

/** What is known of the tokens the data names, by lower-case address (null: not an ERC-20 the node could read). */
export type TypedDataTokens = ReadonlyMap<string, TokenFacts | null>
const NO_TOKENS: TypedDataTokens = new Map()

/** An amount of `token`: "10 USDC" / "unlimited USDC" when its decimals are known, else the raw integer (unlimited named). */
function tokenAmountText(amount: bigint, token: string, tokens: TypedDataTokens, bits: 160 | 256 = 256): string {
  const facts = tokens.get(token.toLowerCase())
  if (!facts) return amountText(amount, bits)
  const symbol = facts.symbol ?? '(no symbol)'
  return isUnlimited(amount, bits) ? `unlimited ${symbol}` : `${formatUnits(amount, facts.decimals)} ${symbol}`
}

/** Whether struct `name` has at least these fields with exactly these types. */
function hasFields(types: Types, name: string, spec: Record<string, string>): boolean {
  const fields = Object.hasOwn(types, name) ? types[name] : undefined
  return fields !== undefined && Object.entries(spec).every(([n, t]) => fields.some((f) => f.name === n && f.type === t))
}

const PERMIT_DETAILS = { token: 'address', amount: 'uint160', expiration: 'uint48', nonce: 'uint48' }
const TOKEN_PERMISSIONS = { token: 'address', amount: 'uint256' }
const OFFER_ITEM = { itemType: 'uint8', token: 'address', identifierOrCriteria: 'uint256', startAmount: 'uint256', endAmount: 'uint256' }
const ITEM_TYPES = ['native currency', 'ERC-20', 'ERC-721', 'ERC-1155', 'ERC-721 (any matching id)', 'ERC-1155 (any matching id)']

function tokenOfDomain(domain: Obj): string {
  const contract = typeof domain['verifyingContract'] === 'string' ? addr(domain['verifyingContract']) : '(no verifyingContract)'
  return typeof domain['name'] === 'string' ? `${contract} (${domain['name']})` : contract
}

function permit(typed: TypedDataInput, warnings: string[], known: TypedDataTokens): TypedDataSummary | null {
  const m = typed.message
  const verifying = typed.domain['verifyingContract']
  if (hasFields(typed.types, typed.primaryType, { owner: 'address', spender: 'address', value: 'uint256', deadline: 'uint256' })) {
    const spender = addr(m['spender'])
    const value = int(m['value'])
    if (isUnlimited(value)) warnings.push(`Unlimited approval: ${spender} can spend all of this token.`)
    return {
      title: 'Token approval (EIP-2612 permit): no transaction needed, the spender can use it right away',
      rows: [
        ['Token', tokenOfDomain(typed.domain)],
        ['Spender', spender],
        ['Amount', typeof verifying === 'string' ? tokenAmountText(value, verifying, known) : amountText(value)],
        ['Deadline', timeText(int(m['deadline']))],
        ['Owner', addr(m['owner'])],
      ],
    }
  }
  if (hasFields(typed.types, typed.primaryType, { holder: 'address', spender: 'address', expiry: 'uint256', allowed: 'bool' })) {
    const spender = addr(m['spender'])
    if (m['allowed'] === true) warnings.push(`Unlimited approval: ${spender} can spend all of this token.`)
    return {
      title: 'Token approval (DAI-style permit)',
      rows: [
        ['Token', tokenOfDomain(typed.domain)],
        ['Spender', spender],
        ['Amount', m['allowed'] === true ? 'unlimited' : 'none (revokes the approval)'],
        ['Deadline', int(m['expiry']) === 0n ? 'none (valid forever)' : timeText(int(m['expiry']))],
        ['Holder', addr(m['holder'])],
      ],
    }
  }
  return null
}

function permit2(typed: TypedDataInput, warnings: string[], known: TypedDataTokens): TypedDataSummary | null {
  const { types, primaryType: p, message: m } = typed
  const tokens = (items: unknown[], bits: 160 | 256, withExpiry: boolean): FieldRow[] =>
    items.flatMap((raw, i) => {
      const item = obj(raw)
      const n = items.length > 1 ? ` #${i + 1}` : ''
      const amount = int(item['amount'])
      const token = addr(item['token'])
      if (isUnlimited(amount, bits)) warnings.push(`Unlimited approval: ${addr(m['spender'])} can spend all of token ${token}.`)
      const rows: FieldRow[] = [
        [`Token${n}`, token],
        [`Amount${n}`, tokenAmountText(amount, token, known, bits)],
      ]
      if (withExpiry) rows.push([`Allowance expires${n}`, timeText(int(item['expiration']))])
      return rows
    })
  const allowance = hasFields(types, 'PermitDetails', PERMIT_DETAILS)
  for (const batch of [false, true]) {
    if (
      allowance &&
      hasFields(types, p, { details: batch ? 'PermitDetails[]' : 'PermitDetails', spender: 'address', sigDeadline: 'uint256' })
    ) {
      const details = batch ? (m['details'] as unknown[]) : [m['details']]
      return {
        title: 'Permit2 allowance: the spender can move these tokens until the allowance expires',
        rows: [...tokens(details, 160, true), ['Spender', addr(m['spender'])], ['Signature deadline', timeText(int(m['sigDeadline']))]],
      }
    }
  }
  const transfer = hasFields(types, 'TokenPermissions', TOKEN_PERMISSIONS)
  for (const batch of [false, true]) {
    const spec = { permitted: batch ? 'TokenPermissions[]' : 'TokenPermissions', spender: 'address', nonce: 'uint256', deadline: 'uint256' }
    if (transfer && hasFields(types, p, spec)) {
      const permitted = batch ? (m['permitted'] as unknown[]) : [m['permitted']]
      return {
        title: 'Permit2 transfer: the spender can take these tokens from you once',
        rows: [...tokens(permitted, 256, false), ['Spender', addr(m['spender'])], ['Deadline', timeText(int(m['deadline']))]],
      }
    }
  }
  return null
}

function itemText(item: Obj, known: TypedDataTokens): string {
  const type = Number(int(item['itemType']))
  const kind = ITEM_TYPES[type] ?? `item type ${type}`
  const start = int(item['startAmount'])
  const end = int(item['endAmount'])
  if (type === 1) {
    const token = addr(item['token'])
    const each = (v: bigint) => tokenAmountText(v, token, known)
    return `${kind} ${token}, amount ${start === end ? each(start) : `${each(start)} → ${each(end)}`}`
  }
  const amount = start === end ? `${start}` : `${start} → ${end}`
  if (type === 0) return `${kind}, amount ${amount} wei`
  const id = type >= 2 ? `, id ${int(item['identifierOrCriteria'])}` : ''
  return `${kind} ${addr(item['token'])}${id}, amount ${amount}`
}

function seaport(typed: TypedDataInput, signer: string, warnings: string[], known: TypedDataTokens): TypedDataSummary | null {
  const { types, primaryType: p, message: m } = typed
  const spec = { offerer: 'address', offer: 'OfferItem[]', consideration: 'ConsiderationItem[]', endTime: 'uint256' }
  if (!hasFields(types, p, spec) || !hasFields(types, 'OfferItem', OFFER_ITEM)) return null
  if (!hasFields(types, 'ConsiderationItem', { ...OFFER_ITEM, recipient: 'address' })) return null
  const offerer = addr(m['offerer'])
  if (!same(offerer, signer)) warnings.push(`The order's offerer ${offerer} is not your account.`)
  const rows: FieldRow[] = [['Offerer', same(offerer, signer) ? `${offerer} (you)` : offerer]]
  ;(m['offer'] as unknown[]).forEach((raw, i) => {
    rows.push([`You give #${i + 1}`, itemText(obj(raw), known)])
  })
  ;(m['consideration'] as unknown[]).forEach((raw, i) => {
    const item = obj(raw)
    const recipient = addr(item['recipient'])
    const mine = same(recipient, signer)
    if (!mine) warnings.push(`Consideration #${i + 1} goes to ${recipient}, not to your account.`)
    rows.push([`Consideration #${i + 1}`, `${itemText(item, known)} → ${recipient}${mine ? ' (you)' : ' (NOT you)'}`])
  })
  if (hasFields(types, p, { startTime: 'uint256' })) rows.push(['Starts', timeText(int(m['startTime']))])
  rows.push(['Ends', timeText(int(m['endTime']))])
  return { title: 'Marketplace order (Seaport): you give the offer items; the consideration items go to their recipients', rows }
}

/** Warnings about the domain: no chainId, no verifyingContract, or a chainId that is not the selected chain. */
export function domainWarnings(typed: TypedDataInput, activeChainId: `0x${string}`): string[] {
  const names = domainFields(typed).map((f) => f.name)
  const warnings: string[] = []
  if (!names.includes('chainId')) warnings.push('The domain has no chainId: this signature may be valid on every chain.')
  else {
    const id = int(typed.domain['chainId'])
    if (id !== BigInt(activeChainId))
      warnings.push(`The domain is for chain ${id}, but the selected network is chain ${BigInt(activeChainId)}.`)
  }
  if (!names.includes('verifyingContract'))
    warnings.push('The domain has no verifyingContract: this signature is not bound to one contract.')
  return warnings
}

/**
 * The ERC-20 tokens whose amounts the summary shows (lower-case addresses, each once): a permit's
 * verifyingContract, Permit2's tokens, a Seaport order's ERC-20 items. Read them (tokenInfo.ts) and
 * pass them to {@link describeTypedData} so the amounts are in the token's units.
 */
export function typedDataTokens(typed: TypedDataInput): string[] {
  const found = new Set<string>()
  const add = (v: unknown) => {
    if (typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v)) found.add(v.toLowerCase())
  }
  const { types, primaryType: p, message: m } = typed
  if (hasFields(types, p, { owner: 'address', spender: 'address', value: 'uint256', deadline: 'uint256' }))
    add(typed.domain['verifyingContract'])
  const items = (v: unknown): Obj[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]).map(obj)
  if (hasFields(types, 'PermitDetails', PERMIT_DETAILS)) for (const d of items(m['details'])) add(d['token'])
  if (hasFields(types, 'TokenPermissions', TOKEN_PERMISSIONS)) for (const d of items(m['permitted'])) add(d['token'])
  if (hasFields(types, 'OfferItem', OFFER_ITEM)) {
    for (const d of [...items(m['offer']), ...items(m['consideration'])]) if (int(d['itemType']) === 1n) add(d['token'])
  }
  return [...found]
}

/**
 * The summary and warnings for typed data that passed `checkTypedData`; `signer` is the
 * account asked to sign, `activeChainId` the selected network, `tokens` what was read of
 * {@link typedDataTokens} (amounts of the others stay raw integers).
 */
export function describeTypedData(
  typed: TypedDataInput,
  signer: string,
  activeChainId: `0x${string}`,
  tokens: TypedDataTokens = NO_TOKENS,
): TypedDataDescription {
  const warnings = domainWarnings(typed, activeChainId)
  const summary = permit(typed, warnings, tokens) ?? permit2(typed, warnings, tokens) ?? seaport(typed, signer, warnings, tokens)
  return { summary, warnings }
}
