/**
 * Sign In With Solana in the background (dapp/solana/signIn.ts through the `sol_signIn` row): the
 * message the wallet writes, connect-and-sign-in in one approval, the refusals before any window,
 * the domain check that needs the user's override, and a signature that must verify.
 */
import { base64 } from '@scure/base'
import { createSignInMessageText, verifySignIn } from '@solana/wallet-standard-util'
import { describe, expect, it, vi } from 'vitest'
import { DEV_SOLANA_CAIP2 } from '@/src/chains/networks'
import { namesSolanaChain } from '@/src/extension/background/dapp/solana/signIn'
import { solanaChainsOf } from '@/src/extension/background/dapp/solana/chains'
import { ORIGIN } from '../../../approvalFixture'
import { DEV, DEVNET, SOL, SOL_PUB, solanaSetup, STRANGER } from './solanaFixture'

const ACCOUNT_WIRE = { address: SOL, publicKey: base64.encode(SOL_PUB) }
/** The fixture's clock: 2023-11-14T22:13:20Z. */
const NOW = 1_700_000_000_000
const iso = (ms: number) => new Date(ms).toISOString()

/** `sol_signIn` with `input`; its window, the window's details, and the pending reply. */
async function asked(t: ReturnType<typeof solanaSetup>, input: Record<string, unknown>) {
  const reply = t.rpc('sol_signIn', [input])
  const w = await t.windowOpened(t.windows.length + 1)
  const details = (await t.popup('approvalGet', { id: w.approvalId })).result
  return { reply, w, details }
}

/** The Wallet Standard output the page builds from a `sol_signIn` result. */
function output(result: { account: { address: string; publicKey: string }; signedMessage: string; signature: string }) {
  return {
    account: { address: result.account.address, publicKey: base64.decode(result.account.publicKey), chains: [], features: [] },
    signedMessage: base64.decode(result.signedMessage),
    signature: base64.decode(result.signature),
  }
}

describe('solana:signIn', () => {
  it('on a site not connected yet: one window that connects the default account and signs the standard message; the site is then connected', async () => {
    const t = solanaSetup()
    await t.login()
    const input = { statement: 'Sign in to the example dApp', nonce: 'n0nce1234', issuedAt: iso(NOW), uri: `${ORIGIN}/login`, version: '1' }
    const { reply, w, details } = await asked(t, input)
    const text = createSignInMessageText({ ...input, domain: 'dapp.example', address: SOL })
    expect(text.startsWith(`dapp.example wants you to sign in with your Solana account:\n${SOL}\n\nSign in to the example dApp`)).toBe(true)
    expect(details).toMatchObject({ origin: ORIGIN, method: 'solana:signIn' })
    expect(details.view).toEqual({
      kind: 'signIn',
      chain: 'solana',
      address: SOL,
      domain: 'dapp.example',
      statement: 'Sign in to the example dApp',
      rows: [
        ['URI', `${ORIGIN}/login`],
        ['Version', '1'],
        ['Nonce', 'n0nce1234'],
        ['Issued At', iso(NOW)],
      ],
      resources: [],
      mismatches: [],
      text,
      connects: { address: SOL, name: 'Account 1' },
    })
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    const { result } = await reply
    expect(result.account).toEqual(ACCOUNT_WIRE)
    expect(result.accounts).toEqual([ACCOUNT_WIRE])
    expect(new TextDecoder().decode(base64.decode(result.signedMessage))).toBe(text)
    expect(verifySignIn(input, output(result))).toBe(true)
    expect(verifySignIn({ ...input, nonce: 'other' }, output(result))).toBe(false)
    expect(t.windows).toHaveLength(1)
    const raw = t.calls.find((c) => c.path === '/public/v1/submit/sign_raw_payload')
    expect(raw?.body.parameters).toMatchObject({ signWith: SOL, hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE' })
    // The approval granted the site the account and told its tabs.
    expect(await t.rpc('sol_state', [])).toMatchObject({ result: { accounts: [ACCOUNT_WIRE] } })
    expect(t.events.at(-1)).toMatchObject({ tabId: 7, message: { event: 'solanaAccountsChanged', data: [ACCOUNT_WIRE] } })
  })

  it('on a connected site: signs with the connected account, connects nothing more; resources and the chain are shown', async () => {
    const t = solanaSetup()
    await t.solConnected()
    const events = t.events.length
    const input = { address: SOL, chainId: 'localnet', resources: ['https://dapp.example/terms', 'ipfs://bafy'] }
    const { reply, w, details } = await asked(t, input)
    expect(details.view).toMatchObject({ address: SOL, rows: [['Chain ID', 'localnet']], resources: input.resources, mismatches: [] })
    expect(details.view).not.toHaveProperty('connects')
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    const { result } = await reply
    expect(verifySignIn(input, output(result))).toBe(true)
    expect(result.accounts).toEqual([ACCOUNT_WIRE])
    expect(t.events).toHaveLength(events)
  })

  it('logged out on a site not connected: the login window first, then the sign-in window', async () => {
    const t = solanaSetup({ loginWindow: true })
    const input = { nonce: 'l0gg3dout' }
    const reply = t.rpc('sol_signIn', [input])
    await vi.waitFor(() => expect(t.loginWindows).toHaveLength(1), { timeout: 10_000 })
    expect(t.windows).toHaveLength(0)
    await t.login()
    const w = await t.windowOpened(1)
    const details = (await t.popup('approvalGet', { id: w.approvalId })).result
    expect(details.view).toMatchObject({ kind: 'signIn', address: SOL, connects: { address: SOL } })
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(verifySignIn(input, output((await reply).result))).toBe(true)
  })

  it('a rejected sign-in is 4001, signs nothing and connects nothing', async () => {
    const t = solanaSetup()
    await t.login()
    const { reply, w } = await asked(t, {})
    await t.popup('approvalResolve', { id: w.approvalId, approved: false })
    expect(await reply).toEqual({ error: { code: 4001, message: 'User rejected the request' } })
    expect(t.calls.some((c) => c.path.includes('sign_raw_payload'))).toBe(false)
    expect(await t.rpc('sol_state', [])).toMatchObject({ result: { accounts: [] } })
  })

  it.each([
    [{ expirationTime: iso(NOW - 1000) }, `expirationTime ${iso(NOW - 1000)} has passed: the sign-in request has expired`],
    [{ notBefore: iso(NOW + 60_000) }, `notBefore ${iso(NOW + 60_000)} is still ahead: the sign-in request is not valid yet`],
    [{ chainId: 'mainnet' }, "chainId mainnet is not one of this wallet's Solana networks (solana:localnet, solana:devnet)"],
    [{ address: STRANGER }, `address ${STRANGER} is not one of this wallet's Solana accounts`],
    [{ statement: 'hello\nURI: https://evil.example' }, 'statement must be one line without control characters'],
    [{ issuedAt: 'yesterday' }, 'issuedAt must be an RFC 3339 date-time (like 2024-01-01T00:00:00Z)'],
    [{ nonce: '' }, 'nonce must not be empty (leave it out instead)'],
  ])('refuses %j before any window (-32602 naming the field), signing nothing', async (input, reason) => {
    const t = solanaSetup()
    await t.login()
    expect(await t.rpc('sol_signIn', [input])).toEqual({ error: { code: -32602, message: `Invalid params for solana:signIn: ${reason}` } })
    expect(t.windows).toHaveLength(0)
    expect(t.calls.some((c) => c.path.includes('sign_raw_payload'))).toBe(false)
  })

  it('an address other than the connected account is refused; unknown fields are refused by the row', async () => {
    const t = solanaSetup()
    await t.solConnected()
    const windows = t.windows.length
    // STRANGER is well-formed but not this site's account.
    expect(await t.rpc('sol_signIn', [{ address: STRANGER }])).toEqual({
      error: { code: -32602, message: `Invalid params for solana:signIn: address ${STRANGER} is not the account connected to this site` },
    })
    expect(await t.rpc('sol_signIn', [{ useOffchainMessage: { messageVersion: 1 } }])).toMatchObject({ error: { code: -32602 } })
    expect(await t.rpc('sol_signIn', [{ statement: 'x'.repeat(1025) }])).toMatchObject({ error: { code: -32602 } })
    const resources = Array.from({ length: 32 }, (_, i) => `https://dapp.example/${i}/${'r'.repeat(2020)}`)
    expect(await t.rpc('sol_signIn', [{ resources }])).toEqual({
      error: { code: -32602, message: 'Invalid params for solana:signIn: the sign-in message is longer than 65536 bytes' },
    })
    expect(t.windows).toHaveLength(windows)
  })

  it('a still-valid expiration and a past notBefore are accepted', async () => {
    const t = solanaSetup()
    await t.solConnected()
    const input = { expirationTime: iso(NOW + 600_000), notBefore: iso(NOW - 600_000), chainId: 'solana:devnet' }
    const { reply, w } = await asked(t, input)
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(verifySignIn(input, output((await reply).result))).toBe(true)
  })

  it('another domain is a blocking mismatch: approving needs the override bound to that request', async () => {
    const t = solanaSetup()
    await t.solConnected()
    const input = { domain: 'evil.example', uri: 'https://evil.example/login' }
    const { reply, w, details } = await asked(t, input)
    expect(details.view.domain).toBe('evil.example')
    expect(details.view.text.startsWith('evil.example wants you to sign in')).toBe(true)
    expect(details.view.mismatches).toEqual([
      { field: 'domain', stated: 'evil.example', site: ORIGIN },
      { field: 'uri', stated: 'https://evil.example/login', site: ORIGIN },
    ])
    const plain = await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(plain).toMatchObject({ ok: false, error: { message: expect.stringContaining('acknowledged is required') } })
    expect(t.calls.some((c) => c.path.includes('sign_raw_payload'))).toBe(false)
    expect(await t.popup('approvalGet', { id: w.approvalId })).toMatchObject({ ok: true }) // still pending
    await t.popup('approvalResolve', { id: w.approvalId, approved: true, acknowledged: true })
    const { result } = await reply
    expect(verifySignIn(input, output(result))).toBe(true)
  })

  it('a site without mismatches is approved without the override', async () => {
    const t = solanaSetup()
    await t.solConnected()
    const { reply, w } = await asked(t, { domain: 'dapp.example', uri: `${ORIGIN}/` })
    expect(await t.popup('approvalResolve', { id: w.approvalId, approved: true })).toMatchObject({ ok: true })
    expect(await reply).toHaveProperty('result')
  })

  it('a signature from the service that does not verify is never returned (-32603)', async () => {
    const t = solanaSetup({ rawKey: new Uint8Array(32).fill(1) })
    await t.solConnected()
    const { reply, w } = await asked(t, { nonce: 'abcdefgh' })
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(await reply).toEqual({ error: { code: -32603, message: 'The wallet could not complete the request' } })
  })
})

describe('SIWS chain ids', () => {
  const chains = solanaChainsOf([DEV, DEVNET])
  it.each(['localnet', 'solana:localnet', DEV_SOLANA_CAIP2, DEV_SOLANA_CAIP2.slice(7), 'devnet', 'solana:devnet', DEVNET.caip2])(
    'accepts %s',
    (id) => expect(namesSolanaChain(chains, id)).toBe(true),
  )
  it.each(['mainnet', 'solana:mainnet', 'testnet', 'eip155:1', ''])('refuses %s', (id) => expect(namesSolanaChain(chains, id)).toBe(false))
})
