import { createSiweMessage, verifySiweMessage } from 'viem/siwe'
import { createPublicClient, custom, stringToHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { parseSiwe, siweRefusal, siweView } from '@/src/extension/background/dapp/evm/siwe'
import { ACCOUNT, ORIGIN, setup } from '../../../approvalFixture'

/** The fixture's clock (fakeDeps). */
const NOW = 1_700_000_000_000
const iso = (ms: number) => new Date(ms).toISOString()

/** An EIP-4361 message as the `siwe` package writes it (statement optional, times as given). */
function siwe(fields: Partial<Record<string, string>> = {}, extra: string[] = []): string {
  const f: Record<string, string | undefined> = {
    domain: 'dapp.example',
    address: ACCOUNT.address,
    statement: 'Sign in to Dapp',
    uri: `${ORIGIN}/login`,
    chainId: '31337',
    nonce: 'abcdef12345',
    issuedAt: iso(NOW - 1000),
    ...fields,
  }
  const lines = [`${f.domain} wants you to sign in with your Ethereum account:`, f.address, '']
  lines.push(...(f.statement === '' ? [''] : [f.statement, '']))
  lines.push(`URI: ${f.uri}`, 'Version: 1', `Chain ID: ${f.chainId}`, `Nonce: ${f.nonce}`, `Issued At: ${f.issuedAt}`)
  if (f.expirationTime) lines.push(`Expiration Time: ${f.expirationTime}`)
  if (f.notBefore) lines.push(`Not Before: ${f.notBefore}`)
  if (f.requestId) lines.push(`Request ID: ${f.requestId}`)
  return [...lines, ...extra].join('\n')
}

describe('EIP-4361 messages in personal_sign (siwe.ts)', () => {
  it('reads every field in message order, with resources, and agrees with viem on a message viem writes', () => {
    const text = siwe({ expirationTime: iso(NOW + 60_000), notBefore: iso(NOW - 60_000), requestId: 'req-1' }, [
      'Resources:',
      'https://dapp.example/terms',
      'ipfs://bafy',
    ])
      .replace('Resources:\nhttps', 'Resources:\n- https')
      .replace('\nipfs', '\n- ipfs')
    const f = parseSiwe(text)
    expect(f).toMatchObject({ domain: 'dapp.example', address: ACCOUNT.address, statement: 'Sign in to Dapp', chainId: 31337 })
    expect(f?.rows).toEqual([
      ['URI', `${ORIGIN}/login`],
      ['Version', '1'],
      ['Chain ID', '31337'],
      ['Nonce', 'abcdef12345'],
      ['Issued At', iso(NOW - 1000)],
      ['Expiration Time', iso(NOW + 60_000)],
      ['Not Before', iso(NOW - 60_000)],
      ['Request ID', 'req-1'],
    ])
    expect(f?.resources).toEqual(['https://dapp.example/terms', 'ipfs://bafy'])
    const viemText = createSiweMessage({
      address: ACCOUNT.address,
      chainId: 1,
      domain: 'example.com',
      nonce: 'foobarbaz1',
      uri: 'https://example.com/path',
      version: '1',
      issuedAt: new Date(NOW),
      scheme: 'https',
    })
    expect(parseSiwe(viemText)).toMatchObject({ scheme: 'https', domain: 'example.com', statement: null, chainId: 1 })
    expect(parseSiwe(siwe({ statement: '' }))).toMatchObject({ statement: null })
  })

  it('anything not exactly EIP-4361 stays an ordinary message', () => {
    const good = siwe()
    expect(parseSiwe(good)).not.toBeNull()
    const bad = [
      'hello sigil',
      `${good}\nextra line the window would not show`,
      `Please read\n${good}`,
      good.replace('Version: 1', 'Version: 2'),
      good.replace(ACCOUNT.address, '0x1234'),
      good.replace('Nonce: abcdef12345', 'Nonce: short'),
      good.replace(/Issued At: .*/, 'Issued At: yesterday'),
      good.replace('Chain ID: 31337', 'Chain ID: 0x7a69'),
      good.replace(/URI: .*\n/, ''),
      good.replace('dapp.example wants', 'dapp.example/path wants'),
      siwe({ expirationTime: 'soon' }),
      good.replace('\n\nURI', '\nURI'),
    ]
    for (const text of bad) expect(parseSiwe(text), text).toBeNull()
  })

  it('refuses, naming the field: expired, not yet valid, another chain, another account', () => {
    const ctx = { now: NOW, chainId: 31337n, signer: ACCOUNT.address.toLowerCase() }
    const of = (fields: Partial<Record<string, string>>) => siweRefusal(parseSiwe(siwe(fields))!, ctx)
    expect(of({})).toBeNull()
    expect(of({ expirationTime: iso(NOW + 1000) })).toBeNull()
    expect(of({ expirationTime: iso(NOW - 1000) })).toBe(`Sign-in message: expirationTime ${iso(NOW - 1000)} has passed`)
    expect(of({ notBefore: iso(NOW + 5000) })).toBe(`Sign-in message: notBefore ${iso(NOW + 5000)} is in the future`)
    expect(of({ chainId: '1' })).toBe("Sign-in message: chainId 1 is not this site's current chain (31337)")
    const other = `0x${'11'.repeat(20)}`
    expect(of({ address: other })).toBe(`Sign-in message: address ${other} is not the account asked to sign (${ctx.signer})`)
  })

  it('the view lists the domain and URI that are not the asking site', () => {
    const mine = siweView(ORIGIN, ACCOUNT.address, parseSiwe(siwe())!, siwe())
    expect(mine).toMatchObject({ kind: 'signIn', chain: 'ethereum', domain: 'dapp.example', mismatches: [], text: siwe() })
    const text = siwe({ domain: 'bank.example', uri: 'https://bank.example/login' })
    expect(siweView(ORIGIN, ACCOUNT.address, parseSiwe(text)!, text).mismatches).toEqual([
      { field: 'domain', stated: 'bank.example', site: ORIGIN },
      { field: 'uri', stated: 'https://bank.example/login', site: ORIGIN },
    ])
  })
})

describe('personal_sign of a sign-in through the background', () => {
  async function connectedAt() {
    const t = setup()
    await t.connected()
    const chain = (await t.rpc('eth_chainId')).result as string
    return { t, chainId: BigInt(chain).toString(10) }
  }

  it('opens the sign-in window; approved, the signature verifies as that EIP-4361 message', async () => {
    const { t, chainId } = await connectedAt()
    const text = siwe({ chainId })
    const pending = t.rpc('personal_sign', [stringToHex(text), ACCOUNT.address])
    const w = await t.windowOpened(2)
    const shown = await t.popup('approvalGet', { id: w.approvalId })
    expect(shown.result.view).toMatchObject({ kind: 'signIn', domain: 'dapp.example', statement: 'Sign in to Dapp', mismatches: [], text })
    expect(await t.popup('approvalResolve', { id: w.approvalId, approved: true })).toEqual({ ok: true, result: { settled: true } })
    const reply = await pending
    const client = createPublicClient({ transport: custom({ request: async () => null }) })
    expect(await verifySiweMessage(client, { message: text, signature: reply.result, domain: 'dapp.example' })).toBe(true)
  })

  it('refuses expired, wrong-chain and other-account sign-ins with -32602 before any window', async () => {
    const { t, chainId } = await connectedAt()
    const other = `0x${'11'.repeat(20)}`
    const cases = [
      [siwe({ chainId, expirationTime: iso(NOW - 1) }), 'expirationTime'],
      [siwe({ chainId, notBefore: iso(NOW + 60_000) }), 'notBefore'],
      [siwe({ chainId: chainId === '5' ? '6' : '5' }), `is not this site's current chain (${chainId})`],
      [siwe({ chainId, address: other }), `address ${other}`],
    ] as const
    for (const [text, says] of cases) {
      const reply = await t.rpc('personal_sign', [stringToHex(text), ACCOUNT.address])
      expect(reply.error.code).toBe(-32602)
      expect(reply.error.message).toContain(says)
    }
    expect(t.windows).toHaveLength(1) // the connect window only
    expect(t.calls.filter((c) => c.path.includes('/submit/'))).toHaveLength(0)
  })

  it('a sign-in whose expiration time passes while its window is open is refused at approval, nothing signed', async () => {
    const { t, chainId } = await connectedAt()
    const expires = iso(NOW + 60_000)
    const pending = t.rpc('personal_sign', [stringToHex(siwe({ chainId, expirationTime: expires })), ACCOUNT.address])
    const w = await t.windowOpened(2)
    t.f.advance(61_000)
    expect(await t.popup('approvalResolve', { id: w.approvalId, approved: true })).toMatchObject({ ok: true })
    const reply = await pending
    expect(reply.error.code).toBe(-32602)
    expect(reply.error.message).toBe(`Sign-in message: expirationTime ${expires} passed before it was approved`)
    expect(t.calls.filter((c) => c.path.includes('/submit/'))).toHaveLength(0)
  })

  it('a sign-in for another site is approved only with the override; without it the request keeps waiting', async () => {
    const { t, chainId } = await connectedAt()
    const text = siwe({ chainId, domain: 'bank.example', uri: 'https://bank.example/' })
    const pending = t.rpc('personal_sign', [stringToHex(text), ACCOUNT.address])
    const w = await t.windowOpened(2)
    const shown = await t.popup('approvalGet', { id: w.approvalId })
    expect(shown.result.view.mismatches).toHaveLength(2)
    const refused = await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', field: 'acknowledged' } })
    expect(refused.error.message).toContain('I understand, sign in anyway')
    // an override that is not exactly `true` is refused by the params schema
    expect(await t.popup('approvalResolve', { id: w.approvalId, approved: true, acknowledged: 'yes' })).toMatchObject({ ok: false })
    expect(await t.popup('approvalGet', { id: w.approvalId })).toMatchObject({ ok: true })
    expect(t.calls.filter((c) => c.path.includes('/submit/'))).toHaveLength(0)
    expect(await t.popup('approvalResolve', { id: w.approvalId, approved: true, acknowledged: true })).toEqual({
      ok: true,
      result: { settled: true },
    })
    const reply = await pending
    const client = createPublicClient({ transport: custom({ request: async () => null }) })
    expect(await verifySiweMessage(client, { message: text, signature: reply.result })).toBe(true)
  })

  it('rejecting a sign-in for another site needs no override; a plain message keeps the message window', async () => {
    const { t, chainId } = await connectedAt()
    const pending = t.rpc('personal_sign', [stringToHex(siwe({ chainId, domain: 'bank.example' })), ACCOUNT.address])
    const w = await t.windowOpened(2)
    expect(await t.popup('approvalResolve', { id: w.approvalId, approved: false })).toEqual({ ok: true, result: { settled: true } })
    expect(await pending).toMatchObject({ error: { code: 4001 } })
    const fresh = (await connectedAt()).t
    const plain = fresh.rpc('personal_sign', [stringToHex('hello sigil'), ACCOUNT.address])
    const w2 = await fresh.windowOpened(2)
    expect((await fresh.popup('approvalGet', { id: w2.approvalId })).result.view).toMatchObject({ kind: 'message', text: 'hello sigil' })
    await fresh.popup('approvalResolve', { id: w2.approvalId, approved: false })
    expect(await plain).toMatchObject({ error: { code: 4001 } })
  })
})
