/**
 * SPL tokens on the Solana dev runtime, through Solana's own clients: the dev mint exists at its
 * fixed address after start and after a restart from the state file; the dev faucet (through the
 * service) mints dev tokens into a new associated token account; getTokenAccountsByOwner,
 * getTokenAccountBalance and getTokenSupply answer in the shapes @solana/web3.js and @solana/kit
 * parse; a transferChecked built with @solana-program/token lands, and so does the transfer the
 * extension builds by hand (src/chains/splToken.ts), creating the recipient's account.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  fetchMint,
  fetchToken,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import {
  type Address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  devnet,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signBytes,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import { Connection, PublicKey } from '@solana/web3.js'
import { base64 } from '@scure/base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_SOLANA_CAIP2, DEV_SOLANA_MINT, resolveNetworks } from '../../src/chains/networks.js'
import { associatedTokenAddress, splTransferMessage, transactionBytes } from '../../src/chains/splToken.js'
import { type RunningSolanaRpc, startSolanaRpc } from '../../src/devchain/solana/server.js'
import { DEV_MINT_AUTHORITY } from '../../src/devchain/solana/tokens.js'
import { startTestService, type TestService } from './helpers/service.js'

const mint = DEV_SOLANA_MINT as Address
let dir: string
let chain: RunningSolanaRpc
let svc: TestService
let rpc: ReturnType<typeof createSolanaRpc<ReturnType<typeof devnet>>>
let connection: Connection

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sigil-spl-'))
  chain = await startSolanaRpc({ port: 0, stateFile: join(dir, 'solana.json') })
  rpc = createSolanaRpc(devnet(chain.url))
  connection = new Connection(chain.url, 'confirmed')
  svc = await startTestService({ networks: resolveNetworks(`${DEV_SOLANA_CAIP2}=${chain.url}`), devFaucet: true })
})
afterAll(async () => {
  await svc?.stop()
  await chain?.close()
  rmSync(dir, { recursive: true, force: true })
})

async function call(method: string, params: unknown[]) {
  const res = await fetch(chain.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await res.json()) as { result?: any; error?: { code: number; message: string } }
}

async function faucet(address: string) {
  const res = await svc.post('/dev/faucet', { caip2: DEV_SOLANA_CAIP2, address, amount: '1' }, null)
  expect(res.status).toBe(200)
  return res.json as { tokens?: Array<{ mint: string; baseUnits: string; signature: string }> }
}

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

describe('the dev mint', () => {
  it('exists at its fixed address from the start: 6 decimals, the faucet key its authority', async () => {
    const account = await fetchMint(rpc, mint)
    expect(account.programAddress).toBe(TOKEN_PROGRAM_ADDRESS)
    expect(account.data.decimals).toBe(6)
    expect(account.data.mintAuthority).toMatchObject({ __option: 'Some', value: DEV_MINT_AUTHORITY.address })
    expect(account.data.freezeAuthority).toMatchObject({ __option: 'None' })
    const supply = await connection.getTokenSupply(new PublicKey(DEV_SOLANA_MINT))
    expect(supply.value).toMatchObject({ decimals: 6 })
  })
})

describe('faucet, token RPC and transfers', () => {
  let owner: KeyPairSigner
  let ownerAta: Address

  beforeAll(async () => {
    owner = await generateKeyPairSigner()
    ;[ownerAta] = await findAssociatedTokenPda({ owner: owner.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS })
  })

  it('the faucet mints 100 dev tokens into the address’s new associated token account', async () => {
    expect(await rpc.getAccountInfo(ownerAta).send()).toMatchObject({ value: null })
    const body = await faucet(owner.address)
    expect(body.tokens).toEqual([expect.objectContaining({ mint: DEV_SOLANA_MINT, baseUnits: '100000000' })])
    const token = await fetchToken(rpc, ownerAta)
    expect(token.data).toMatchObject({ mint, owner: owner.address, amount: 100_000_000n })
    expect(associatedTokenAddress(owner.address, DEV_SOLANA_MINT)).toBe(ownerAta)
  })

  it('getTokenAccountsByOwner, getTokenAccountBalance and getTokenSupply answer as web3.js parses them', async () => {
    const parsed = await connection.getParsedTokenAccountsByOwner(new PublicKey(owner.address), { mint: new PublicKey(DEV_SOLANA_MINT) })
    expect(parsed.value).toHaveLength(1)
    expect(parsed.value[0]?.pubkey.toBase58()).toBe(ownerAta)
    expect(parsed.value[0]?.account.owner.toBase58()).toBe(TOKEN_PROGRAM_ADDRESS)
    expect(parsed.value[0]?.account.data).toEqual({
      program: 'spl-token',
      parsed: {
        type: 'account',
        info: {
          isNative: false,
          mint: DEV_SOLANA_MINT,
          owner: owner.address,
          state: 'initialized',
          tokenAmount: { amount: '100000000', decimals: 6, uiAmount: 100, uiAmountString: '100' },
        },
      },
      space: 165,
    })
    const byProgram = await connection.getTokenAccountsByOwner(new PublicKey(owner.address), {
      programId: new PublicKey(TOKEN_PROGRAM_ADDRESS),
    })
    expect(byProgram.value.map((a) => a.pubkey.toBase58())).toEqual([ownerAta])
    expect(byProgram.value[0]?.account.data.length).toBe(165)
    const balance = await connection.getTokenAccountBalance(new PublicKey(ownerAta))
    expect(balance.value).toEqual({ amount: '100000000', decimals: 6, uiAmount: 100, uiAmountString: '100' })
    const kitBalance = await rpc.getTokenAccountBalance(ownerAta).send()
    expect(kitBalance.value.amount).toBe('100000000')
    const supply = await rpc.getTokenSupply(mint).send()
    expect(BigInt(supply.value.amount)).toBeGreaterThanOrEqual(100_000_000n)
  })

  it('refuses what is not a token account, mint or token program, naming it', async () => {
    expect((await call('getTokenAccountBalance', [owner.address])).error).toEqual({
      code: -32602,
      message: 'Invalid param: not a Token account',
    })
    expect((await call('getTokenSupply', [ownerAta])).error).toEqual({ code: -32602, message: 'Invalid param: not a Token mint' })
    expect((await call('getTokenAccountsByOwner', [owner.address, { programId: '11111111111111111111111111111111' }])).error).toEqual({
      code: -32602,
      message: 'Invalid param: unrecognized Token program id',
    })
    expect((await call('getTokenAccountsByOwner', [owner.address, { mint: owner.address }])).error?.message).toBe(
      'Invalid param: could not find mint',
    )
    expect((await call('getTokenAccountsByOwner', [owner.address, {}])).error?.code).toBe(-32602)
  })

  it('a transferChecked built with @solana-program/token lands, creating the recipient’s account', async () => {
    const recipient = await generateKeyPairSigner()
    const [recipientAta] = await findAssociatedTokenPda({ owner: recipient.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS })
    const signature = await sendSigned(owner, [
      getCreateAssociatedTokenIdempotentInstruction({ payer: owner, ata: recipientAta, owner: recipient.address, mint }),
      getTransferCheckedInstruction({
        source: ownerAta,
        mint,
        destination: recipientAta,
        authority: owner,
        amount: 2_500_000n,
        decimals: 6,
      }),
    ])
    expect((await rpc.getSignatureStatuses([signature]).send()).value[0]?.err).toBeNull()
    expect((await rpc.getTokenAccountBalance(recipientAta).send()).value.uiAmountString).toBe('2.5')
    expect((await rpc.getTokenAccountBalance(ownerAta).send()).value.uiAmountString).toBe('97.5')
  })

  it('the transfer the extension builds by hand lands, with and without creating the recipient’s account', async () => {
    const recipient = await generateKeyPairSigner()
    const send = async (amount: bigint, createRecipientAccount: boolean) => {
      const { value } = await rpc.getLatestBlockhash().send()
      const message = splTransferMessage({
        from: owner.address,
        to: recipient.address,
        mint: DEV_SOLANA_MINT,
        decimals: 6,
        amount,
        createRecipientAccount,
        blockhash: value.blockhash,
      })
      const wire = transactionBytes(message, [await signBytes(owner.keyPair.privateKey, message)])
      return call('sendTransaction', [base64.encode(wire), { encoding: 'base64' }])
    }
    const recipientAta = associatedTokenAddress(recipient.address, DEV_SOLANA_MINT) as Address
    const missing = await send(1_000_000n, false)
    expect(missing.error?.message).toMatch(/simulation failed/)
    expect((await send(1_250_000n, true)).result).toEqual(expect.any(String))
    expect((await send(250_000n, false)).result).toEqual(expect.any(String))
    expect((await rpc.getTokenAccountBalance(recipientAta).send()).value.uiAmountString).toBe('1.5')
  })
})

describe('restart', () => {
  it('keeps the mint and its supply: the runtime restarted from its state file does not make it again', async () => {
    const before = (await rpc.getTokenSupply(mint).send()).value.amount
    await chain.close()
    chain = await startSolanaRpc({ port: 0, stateFile: join(dir, 'solana.json') })
    rpc = createSolanaRpc(devnet(chain.url))
    expect((await rpc.getTokenSupply(mint).send()).value).toMatchObject({ amount: before, decimals: 6 })
    expect(BigInt(before)).toBeGreaterThan(0n)
  })
})
