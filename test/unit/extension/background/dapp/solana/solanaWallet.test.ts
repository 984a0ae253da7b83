/**
 * The Wallet Standard rows of the background (dapp/solana/methods.ts): connect with approval and a
 * per-origin grant, message and transaction signing bound to approvals, the fee-payer and chain
 * checks before any window opens, sign-and-send through sol_send_transaction, and wipes.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { getTransferSolInstruction } from '@solana-program/system'
import { base64 } from '@scure/base'
import {
  address,
  appendTransactionMessageInstruction,
  type Blockhash,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit'
import { describe, expect, it } from 'vitest'
import { DEV_SOLANA_CAIP2 } from '@/src/chains/networks'
import { parseSolanaTransaction } from '@/src/chains/sign/solanaMessage'
import { bytesToHex, utf8Encode } from '@/src/crypto/encoding'
import { solanaChainsOf } from '@/src/extension/background/dapp/solana/chains'
import { decodeSolanaTransaction, feePayerProblem, solText } from '@/src/extension/background/dapp/solana/transaction'
import { BASE, EXT_ID, OTHER, PAGE } from '../../../approvalFixture'

import { DEV, DEVNET, RECIPIENT, SOL, SOL_PUB, solanaSetup, STRANGER } from './solanaFixture'

/** A System transfer of `lamports` from `from` to RECIPIENT, fee paid by `feePayer`; wire bytes with empty signature slots. */
function transfer(lamports: bigint, feePayer = SOL, from = SOL): Uint8Array {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(address(feePayer), m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: RECIPIENT as Blockhash, lastValidBlockHeight: 0n }, m),
    (m) =>
      appendTransactionMessageInstruction(
        getTransferSolInstruction({ source: createNoopSigner(address(from)), destination: address(RECIPIENT), amount: lamports }),
        m,
      ),
  )
  return new Uint8Array(getTransactionEncoder().encode(compileTransaction(message)))
}

describe('Solana chains', () => {
  it('maps public clusters to the standard ids, a dev network to solana:localnet, others keep their CAIP-2 id', () => {
    const other = { ...DEV, caip2: 'solana:abcdefghijkmnopqrstuvwxyzABCDEFG', dev: false }
    expect(solanaChainsOf([DEV, DEVNET, other, { ...DEV, family: 'evm', caip2: 'eip155:1' }])).toEqual([
      { id: 'solana:localnet', caip2: DEV_SOLANA_CAIP2, name: 'Solana Dev' },
      { id: 'solana:devnet', caip2: DEVNET.caip2, name: 'Solana Devnet' },
      { id: other.caip2, caip2: other.caip2, name: 'Solana Dev' },
    ])
  })
})

describe('Solana transaction decoding', () => {
  it('shows a System transfer as from, to and the SOL amount, with the fee payer', () => {
    const r = decodeSolanaTransaction(transfer(1_500_000_000n))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.decoded.feePayer).toBe(SOL)
    expect(r.decoded.instructions).toEqual([
      {
        title: 'System Program: transfer SOL',
        rows: [
          ['From', SOL],
          ['To', RECIPIENT],
          ['Amount', '1.5 SOL (1500000000 lamports)'],
        ],
      },
    ])
    expect(r.decoded.warnings).toEqual([])
    expect(feePayerProblem(r.decoded, SOL)).toBeNull()
  })

  it('a foreign fee payer is a problem, and the other signer is warned about', () => {
    const r = decodeSolanaTransaction(transfer(1n, STRANGER, SOL))
    if (!r.ok) throw new Error(r.reason)
    expect(feePayerProblem(r.decoded, SOL)).toBe(`the fee payer ${STRANGER} is not the connected account ${SOL}`)
    expect(r.decoded.warnings).toEqual([`Other accounts must sign this transaction too: ${SOL}`])
  })

  it('refuses bytes that are not a transaction, and oversized ones', () => {
    expect(decodeSolanaTransaction(utf8Encode('hello'))).toMatchObject({ ok: false })
    const tx = transfer(1n)
    expect(decodeSolanaTransaction(tx.subarray(0, tx.length - 1))).toMatchObject({ ok: false })
    expect(decodeSolanaTransaction(new Uint8Array(1233))).toEqual({ ok: false, reason: 'transaction is over 1232 bytes' })
  })

  it('unknown programs show their accounts and data', () => {
    const tx = transfer(5n)
    const parsed = parseSolanaTransaction(tx)
    // Point the instruction at the fee payer as its "program": no longer a System transfer.
    const copy = Uint8Array.from(tx)
    const ix = parsed.message.instructions[0]!
    const at = copy.indexOf(ix.programIdIndex, 1 + 64 + 1 + 3 + 1 + 32 * parsed.message.accountKeys.length + 32 + 1)
    copy[at] = 0
    const r = decodeSolanaTransaction(copy)
    if (!r.ok) throw new Error(r.reason)
    expect(r.decoded.instructions[0]?.title).toBe(`Program ${SOL}`)
    expect(r.decoded.instructions[0]?.rows.at(-1)).toEqual(['Data', `0x${bytesToHex(ix.data)}`])
  })

  it('formats lamports', () => {
    expect(solText(0n)).toBe('0 SOL (0 lamports)')
    expect(solText(1n)).toBe('0.000000001 SOL (1 lamports)')
    expect(solText(2_000_000_000n)).toBe('2 SOL (2000000000 lamports)')
  })
})

describe('Wallet Standard background methods', () => {
  it('sol_state: the configured chains, no accounts until connected', async () => {
    const t = solanaSetup()
    await t.login()
    expect(await t.rpc('sol_state', [])).toEqual({ result: { chains: ['solana:localnet', 'solana:devnet'], accounts: [] } })
  })

  it('sol_connect asks in our window, grants the origin only, and pushes the accounts; silent connect never opens a window', async () => {
    const t = solanaSetup()
    await t.login()
    expect(await t.rpc('sol_connect', [{ silent: true }])).toEqual({ result: { accounts: [] } })
    expect(t.windows).toHaveLength(0)
    const pending = t.rpc('sol_connect', [])
    const w = await t.windowOpened(1)
    const details = await t.popup('approvalGet', { id: w.approvalId })
    expect(details.result).toMatchObject({
      origin: PAGE.origin,
      method: 'standard:connect',
      view: {
        kind: 'solanaConnect',
        accounts: [{ address: SOL, name: 'Account 1' }],
        selected: [SOL],
        networks: ['Solana Dev (solana:localnet)', 'Solana Devnet (solana:devnet)'],
      },
    })
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    const account = { address: SOL, publicKey: base64.encode(SOL_PUB) }
    expect(await pending).toEqual({ result: { accounts: [account] } })
    expect(t.events.at(-1)).toMatchObject({ tabId: 7, message: { event: 'solanaAccountsChanged', data: [account] } })
    expect(await t.rpc('sol_state', [])).toMatchObject({ result: { accounts: [account] } })
    expect(await t.rpc('sol_state', [], OTHER)).toMatchObject({ result: { accounts: [] } })
    expect(await t.rpc('eth_accounts')).toEqual({ result: [] }) // the EVM grant is separate
  })

  it('a rejected connect is 4001 and grants nothing', async () => {
    const t = solanaSetup()
    await t.login()
    const { reply } = await t.approved('sol_connect', [], false)
    expect(reply).toEqual({ error: { code: 4001, message: 'User rejected the request' } })
    expect(await t.rpc('sol_state', [])).toMatchObject({ result: { accounts: [] } })
  })

  it('connect while logged out is 4100; signing before connecting is 4100 without a window', async () => {
    const t = solanaSetup()
    expect(await t.rpc('sol_connect', [])).toMatchObject({ error: { code: 4100 } })
    await t.login()
    const message = base64.encode(utf8Encode('hi'))
    expect(await t.rpc('sol_signMessage', [{ address: SOL, message }])).toMatchObject({ error: { code: 4100 } })
    expect(t.windows).toHaveLength(0)
  })

  it('solana:signMessage shows the text and returns an ed25519 signature of exactly the message', async () => {
    const t = solanaSetup()
    await t.solConnected()
    const text = 'Sign in to dapp.example'
    const { reply, details } = await t.approved('sol_signMessage', [{ address: SOL, message: base64.encode(utf8Encode(text)) }])
    expect(details).toMatchObject({ method: 'solana:signMessage', view: { kind: 'message', address: SOL, text } })
    const signature = base64.decode(reply.result.signature)
    expect(ed25519.verify(signature, utf8Encode(text), SOL_PUB)).toBe(true)
    const call = t.calls.find((c) => c.path === '/public/v1/submit/sign_raw_payload')
    expect(call?.body.parameters).toMatchObject({ signWith: SOL, hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE' })
  })

  it('refuses to sign a transaction message as a message, another account, and bad params, before any window', async () => {
    const t = solanaSetup()
    await t.solConnected()
    const windows = t.windows.length
    const messageBytes = parseSolanaTransaction(transfer(1n)).messageBytes
    expect(await t.rpc('sol_signMessage', [{ address: SOL, message: base64.encode(messageBytes) }])).toMatchObject({
      error: { code: -32602, message: expect.stringContaining('is a Solana transaction') },
    })
    expect(await t.rpc('sol_signMessage', [{ address: STRANGER, message: 'aGk=' }])).toMatchObject({ error: { code: 4100 } })
    expect(await t.rpc('sol_signMessage', [{ address: SOL, message: 'not base64!' }])).toMatchObject({ error: { code: -32602 } })
    expect(await t.rpc('sol_signMessage', [{ address: SOL, message: 'aGk=', extra: 1 }])).toMatchObject({ error: { code: -32602 } })
    expect(await t.rpc('sol_unknown', [])).toMatchObject({ error: { code: 4200 } })
    expect(t.windows).toHaveLength(windows)
  })

  it('solana:signTransaction shows the decoded transfer and fee payer; the signature verifies over the message', async () => {
    const t = solanaSetup()
    await t.solConnected()
    const tx = transfer(250_000_000n)
    const { reply, details } = await t.approved('sol_signTransaction', [
      { address: SOL, transaction: base64.encode(tx), chain: 'solana:localnet' },
    ])
    expect(details.view).toEqual({
      kind: 'solanaTransaction',
      address: SOL,
      network: 'Solana Dev (solana:localnet)',
      feePayer: SOL,
      version: '0',
      instructions: [
        {
          title: 'System Program: transfer SOL',
          rows: [
            ['From', SOL],
            ['To', RECIPIENT],
            ['Amount', '0.25 SOL (250000000 lamports)'],
          ],
        },
      ],
      warnings: [],
      send: false,
      // This test's fake network has no Solana node: the window says so rather than claiming a change.
      balanceChanges: { status: 'unknown', reason: 'The Solana Dev node sent no result for getMultipleAccounts' },
    })
    const signed = parseSolanaTransaction(base64.decode(reply.result.signedTransaction))
    expect(ed25519.verify(signed.signatures[0]!, signed.messageBytes, SOL_PUB)).toBe(true)
    expect(signed.messageBytes).toEqual(parseSolanaTransaction(tx).messageBytes)
  })

  it('a foreign fee payer or an unknown chain is -32602 before any window; nothing is signed', async () => {
    const t = solanaSetup()
    await t.solConnected()
    const windows = t.windows.length
    const foreign = base64.encode(transfer(1n, STRANGER, SOL))
    expect(await t.rpc('sol_signTransaction', [{ address: SOL, transaction: foreign }])).toEqual({
      error: {
        code: -32602,
        message: `Invalid params for solana:signTransaction: the fee payer ${STRANGER} is not the connected account ${SOL}`,
      },
    })
    expect(await t.rpc('sol_signAndSendTransaction', [{ address: SOL, transaction: foreign, chain: 'solana:localnet' }])).toMatchObject({
      error: { code: -32602 },
    })
    const ok = base64.encode(transfer(1n))
    expect(await t.rpc('sol_signAndSendTransaction', [{ address: SOL, transaction: ok, chain: 'solana:mainnet' }])).toMatchObject({
      error: { code: -32602, message: expect.stringContaining('solana:mainnet is not one of') },
    })
    expect(await t.rpc('sol_signAndSendTransaction', [{ address: SOL, transaction: ok }])).toMatchObject({ error: { code: -32602 } })
    expect(t.windows).toHaveLength(windows)
    expect(t.calls.some((c) => c.path.includes('sign_transaction') || c.path.includes('sol_send'))).toBe(false)
  })

  it('solana:signAndSendTransaction sends through sol_send_transaction on the chain named (by id or CAIP-2) and returns the signature', async () => {
    const t = solanaSetup()
    await t.solConnected()
    const tx = transfer(1_000_000n)
    const { reply, details } = await t.approved('sol_signAndSendTransaction', [
      { address: SOL, transaction: base64.encode(tx), chain: DEV_SOLANA_CAIP2 },
    ])
    expect(details).toMatchObject({ method: 'solana:signAndSendTransaction', view: { send: true, feePayer: SOL } })
    const send = t.calls.find((c) => c.path === '/public/v1/submit/sol_send_transaction')
    expect(send?.body.parameters).toEqual({ caip2: DEV_SOLANA_CAIP2, unsignedTransaction: bytesToHex(tx), signWiths: [SOL] })
    const signature = base64.decode(reply.result.signature)
    expect(ed25519.verify(signature, parseSolanaTransaction(tx).messageBytes, SOL_PUB)).toBe(true)
  })

  it('a send the network refuses is -32603 with its reason; a rejected one is 4001 and never sent', async () => {
    const t = solanaSetup({ sendStatus: 'FAILED' })
    await t.solConnected()
    const input = [{ address: SOL, transaction: base64.encode(transfer(1n)), chain: 'solana:localnet' }]
    const failed = await t.approved('sol_signAndSendTransaction', input)
    // in words, never the node's JSON
    expect(failed.reply).toEqual({
      error: {
        code: -32603,
        message:
          'The receiving account would hold less SOL than its rent exemption: a new Solana account needs a minimum balance, so send more.',
      },
    })
    expect(t.sent).toHaveLength(1)
    const rejected = await t.approved('sol_signAndSendTransaction', input, false)
    expect(rejected.reply).toEqual({ error: { code: 4001, message: 'User rejected the request' } })
    expect(t.sent).toHaveLength(1)
  })

  it('lock rejects a pending Solana request (4100) and tells the connected tabs their accounts are gone', async () => {
    const t = solanaSetup()
    await t.solConnected()
    const pending = t.rpc('sol_signMessage', [{ address: SOL, message: base64.encode(utf8Encode('hi')) }])
    await t.windowOpened(t.windows.length + 1)
    await t.popup('lock', undefined, { id: EXT_ID, url: `${BASE}popup.html` })
    expect(await pending).toMatchObject({ error: { code: 4100 } })
    await expect.poll(() => t.events.at(-1)?.message).toEqual({ kind: 'provider-event', event: 'solanaAccountsChanged', data: [] })
    expect(await t.rpc('sol_state', [])).toMatchObject({ result: { accounts: [] } })
  })

  it('sol_disconnect forgets the grant and pushes no accounts', async () => {
    const t = solanaSetup()
    await t.solConnected()
    expect(await t.rpc('sol_disconnect', [])).toEqual({ result: null })
    expect(t.events.at(-1)?.message).toMatchObject({ event: 'solanaAccountsChanged', data: [] })
    expect(await t.rpc('sol_connect', [{ silent: true }])).toEqual({ result: { accounts: [] } })
  })
})
