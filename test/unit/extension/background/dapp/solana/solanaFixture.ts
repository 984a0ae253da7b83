/**
 * A wired background (approvalFixture.ts) whose fake service holds one Solana account, SOL, with a
 * real ed25519 key: it signs raw payloads and transactions for real and can sign and send. The
 * Wallet Standard tests (solanaWallet.test.ts, signIn.test.ts) share it.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import { expect } from 'vitest'
import type { NetworkInfo } from '@/src/api/serviceIdentity'
import { DEV_SOLANA_CAIP2 } from '@/src/chains/networks'
import { parseSolanaTransaction } from '@/src/chains/sign/solanaMessage'
import { signSolanaTransaction } from '@/src/chains/sign/solanaTransaction'
import { bytesToHex, hexToBytes } from '@/src/crypto/encoding'
import { DEFAULT_SETTINGS } from '@/src/extension/background/service/settings'
import { ACCOUNT, account, activity, setup } from '../../../approvalFixture'
import { fakeIdentity } from '../../../fakeDeps'

export const SOL_KEY = new Uint8Array(32).fill(7)
export const SOL_PUB = ed25519.getPublicKey(SOL_KEY)
export const SOL = base58.encode(SOL_PUB)
export const RECIPIENT = base58.encode(ed25519.getPublicKey(new Uint8Array(32).fill(9)))
export const STRANGER = base58.encode(ed25519.getPublicKey(new Uint8Array(32).fill(11)))

export const DEV: NetworkInfo = {
  caip2: DEV_SOLANA_CAIP2,
  family: 'solana',
  name: 'Solana Dev',
  rpcUrl: 'http://127.0.0.1:8899',
  nativeSymbol: 'SOL',
  nativeDecimals: 9,
  dev: true,
  tokens: [],
}
export const DEVNET: NetworkInfo = { ...DEV, caip2: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', name: 'Solana Devnet', dev: false }
export const IDENTITY = fakeIdentity(DEFAULT_SETTINGS.apiBaseUrl, undefined, [DEV, DEVNET])

/** A background whose fake service holds SOL (ed25519, signs for real) and can sign and send. */
/**
 * `sendStatus`: how sends end; `rawKey`: the key sign_raw_payload signs with (another key stands for
 * a service that answers with a wrong signature); `loginWindow`: the platform can open the login window.
 */
export function solanaSetup(opts: { sendStatus?: 'INCLUDED' | 'FAILED'; rawKey?: Uint8Array; loginWindow?: boolean } = {}) {
  const { sendStatus = 'INCLUDED', rawKey = SOL_KEY } = opts
  const sent: string[] = []
  const t = setup({
    identity: IDENTITY,
    loginWindow: opts.loginWindow === true,
    routes: (path, body) => {
      const p = body.parameters
      if (path === '/public/v1/query/list_wallet_accounts') {
        return { accounts: [account('a1', ACCOUNT.address, 'ADDRESS_FORMAT_ETHEREUM'), account('a2', SOL, 'ADDRESS_FORMAT_SOLANA')] }
      }
      if (path === '/public/v1/submit/sign_raw_payload' && p.signWith === SOL) {
        const sig = ed25519.sign(hexToBytes(p.payload), rawKey)
        const signRawPayloadResult = { r: bytesToHex(sig.subarray(0, 32)), s: bytesToHex(sig.subarray(32)), v: '00' }
        return activity('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { signRawPayloadResult })
      }
      if (path === '/public/v1/submit/sign_transaction' && p.type === 'TRANSACTION_TYPE_SOLANA') {
        const signedTransaction = signSolanaTransaction({
          privateKey: SOL_KEY,
          publicKey: SOL_PUB,
          unsignedTransaction: p.unsignedTransaction,
        })
        return activity('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { signTransactionResult: { signedTransaction } })
      }
      if (path === '/public/v1/submit/sol_send_transaction') {
        sent.push(p.unsignedTransaction)
        return activity('ACTIVITY_TYPE_SOL_SEND_TRANSACTION_V2', { solSendTransactionResultV2: { sendTransactionStatusId: 'send-1' } })
      }
      if (path === '/public/v1/query/get_send_transaction_status') {
        const tx = parseSolanaTransaction(hexToBytes(sent[sent.length - 1] as string))
        const signature = base58.encode(ed25519.sign(tx.messageBytes, SOL_KEY))
        return sendStatus === 'INCLUDED'
          ? { txStatus: 'INCLUDED', solana: { signature } }
          : {
              txStatus: 'FAILED',
              solana: { signature },
              error: { solana: { transactionErrorJson: '{"InsufficientFundsForRent":{"account_index":1}}' } },
            }
      }
      return undefined
    },
  })
  /** Log in and connect PAGE through an approved sol_connect. */
  async function solConnected() {
    await t.login()
    const pending = t.rpc('sol_connect', [])
    const w = await t.windowOpened(t.windows.length + 1)
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    expect(await pending).toEqual({ result: { accounts: [{ address: SOL, publicKey: base64.encode(SOL_PUB) }] } })
  }
  /** Call `method`, wait for its window, answer it; the reply and the window's details. */
  async function approved(method: string, params: unknown, answer = true) {
    const pending = t.rpc(method, params)
    const w = await t.windowOpened(t.windows.length + 1)
    const details = await t.popup('approvalGet', { id: w.approvalId })
    await t.popup('approvalResolve', { id: w.approvalId, approved: answer })
    return { reply: await pending, details: details.result }
  }
  return { ...t, sent, solConnected, approved }
}
