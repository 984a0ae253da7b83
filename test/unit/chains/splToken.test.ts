/**
 * The hand-built SPL Token transactions (src/chains/splToken.ts) against Solana's own libraries:
 * ATA addresses equal @solana-program/token's findAssociatedTokenPda, each instruction's data and
 * accounts equal its generated builder's, and a compiled message decompiles with @solana/kit to
 * the same instructions, the fee payer first and signers before the rest.
 */
import { getCreateAccountInstruction } from '@solana-program/system'
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintToInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import {
  type Address,
  AccountRole,
  createNoopSigner,
  getCompiledTransactionMessageDecoder,
  type Instruction as KitInstruction,
} from '@solana/kit'
import { describe, expect, it } from 'vitest'
import { DEV_SOLANA_MINT } from '../../../src/chains/networks'
import {
  associatedTokenAddress,
  createAccount,
  createAssociatedTokenIdempotent,
  decodeMint,
  decodeTokenAccount,
  initializeMint2,
  type Instruction,
  messageSigners,
  mintTo,
  splTransferMessage,
  TOKEN_PROGRAM,
  transactionBytes,
  transferChecked,
} from '../../../src/chains/splToken'
import { DEV_MINT_AUTHORITY, DEV_MINT_KEYPAIR, uiTokenAmount } from '../../../src/devchain/solana/tokens'

const alice = 'Gh9ZwEmdLJ8DscKNTkTqPbNwLNNBjuSzaG9Vp2KGtKJr' as Address
const bob = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' as Address
const mint = DEV_SOLANA_MINT as Address

/** An instruction of ours in @solana/kit's form, to compare with a generated builder's. */
function asKit(ix: Instruction) {
  return {
    programAddress: ix.programId,
    accounts: ix.accounts.map((a) => ({
      address: a.address,
      role: a.signer
        ? a.writable
          ? AccountRole.WRITABLE_SIGNER
          : AccountRole.READONLY_SIGNER
        : a.writable
          ? AccountRole.WRITABLE
          : AccountRole.READONLY,
    })),
    data: Uint8Array.from(ix.data),
  }
}

function kitShape(ix: KitInstruction) {
  return {
    programAddress: ix.programAddress,
    accounts: (ix.accounts ?? []).map((a) => ({ address: a.address, role: a.role })),
    data: Uint8Array.from(ix.data ?? []),
  }
}

describe('SPL Token transactions by hand', () => {
  it('derives associated token accounts as @solana-program/token does', async () => {
    for (const owner of [alice, bob, DEV_MINT_AUTHORITY.address as Address]) {
      const [expected] = await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS })
      expect(associatedTokenAddress(owner, mint)).toBe(expected)
    }
    expect(() => associatedTokenAddress('0x12', mint)).toThrow(/owner: not a base58 address/)
  })

  it('builds each instruction as the generated builders do', async () => {
    const [aliceAta] = await findAssociatedTokenPda({ owner: alice, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS })
    const [bobAta] = await findAssociatedTokenPda({ owner: bob, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS })
    const aliceSigner = createNoopSigner(alice)
    expect(
      asKit(transferChecked({ source: aliceAta, mint, destination: bobAta, authority: alice, amount: 1_234_567n, decimals: 6 })),
    ).toEqual(
      kitShape(
        getTransferCheckedInstruction({
          source: aliceAta,
          mint,
          destination: bobAta,
          authority: aliceSigner,
          amount: 1_234_567n,
          decimals: 6,
        }),
      ),
    )
    const create = kitShape(getCreateAssociatedTokenIdempotentInstruction({ payer: aliceSigner, ata: bobAta, owner: bob, mint }))
    expect(asKit(createAssociatedTokenIdempotent({ payer: alice, owner: bob, mint }))).toEqual(create)
    expect(asKit(mintTo({ mint, destination: bobAta, authority: alice, amount: 5n }))).toEqual(
      kitShape(getMintToInstruction({ mint, token: bobAta, mintAuthority: aliceSigner, amount: 5n })),
    )
    expect(asKit(initializeMint2({ mint, decimals: 6, mintAuthority: alice }))).toEqual(
      kitShape(getInitializeMint2Instruction({ mint, decimals: 6, mintAuthority: alice, freezeAuthority: null })),
    )
    expect(asKit(createAccount({ from: alice, account: mint, lamports: 1_461_600n, space: 82, owner: TOKEN_PROGRAM }))).toEqual(
      kitShape(
        getCreateAccountInstruction({
          payer: aliceSigner,
          newAccount: createNoopSigner(mint),
          lamports: 1_461_600n,
          space: 82,
          programAddress: TOKEN_PROGRAM_ADDRESS,
        }),
      ),
    )
    expect(() => transferChecked({ source: aliceAta, mint, destination: bobAta, authority: alice, amount: -1n, decimals: 6 })).toThrow(
      /amount/,
    )
    expect(() =>
      transferChecked({ source: aliceAta, mint, destination: bobAta, authority: alice, amount: 2n ** 64n, decimals: 6 }),
    ).toThrow(/amount/)
  })

  it('compiles a send: the recipient’s account created first only when asked, the sender the one signer and fee payer', () => {
    type Compiled = {
      version: unknown
      header: unknown
      staticAccounts: string[]
      instructions: Array<{ programAddressIndex: number; accountIndices?: number[]; data?: Uint8Array }>
    }
    const decode = (m: Uint8Array) => getCompiledTransactionMessageDecoder().decode(m) as unknown as Compiled
    const withCreate = decode(splTransferMessage({ from: alice, to: bob, mint, decimals: 6, amount: 10n, createRecipientAccount: true }))
    expect(withCreate.version).toBe('legacy')
    expect(withCreate.header).toEqual({ numSignerAccounts: 1, numReadonlySignerAccounts: 0, numReadonlyNonSignerAccounts: 5 })
    expect(withCreate.staticAccounts[0]).toBe(alice)
    const programOf = (m: ReturnType<typeof decode>) => m.instructions.map((i) => m.staticAccounts[i.programAddressIndex])
    expect(programOf(withCreate)).toEqual(['ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL', TOKEN_PROGRAM])
    // The writable accounts are the sender, the two token accounts; the rest is read-only.
    const aliceAta = associatedTokenAddress(alice, mint)
    const bobAta = associatedTokenAddress(bob, mint)
    expect(new Set(withCreate.staticAccounts.slice(0, 3))).toEqual(new Set([alice, aliceAta, bobAta]))
    const transfer = withCreate.instructions[1]
    expect(transfer?.accountIndices?.map((i) => withCreate.staticAccounts[i])).toEqual([aliceAta, mint, bobAta, alice])
    expect(Array.from(transfer?.data ?? [])).toEqual([12, 10, 0, 0, 0, 0, 0, 0, 0, 6])

    const plain = splTransferMessage({ from: alice, to: bob, mint, decimals: 6, amount: 10n, createRecipientAccount: false })
    expect(programOf(decode(plain))).toEqual([TOKEN_PROGRAM])
    expect(messageSigners(plain)).toEqual([alice])
    const tx = transactionBytes(plain, [])
    expect(tx[0]).toBe(1)
    expect(tx.subarray(1, 65)).toEqual(new Uint8Array(64))
    expect(tx.subarray(65)).toEqual(plain)
  })
})

describe('dev mint accounts', () => {
  it('the dev mint keypair gives DEV_SOLANA_MINT', () => {
    expect(DEV_MINT_KEYPAIR.address).toBe(DEV_SOLANA_MINT)
    expect(DEV_MINT_AUTHORITY.address).not.toBe(DEV_SOLANA_MINT)
  })

  it('decodes token accounts and mints, refusing one as the other', () => {
    const account = new Uint8Array(165)
    account.set(new Uint8Array(32).fill(1), 0)
    account.set(new Uint8Array(32).fill(2), 32)
    new DataView(account.buffer).setBigUint64(64, 1_500_000n, true)
    account[108] = 1
    const decoded = decodeTokenAccount(account)
    expect(decoded).toMatchObject({ amount: 1_500_000n, state: 'initialized', delegate: null, isNative: null, closeAuthority: null })
    expect(decodeMint(account)).toBeNull()
    const mintData = new Uint8Array(82)
    mintData[44] = 6
    mintData[45] = 1
    expect(decodeMint(mintData)).toMatchObject({ decimals: 6, supply: 0n, mintAuthority: null })
    expect(decodeTokenAccount(mintData)).toBeNull()
    expect(decodeTokenAccount(new Uint8Array(165))).toBeNull()
  })

  it('shows amounts as the RPC does', () => {
    expect(uiTokenAmount(0n, 6)).toEqual({ amount: '0', decimals: 6, uiAmount: 0, uiAmountString: '0' })
    expect(uiTokenAmount(2_500_000n, 6)).toEqual({ amount: '2500000', decimals: 6, uiAmount: 2.5, uiAmountString: '2.5' })
    expect(uiTokenAmount(7n, 0)).toEqual({ amount: '7', decimals: 0, uiAmount: 7, uiAmountString: '7' })
  })
})
