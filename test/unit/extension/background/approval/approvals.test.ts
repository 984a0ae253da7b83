import { describe, expect, it, vi } from 'vitest'
import { recoverMessageAddress, recoverTransactionAddress, recoverTypedDataAddress, type TransactionSerialized } from 'viem'
import { createApprovalRegistry, USER_REJECTED } from '@/src/extension/background/approval/approvals'
import { PERMISSIONS_KEY } from '@/src/extension/background/dapp/evm/permissions'
import { seaportOrder } from '../../../../helpers/typedData'
import { ACCOUNT, OTHER, ORIGIN, PAGE, setup } from '../../approvalFixture'

const view = { kind: 'switchChain', from: { chainId: '0x1', name: 'Ethereum' }, to: { chainId: '0x2105', name: 'Base' } } as const
const helloSigil = `0x${Buffer.from('hello sigil').toString('hex')}`

const typedData = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
    ],
    Mail: [
      { name: 'from', type: 'string' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'Sigil Test', version: '1', chainId: 1 },
  message: { from: 'alice', contents: 'hi bob' },
} as const

describe('approval registry', () => {
  it('settles only the named id, exactly once', async () => {
    const reg = createApprovalRegistry()
    const a = reg.open({ origin: 'https://a.example', method: 'personal_sign', view })
    const b = reg.open({ origin: 'https://b.example', method: 'personal_sign', view })
    expect(a.id).not.toBe(b.id)
    expect(reg.resolve(crypto.randomUUID(), true)).toBe(false)
    expect(reg.size()).toBe(2)
    expect(reg.resolve(b.id, true)).toBe(true)
    expect(reg.resolve(b.id, false)).toBe(false)
    await expect(b.outcome).resolves.toEqual({ approved: true })
    expect(reg.get(a.id)?.origin).toBe('https://a.example')
    expect(reg.get(b.id)).toBeUndefined()
    expect(reg.rejectAll(USER_REJECTED)).toBe(1)
    await expect(a.outcome).resolves.toEqual({ approved: false, error: { code: 4001, message: 'User rejected the request' } })
  })

  it('rejects with 4001 when its window closes or it times out', async () => {
    let fire: (() => void) | undefined
    const reg = createApprovalRegistry({ setTimer: (fn) => (fire = fn), clearTimer: () => {} })
    const a = reg.open({ origin: 'https://a.example', method: 'personal_sign', view })
    expect(reg.attachWindow(a.id, 5)).toBe(true)
    reg.windowClosed(6)
    expect(reg.size()).toBe(1)
    reg.windowClosed(5)
    await expect(a.outcome).resolves.toMatchObject({ approved: false, error: { code: 4001 } })
    const b = reg.open({ origin: 'https://a.example', method: 'personal_sign', view })
    fire?.()
    await expect(b.outcome).resolves.toMatchObject({ approved: false, error: { code: 4001 } })
    expect(reg.size()).toBe(0)
  })
})

describe('dApp methods through the router', () => {
  it('still refuses unknown methods with 4200, including the approval page methods', async () => {
    const t = setup()
    await t.login()
    for (const m of ['eth_sendRawTransaction', 'approvalResolve', 'approvalGet', 'eth_newFilter', 'constructor']) {
      expect(await t.rpc(m)).toEqual({ error: { code: 4200, message: `Unsupported method: ${m}` } })
    }
    expect(t.windows).toHaveLength(0)
  })

  it('eth_accounts is [] before connecting; signing without a connection is 4100 and opens no window', async () => {
    const t = setup()
    await t.login()
    expect(await t.rpc('eth_accounts')).toEqual({ result: [] })
    const cases: Array<[string, unknown]> = [
      ['personal_sign', [helloSigil, ACCOUNT.address]],
      ['eth_signTypedData_v4', [ACCOUNT.address, JSON.stringify(typedData)]],
      ['eth_signTransaction', [{ from: ACCOUNT.address, to: ACCOUNT.address, nonce: '0x0', gas: '0x5208', gasPrice: '0x1' }]],
    ]
    for (const [m, p] of cases) expect(await t.rpc(m, p)).toMatchObject({ error: { code: 4100 } })
    expect(t.windows).toHaveLength(0)
    expect(t.calls.filter((c) => c.path.includes('/submit/'))).toHaveLength(0)
  })

  it('connects the origin from the sender; a spoofed origin field in the message is ignored', async () => {
    const t = setup()
    await t.login()
    const pending = t.rpc('eth_requestAccounts', undefined, PAGE, { origin: 'https://evil.example' })
    const w = await t.windowOpened(1)
    const shown = await t.popup('approvalGet', { id: w.approvalId })
    expect(shown).toMatchObject({
      ok: true,
      result: {
        origin: ORIGIN,
        method: 'eth_requestAccounts',
        view: { kind: 'connect', accounts: [{ address: ACCOUNT.address, name: 'Account 1' }], selected: [ACCOUNT.address] },
      },
    })
    expect(await t.popup('approvalResolve', { id: w.approvalId, approved: true })).toEqual({ ok: true, result: { settled: true } })
    expect(await pending).toEqual({ result: [ACCOUNT.address] })
    const stored = t.f.deps.local.data.get(PERMISSIONS_KEY) as { origins: Record<string, unknown> }
    expect(Object.keys(stored.origins)).toEqual([ORIGIN])
    expect(await t.rpc('eth_accounts')).toEqual({ result: [ACCOUNT.address] })
    expect(await t.rpc('eth_accounts', undefined, OTHER)).toEqual({ result: [] })
    expect(t.events).toContainEqual({ tabId: 7, message: { kind: 'provider-event', event: 'accountsChanged', data: [ACCOUNT.address] } })
    await vi.waitFor(() => expect(t.closed).toContain(w.windowId), { timeout: 3000 })
    // signing for a different address than the connected one is 4100
    expect(await t.rpc('personal_sign', [helloSigil, `0x${'11'.repeat(20)}`])).toMatchObject({ error: { code: 4100 } })
  })

  it('binds the answer to the id: another id does nothing, a second answer is refused, the id is required', async () => {
    const t = setup()
    await t.connected()
    const otherPending = t.rpc('eth_requestAccounts', undefined, OTHER)
    const wOther = await t.windowOpened(2)
    // one window at a time: the signing request waits in the queue until wOther is answered
    const signing = t.rpc('personal_sign', [helloSigil, ACCOUNT.address])
    await new Promise((r) => setTimeout(r, 50))
    expect(t.windows).toHaveLength(2)
    expect(await t.popup('approvalResolve', { id: crypto.randomUUID(), approved: true })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    })
    expect(await t.popup('approvalResolve', { approved: true })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
    expect(await t.popup('approvalResolve', { id: wOther.approvalId, approved: false })).toEqual({ ok: true, result: { settled: true } })
    expect(await otherPending).toEqual({ error: { code: 4001, message: 'User rejected the request' } })
    expect(await t.popup('approvalResolve', { id: wOther.approvalId, approved: true })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    })
    // the same window moves on to the signing request: no second window, none closed
    const next = await t.popup('approvalShown', { id: wOther.approvalId })
    expect(next).toMatchObject({ ok: true, result: { id: expect.any(String), waiting: 0 } })
    expect(next.result.id).not.toBe(wOther.approvalId)
    const wSign = { windowId: wOther.windowId, approvalId: next.result.id as string }
    expect(t.windows).toHaveLength(2)
    expect(t.closed).not.toContain(wOther.windowId)
    expect(await t.popup('approvalResolve', { id: wSign.approvalId })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
    // the signing request is untouched by all of the above
    expect(await t.popup('approvalGet', { id: wSign.approvalId })).toMatchObject({ ok: true, result: { method: 'personal_sign' } })
    expect(await t.popup('approvalResolve', { id: wSign.approvalId, approved: true })).toEqual({ ok: true, result: { settled: true } })
    const reply = await signing
    expect(await recoverMessageAddress({ message: 'hello sigil', signature: reply.result })).toBe(ACCOUNT.address)
    expect(await t.popup('approvalResolve', { id: wSign.approvalId, approved: true })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    })
    // web pages cannot answer approvals
    expect(await t.popup('approvalResolve', { id: wSign.approvalId, approved: true }, PAGE)).toEqual({
      ok: false,
      error: { code: 'ORIGIN_NOT_ALLOWED' },
    })
  })

  it('personal_sign sends the EIP-191 message with KECCAK256 only after approval; v is 27/28', async () => {
    const t = setup()
    await t.connected()
    const submitsBefore = t.calls.filter((c) => c.path.includes('/submit/')).length
    const pending = t.rpc('personal_sign', [helloSigil, ACCOUNT.address.toLowerCase()])
    const w = await t.windowOpened(2)
    expect(t.calls.filter((c) => c.path.includes('/submit/'))).toHaveLength(submitsBefore)
    const shown = await t.popup('approvalGet', { id: w.approvalId })
    expect(shown.result.view).toMatchObject({ kind: 'message', text: 'hello sigil', byteLength: 11 })
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    const { result } = await pending
    expect(result).toMatch(/^0x[0-9a-f]{128}(1b|1c)$/)
    const sent = t.calls.find((c) => c.path === '/public/v1/submit/sign_raw_payload')!
    expect(sent.body.parameters).toMatchObject({
      signWith: ACCOUNT.address,
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_KECCAK256',
      payload: Buffer.from('\x19Ethereum Signed Message:\n11hello sigil').toString('hex'),
    })
    expect(await recoverMessageAddress({ message: 'hello sigil', signature: result })).toBe(ACCOUNT.address)
    // non-text bytes are shown as hex
    const p2 = t.rpc('personal_sign', ['0x00ff01', ACCOUNT.address])
    const w2 = await t.windowOpened(3)
    expect((await t.popup('approvalGet', { id: w2.approvalId })).result.view).toMatchObject({ text: null, hex: '0x00ff01' })
    await t.popup('approvalResolve', { id: w2.approvalId, approved: false })
    expect(await p2).toMatchObject({ error: { code: 4001 } })
  })

  it('eth_signTypedData_v4 and eth_signTransaction sign after approval and recover to the account', async () => {
    const t = setup()
    await t.connected()
    const typed = t.rpc('eth_signTypedData_v4', [ACCOUNT.address, JSON.stringify(typedData)])
    const w = await t.windowOpened(2)
    expect((await t.popup('approvalGet', { id: w.approvalId })).result.view).toMatchObject({
      kind: 'typedData',
      primaryType: 'Mail',
      message: [
        ['from', 'alice'],
        ['contents', 'hi bob'],
      ],
    })
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    const sig = (await typed).result
    expect(await recoverTypedDataAddress({ ...(typedData as any), signature: sig })).toBe(ACCOUNT.address)
    expect(t.calls.at(-1)?.body.parameters).toMatchObject({ encoding: 'PAYLOAD_ENCODING_EIP712', hashFunction: 'HASH_FUNCTION_NO_OP' })
    // wrong domain chain → -32602, no window
    const wrongChain = { ...typedData, domain: { ...typedData.domain, chainId: 8453 } }
    expect(await t.rpc('eth_signTypedData_v4', [ACCOUNT.address, wrongChain])).toMatchObject({ error: { code: -32602 } })
    expect(t.windows).toHaveLength(2)

    const tx = {
      from: ACCOUNT.address,
      to: `0x${'22'.repeat(20)}`,
      value: '0xde0b6b3a7640000',
      nonce: '0x3',
      gas: '0x5208',
      maxFeePerGas: '0x77359400',
      maxPriorityFeePerGas: '0x3b9aca00',
    }
    const signing = t.rpc('eth_signTransaction', [tx])
    const w3 = await t.windowOpened(3)
    expect((await t.popup('approvalGet', { id: w3.approvalId })).result.view).toMatchObject({
      kind: 'transaction',
      to: tx.to,
      valueWei: '1000000000000000000',
      nonce: '3',
      value: '1 ETH',
      fees: [
        ['Max fee per gas', '2 gwei'],
        ['Priority fee per gas', '1 gwei'],
        ['Gas limit', '21000'],
        ['Max network fee', 'at most 0.000042 ETH'],
        ['Total (at most)', '1.000042 ETH (value + max network fee)'],
      ],
      filled: [],
    })
    await t.popup('approvalResolve', { id: w3.approvalId, approved: true })
    const signed = (await signing).result as TransactionSerialized
    expect(signed).toMatch(/^0x02/)
    expect(await recoverTransactionAddress({ serializedTransaction: signed })).toBe(ACCOUNT.address)
    // a missing nonce is asked of the network's node (dappSend.test.ts); none answering here means no window
    expect(await t.rpc('eth_signTransaction', [{ ...tx, nonce: undefined }])).toEqual({
      error: { code: -32603, message: 'The RPC node of Ethereum did not answer; nothing was signed' },
    })
    // eth_sendTransaction simulates first: no node answering means no window
    expect(await t.rpc('eth_sendTransaction', [tx])).toEqual({
      error: { code: -32603, message: 'The RPC node of Ethereum did not answer; nothing was sent' },
    })
    expect(t.windows).toHaveLength(3)
  })

  it('eth_signTypedData_v4 is checked against its types before any window: -32602 naming the field', async () => {
    const t = setup()
    await t.connected()
    const attacker = `0x${'bd'.repeat(20)}`
    const order = seaportOrder(ACCOUNT.address, attacker, 13)
    const bad: Array<[unknown, string]> = [
      [{ ...order, message: { ...order.message, recipient: attacker } }, 'message: unexpected field "recipient"'],
      [{ ...order, message: { ...order.message, orderType: 256 } }, 'message.orderType: out of range for uint8'],
      [
        { ...order, message: { ...order.message, offer: order.message.offer.map((o, i) => (i === 3 ? { ...o, token: '0x12' } : o)) } },
        'message.offer[3].token',
      ],
      [{ ...order, primaryType: 'Order' }, 'primaryType'],
      [{ ...order, domain: { ...order.domain, verifyingContract: 'seaport' } }, 'domain.verifyingContract'],
    ]
    for (const [typed, path] of bad) {
      const reply = await t.rpc('eth_signTypedData_v4', [ACCOUNT.address, JSON.stringify(typed)])
      expect(reply).toMatchObject({ error: { code: -32602 } })
      expect(reply.error.message).toContain(path)
    }
    expect(t.windows).toHaveLength(1) // the connect window only
    // the valid order opens a window with every row in types order, a summary and the foreign-recipient warning
    const pending = t.rpc('eth_signTypedData_v4', [ACCOUNT.address, order])
    const w = await t.windowOpened(2)
    const view = (await t.popup('approvalGet', { id: w.approvalId })).result.view
    expect(view.message).toHaveLength(2 + 13 * 5 + 6 + 7)
    expect(view.message[0]).toEqual(['offerer', ACCOUNT.address])
    expect(view.message).toContainEqual(['consideration[0].recipient', expect.stringMatching(/^0x[bB][dD]/)])
    expect(view.summary.rows.filter(([k]: [string]) => k.startsWith('You give'))).toHaveLength(13)
    expect(view.warnings).toEqual([expect.stringContaining('Consideration #1 goes to')])
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(await recoverTypedDataAddress({ ...(order as any), signature: (await pending).result })).toBe(ACCOUNT.address)
  })

  it('eth_signTransaction shows approve(max) decoded as unlimited, next to the raw data', async () => {
    const t = setup()
    await t.connected()
    const data = `0x095ea7b3${'00'.repeat(12)}${'55'.repeat(20)}${'ff'.repeat(32)}`
    const tx = { from: ACCOUNT.address, to: `0x${'66'.repeat(20)}`, data, nonce: '0x0', gas: '0x15f90', gasPrice: '0x1' }
    const pending = t.rpc('eth_signTransaction', [tx])
    const w = await t.windowOpened(2)
    const view = (await t.popup('approvalGet', { id: w.approvalId })).result.view
    expect(view).toMatchObject({ kind: 'transaction', data, call: { method: 'approve(address,uint256)' } })
    expect(view.call.rows).toContainEqual(['Amount', `unlimited (${(1n << 256n) - 1n})`])
    expect(view.call.warnings).toEqual([expect.stringContaining('Unlimited approval')])
    await t.popup('approvalResolve', { id: w.approvalId, approved: false })
    expect(await pending).toMatchObject({ error: { code: 4001 } })
  })

  it('a closed approval window rejects with 4001 and nothing is signed', async () => {
    const t = setup()
    await t.connected()
    const pending = t.rpc('personal_sign', [helloSigil, ACCOUNT.address])
    const w = await t.windowOpened(2)
    t.bg.onWindowRemoved(w.windowId + 1000)
    expect(await t.popup('approvalGet', { id: w.approvalId })).toMatchObject({ ok: true })
    t.bg.onWindowRemoved(w.windowId)
    expect(await pending).toEqual({ error: { code: 4001, message: 'User rejected the request' } })
    expect(t.calls.filter((c) => c.path.includes('/submit/'))).toHaveLength(0)
    expect(await t.popup('approvalGet', { id: w.approvalId })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
  })

  it('lock rejects everything pending with 4100, tells connected tabs, and eth_accounts becomes []', async () => {
    const t = setup()
    await t.connected()
    const a = t.rpc('personal_sign', [helloSigil, ACCOUNT.address])
    await t.windowOpened(2)
    await t.login() // a new login ends the old session first: pending requests are rejected
    expect(await a).toMatchObject({ error: { code: 4001 } })
    const b = t.rpc('personal_sign', [helloSigil, ACCOUNT.address])
    await t.windowOpened(3)
    const c = t.rpc('eth_signTypedData_v4', [ACCOUNT.address, typedData], PAGE) // queued behind b
    await vi.waitFor(() => expect(t.bg.state.approvals.size()).toBe(2), { timeout: 10_000 })
    expect(
      await t.popup('lock', undefined, {
        id: 'enibeleniamgnfhbmpkkldfacbjikdfa',
        url: 'chrome-extension://enibeleniamgnfhbmpkkldfacbjikdfa/popup.html',
      }),
    ).toMatchObject({ ok: true })
    expect(await b).toEqual({ error: { code: 4100, message: 'Unauthorized: the wallet was locked' } })
    expect(await c).toEqual({ error: { code: 4100, message: 'Unauthorized: the wallet was locked' } })
    await vi.waitFor(
      () => expect(t.events.at(-1)).toEqual({ tabId: 7, message: { kind: 'provider-event', event: 'accountsChanged', data: [] } }),
      { timeout: 10_000 },
    )
    expect(await t.rpc('eth_accounts')).toEqual({ result: [] })
    expect(t.calls.filter((x) => x.path.includes('/submit/'))).toHaveLength(0)
  })

  it('logout rejects everything pending with 4001', async () => {
    const t = setup()
    await t.connected()
    const a = t.rpc('personal_sign', [helloSigil, ACCOUNT.address])
    const b = t.rpc('eth_requestAccounts', undefined, OTHER)
    await t.windowOpened(2) // b waits in the queue
    await t.bg.core.wipe('logout')
    expect(await a).toEqual({ error: { code: 4001, message: 'User rejected the request' } })
    expect(await b).toEqual({ error: { code: 4001, message: 'User rejected the request' } })
  })

  it("permissions: get, revoke; chain switch to known chains only, with approval, per site (another site's request stays)", {
    timeout: 60_000,
  }, async () => {
    const t = setup()
    await t.connected()
    expect((await t.rpc('wallet_getPermissions')).result).toMatchObject([{ parentCapability: 'eth_accounts', invoker: ORIGIN }])
    expect(await t.rpc('wallet_switchEthereumChain', [{ chainId: '0x89' }])).toEqual({
      error: { code: 4902, message: 'Unrecognized chain ID' },
    })
    expect(await t.rpc('wallet_switchEthereumChain', [{ chainId: '0x1' }])).toEqual({ result: null })
    const sw = t.rpc('wallet_switchEthereumChain', [{ chainId: '0x2105' }])
    const w = await t.windowOpened(2)
    const otherSign = t.rpc('eth_requestAccounts', undefined, OTHER) // queued behind the switch
    // Wait for the background to hold the other site's request before probing: a probe that
    // arrived first would itself become the waiting request (and never answer).
    await vi.waitFor(() => expect(t.bg.state.approvals.hasPendingFor(OTHER.origin as string)).toBe(true), { timeout: 30_000 })
    const otherAgain = t.rpc('eth_requestAccounts', undefined, OTHER) // queued too (up to 10 per site)
    await vi.waitFor(() => expect(t.bg.state.approvals.size()).toBe(3), { timeout: 30_000 })
    expect(t.windows).toHaveLength(2)
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(await sw).toEqual({ result: null })
    // the other site's requests are not this site's: the switch leaves them, and the same window shows them next
    const shown = await t.popup('approvalShown', { id: w.approvalId })
    expect(shown).toMatchObject({ ok: true, result: { waiting: 1 } })
    expect(await t.popup('approvalGet', { id: shown.result.id })).toMatchObject({ ok: true, result: { origin: OTHER.origin } })
    expect(await t.popup('approvalRejectAll', { id: w.approvalId })).toEqual({ ok: true, result: { rejected: 2 } })
    expect(await otherSign).toMatchObject({ error: { code: 4001 } })
    expect(await otherAgain).toMatchObject({ error: { code: 4001 } })
    expect(t.windows).toHaveLength(2)
    expect(await t.rpc('eth_chainId')).toEqual({ result: '0x2105' })
    expect(await t.rpc('net_version')).toEqual({ result: '8453' })
    expect(await t.rpc('eth_chainId', undefined, OTHER)).toEqual({ result: '0x1' })
    expect(t.events).toContainEqual({ tabId: 7, message: { kind: 'provider-event', event: 'chainChanged', data: '0x2105' } })
    expect(t.events.filter((e) => e.tabId === 8 && e.message.event === 'chainChanged')).toEqual([])
    expect(await t.rpc('wallet_revokePermissions', [{ eth_accounts: {} }])).toEqual({ result: null })
    expect(await t.rpc('eth_accounts')).toEqual({ result: [] })
    expect(await t.rpc('wallet_getPermissions')).toEqual({ result: [] })
    expect(t.events.at(-1)).toEqual({ tabId: 7, message: { kind: 'provider-event', event: 'accountsChanged', data: [] } })
  })

  it('two concurrent requests from one origin wait in one window and are answered one after the other', async () => {
    const t = setup()
    await t.login()
    // Which of the two reaches the user first depends on WebCrypto's thread pool: either order.
    const a = t.rpc('eth_requestAccounts')
    const b = t.rpc('eth_requestAccounts')
    const w = await t.windowOpened(1)
    await vi.waitFor(() => expect(t.bg.state.approvals.size()).toBe(2), { timeout: 10_000 })
    await t.popup('approvalResolve', { id: w.approvalId, approved: false })
    const next = await t.popup('approvalShown', { id: w.approvalId })
    expect(next.result.id).not.toBe(w.approvalId)
    expect(await t.popup('approvalResolve', { id: next.result.id, approved: false })).toEqual({ ok: true, result: { settled: true } })
    const codes = (await Promise.all([a, b])).map((r) => r.error?.code)
    expect(codes).toEqual([4001, 4001])
    expect(t.windows).toHaveLength(1)
  })

  it('events go to the document that asked; a tab that moved to another origin no longer gets them', async () => {
    const t = setup()
    await t.login()
    const page = { ...PAGE, documentId: 'doc-A' }
    const pending = t.rpc('eth_requestAccounts', undefined, page)
    const w = await t.windowOpened(1)
    // the same tab navigates to another origin before the user answers
    await t.rpc('eth_chainId', undefined, { ...OTHER, tab: { id: 7 }, documentId: 'doc-B' })
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(await pending).toEqual({ result: [ACCOUNT.address] })
    expect(t.events.filter((e) => e.message.event === 'accountsChanged')).toEqual([])
    await t.rpc('eth_chainId', undefined, page)
    await t.rpc('wallet_revokePermissions', [{ eth_accounts: {} }], page)
    expect(t.events).toEqual([{ tabId: 7, documentId: 'doc-A', message: { kind: 'provider-event', event: 'accountsChanged', data: [] } }])
  })

  it('eth_requestAccounts when logged out is 4100 without a window', async () => {
    const t = setup()
    expect(await t.rpc('eth_requestAccounts')).toEqual({ error: { code: 4100, message: 'Unauthorized: not logged in' } })
    expect(t.windows).toHaveLength(0)
  })
})
