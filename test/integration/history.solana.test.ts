/**
 * list_sol_transaction_history through @turnkey/http on the Solana dev runtime: what came in from
 * the chain (the faucet's SOL and dev USDC, SOL and an SPL payment from another wallet, origin
 * EXTERNAL, no turnkey block) beside the service's own send (listed once, TURNKEY), newest first;
 * transfers the account is no party of are not listed; a node that does not answer fails naming
 * the network.
 */
import { findAssociatedTokenPda, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  type Address,
  address,
  appendTransactionMessageInstruction,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  createNoopSigner,
  createSolanaRpc,
  createTransactionMessage,
  devnet,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getTransactionEncoder,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import type { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_SOLANA_CAIP2, DEV_SOLANA_MINT, resolveNetworks } from '../../src/chains/networks.js'
import { DEV_FAUCET_ADDRESS } from '../../src/devchain/solana/runtime.js'
import { type RunningSolanaRpc, startSolanaRpc } from '../../src/devchain/solana/server.js'
import { freePort } from './helpers/process.js'
import { adminTurnkeyClient, startTestService, type TestService } from './helpers/service.js'

const SOL = `${DEV_SOLANA_CAIP2}/slip44:501`
const USDC = `${DEV_SOLANA_CAIP2}/token:${DEV_SOLANA_MINT}`
const mint = DEV_SOLANA_MINT as Address

let chain: RunningSolanaRpc
let svc: TestService
let client: TurnkeyClient
let org: string
let alice: string
let other: KeyPairSigner
let offline: TestService | undefined
let rpc: ReturnType<typeof createSolanaRpc<ReturnType<typeof devnet>>>

const history = (a: string) => client.listSolTransactionHistory({ organizationId: org, address: a, caip2: DEV_SOLANA_CAIP2 as any })

async function faucet(a: string, amount: string) {
  const res = await svc.post('/dev/faucet', { caip2: DEV_SOLANA_CAIP2, address: a, amount }, null)
  expect(res.status).toBe(200)
  return res.json as { signature: string; tokens: Array<{ signature: string }> }
}

/** Signs and sends `instructions` paid by `signer` (another wallet, not the service's). */
async function sendSigned(signer: KeyPairSigner, instructions: Parameters<typeof appendTransactionMessageInstructions>[0]) {
  const { value: blockhash } = await rpc.getLatestBlockhash().send()
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(signer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  )
  const tx = await signTransactionMessageWithSigners(message)
  return rpc.sendTransaction(getBase64EncodedWireTransaction(tx), { encoding: 'base64' }).send()
}

beforeAll(async () => {
  chain = await startSolanaRpc({ port: 0 })
  rpc = createSolanaRpc(devnet(chain.url))
  svc = await startTestService({ networks: resolveNetworks(`${DEV_SOLANA_CAIP2}=${chain.url}`), devFaucet: true })
  org = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
  const wallet = await client.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: String(Date.now()),
    organizationId: org,
    parameters: {
      walletName: 'solana history',
      accounts: [
        { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' },
      ],
    },
  })
  alice = wallet.activity.result.createWalletResult?.addresses[0] as string
  other = await generateKeyPairSigner()
})
afterAll(async () => {
  await offline?.stop()
  await svc?.stop()
  await chain?.close()
})

describe('list_sol_transaction_history: what came in from the chain', () => {
  let airdrop: string
  let minted: string
  let paidSol: string
  let paidUsdc: string

  it('lists the faucet deposit, SOL and an SPL payment from another wallet, newest first, and nothing unrelated', async () => {
    const funded = await faucet(alice, '1')
    airdrop = funded.signature
    minted = funded.tokens[0]?.signature as string
    await faucet(other.address, '2')
    paidSol = await sendSigned(other, [getTransferSolInstruction({ source: other, destination: address(alice), amount: 250_000_000n })])
    // a payment to alice's token account: the transaction does not name alice herself
    const [fromAta] = await findAssociatedTokenPda({ owner: other.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS })
    const [toAta] = await findAssociatedTokenPda({ owner: address(alice), mint, tokenProgram: TOKEN_PROGRAM_ADDRESS })
    paidUsdc = await sendSigned(other, [
      getTransferCheckedInstruction({ source: fromAta, mint, destination: toAta, authority: other, amount: 12_500_000n, decimals: 6 }),
    ])
    // alice is no party of this one
    const unrelated = await sendSigned(other, [
      getTransferSolInstruction({ source: other, destination: (await generateKeyPairSigner()).address, amount: 10_000_000n }),
    ])

    const { transactions } = await history(alice)
    expect(transactions.map((t) => t.signature)).toEqual([paidUsdc, paidSol, minted, airdrop])
    expect(transactions.map((t) => t.signature)).not.toContain(unrelated)
    const [usdc, sol, mintedTx, airdropTx] = transactions
    for (const t of transactions) {
      expect(t).toMatchObject({ origin: 'EXTERNAL', status: 'CONFIRMED', executionFailed: false })
      expect(t.turnkey).toBeUndefined()
      expect(t.block.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/)
    }
    expect(airdropTx).toMatchObject({
      feePayer: DEV_FAUCET_ADDRESS,
      fee: { amount: '5000', caip19: SOL },
      transfers: [
        {
          direction: 'IN',
          amount: '1000000000',
          counterparty: DEV_FAUCET_ADDRESS,
          asset: { caip19: SOL, symbol: 'SOL', decimals: 9 },
          display: { crypto: '1' },
        },
      ],
    })
    expect(mintedTx?.transfers).toEqual([
      expect.objectContaining({ direction: 'IN', amount: '100000000', counterparty: DEV_SOLANA_MINT, display: { crypto: '100' } }),
    ])
    expect(sol).toMatchObject({
      feePayer: other.address,
      signers: [{ address: other.address, writable: true }],
      transfers: [{ direction: 'IN', amount: '250000000', counterparty: other.address, display: { crypto: '0.25' } }],
    })
    expect(Number(sol?.block.number)).toBeGreaterThan(Number(mintedTx?.block.number))
    expect(usdc).toMatchObject({
      feePayer: other.address,
      transfers: [
        {
          direction: 'IN',
          amount: '12500000',
          counterparty: other.address,
          asset: { caip19: USDC, symbol: 'USDC', decimals: 6 },
          display: { crypto: '12.5' },
        },
      ],
    })
  })

  it("merges the service's own send with what came in, newest first, and lists it once", async () => {
    const bob = (await generateKeyPairSigner()).address
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(address(alice), m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: '11111111111111111111111111111111' as Blockhash, lastValidBlockHeight: 0n },
          m,
        ),
      (m) =>
        appendTransactionMessageInstruction(
          getTransferSolInstruction({ source: createNoopSigner(address(alice)), destination: bob, amount: 100_000_000n }),
          m,
        ),
    )
    const hex = Buffer.from(getTransactionEncoder().encode(compileTransaction(message))).toString('hex')
    const res = await client.solSendTransaction({
      type: 'ACTIVITY_TYPE_SOL_SEND_TRANSACTION_V2',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: { unsignedTransaction: hex, signWiths: [alice], caip2: DEV_SOLANA_CAIP2 as any },
    })
    const id = res.activity.result.solSendTransactionResultV2?.sendTransactionStatusId as string
    const deadline = Date.now() + 20_000
    let signature: string | undefined
    while (Date.now() < deadline) {
      const s = await client.getSendTransactionStatus({ organizationId: org, sendTransactionStatusId: id })
      if (s.txStatus === 'INCLUDED') {
        signature = (s as { solana?: { signature?: string } }).solana?.signature
        break
      }
      await new Promise((r) => setTimeout(r, 50))
    }
    expect(signature).toBeDefined()
    const { transactions } = await history(alice)
    expect(transactions.filter((t) => t.signature === signature)).toHaveLength(1)
    expect(transactions).toHaveLength(5)
    expect(transactions[0]).toMatchObject({
      signature,
      origin: 'TURNKEY',
      feePayer: alice,
      turnkey: { sendTransactionStatusId: id },
      transfers: [{ direction: 'OUT', amount: '100000000', counterparty: bob }],
    })
    expect(transactions.slice(1).map((t) => t.origin)).toEqual(['EXTERNAL', 'EXTERNAL', 'EXTERNAL', 'EXTERNAL'])
  })

  it('a node that does not answer fails the request with FAILED_PRECONDITION naming the network', async () => {
    const port = await freePort()
    offline = await startTestService({ networks: resolveNetworks(`${DEV_SOLANA_CAIP2}=http://127.0.0.1:${port}`) })
    const c = adminTurnkeyClient(offline)
    const w = await c.createWallet({
      type: 'ACTIVITY_TYPE_CREATE_WALLET',
      timestampMs: String(Date.now()),
      organizationId: offline.admin.organizationId,
      parameters: {
        walletName: 'offline',
        accounts: [
          { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' },
        ],
      },
    })
    const res = await offline.post('/public/v1/query/list_sol_transaction_history', {
      organizationId: offline.admin.organizationId,
      address: w.activity.result.createWalletResult?.addresses[0],
      caip2: DEV_SOLANA_CAIP2,
    })
    expect(res.status).toBe(412)
    const body = res.json as { message: string }
    expect(body.message).toContain(DEV_SOLANA_CAIP2)
    expect(body.message).not.toContain(String(port))
  })
})
