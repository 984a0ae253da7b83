/**
 * The dev Solana runtime's SPL token: a mint at a fixed address (the public key of a keypair from
 * a fixed seed, as the EVM dev chain's Gas Station has a fixed address), 6 decimals, listed on the
 * dev Solana network as USDC "Dev USD Coin". Its mint authority is a dev key the faucet holds
 * (from another fixed seed: development only, like a dev chain's funded accounts). The mint is
 * made by real transactions (System CreateAccount, SPL Token InitializeMint2) when the runtime
 * starts without it, and kept with the runtime's state file.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { base58 } from '@scure/base'
import { DEV_SOLANA_MINT, DEV_SOLANA_MINT_DECIMALS } from '../../chains/networks.js'
import {
  associatedTokenAddress,
  compileLegacyMessage,
  createAccount,
  createAssociatedTokenIdempotent,
  initializeMint2,
  MINT_SIZE,
  mintTo,
  TOKEN_PROGRAM,
  transactionBytes,
} from '../../chains/splToken.js'

/** An ed25519 keypair: the 32-byte secret seed and its base58 address. */
export type DevKeypair = { secret: Uint8Array; address: string }

/** The keypair seeded by `label`; its address is computed on first use, not when the service loads. */
function keypair(label: string): DevKeypair {
  const secret = sha256(new TextEncoder().encode(label))
  let address: string | undefined
  return {
    secret,
    get address() {
      address ??= base58.encode(ed25519.getPublicKey(secret))
      return address
    },
  }
}

/** The dev mint's own keypair (signs its creation only). */
export const DEV_MINT_KEYPAIR = keypair('sigil solana dev mint v1')
/** The dev mint's authority, which the faucet holds; it also pays the faucet's fees and new token accounts' rent. */
export const DEV_MINT_AUTHORITY = keypair('sigil solana dev mint authority v1')

/** SOL the mint authority is given when the mint is made (fees and token-account rent of faucet mints). */
const AUTHORITY_LAMPORTS = 1_000_000_000_000n

/** What {@link ensureDevMint} needs of the runtime. */
export type DevMintHost = {
  account(address: string): unknown
  balance(address: string): bigint
  airdrop(address: string, lamports: bigint): string
  latestBlockhash(): string
  rentExemptMinimum(space: number): bigint
  /** Processes a signed wire transaction; `err` null when it succeeded. */
  submit(wire: Uint8Array): { err: unknown }
}

/** Signs `message` with `signers` (in the message's signer order). */
export function signMessage(message: Uint8Array, signers: DevKeypair[]): Uint8Array {
  return transactionBytes(
    message,
    signers.map((s) => ed25519.sign(message, s.secret)),
  )
}

/**
 * Makes the dev mint when the runtime has none at {@link DEV_SOLANA_MINT} (funding its authority
 * first); does nothing when it exists. Returns whether it made it. Throws when the transaction fails.
 */
export function ensureDevMint(host: DevMintHost): boolean {
  if (DEV_MINT_KEYPAIR.address !== DEV_SOLANA_MINT) throw new Error('the dev mint seed does not give DEV_SOLANA_MINT')
  if (host.account(DEV_SOLANA_MINT)) return false
  if (host.balance(DEV_MINT_AUTHORITY.address) < AUTHORITY_LAMPORTS / 2n) host.airdrop(DEV_MINT_AUTHORITY.address, AUTHORITY_LAMPORTS)
  const message = compileLegacyMessage(
    DEV_MINT_AUTHORITY.address,
    [
      createAccount({
        from: DEV_MINT_AUTHORITY.address,
        account: DEV_SOLANA_MINT,
        lamports: host.rentExemptMinimum(MINT_SIZE),
        space: MINT_SIZE,
        owner: TOKEN_PROGRAM,
      }),
      initializeMint2({ mint: DEV_SOLANA_MINT, decimals: DEV_SOLANA_MINT_DECIMALS, mintAuthority: DEV_MINT_AUTHORITY.address }),
    ],
    host.latestBlockhash(),
  )
  const { err } = host.submit(signMessage(message, [DEV_MINT_AUTHORITY, DEV_MINT_KEYPAIR]))
  if (err !== null) throw new Error(`the dev mint was not created: ${JSON.stringify(err)}`)
  return true
}

/**
 * The faucet's dev-token mint as a signed transaction: `owner`'s associated token account created
 * when missing (rent paid by the mint authority), then `amount` base units minted into it.
 */
export function devTokenMintTransaction(owner: string, amount: bigint, blockhash: string): Uint8Array {
  const message = compileLegacyMessage(
    DEV_MINT_AUTHORITY.address,
    [
      createAssociatedTokenIdempotent({ payer: DEV_MINT_AUTHORITY.address, owner, mint: DEV_SOLANA_MINT }),
      mintTo({
        mint: DEV_SOLANA_MINT,
        destination: associatedTokenAddress(owner, DEV_SOLANA_MINT),
        authority: DEV_MINT_AUTHORITY.address,
        amount,
      }),
    ],
    blockhash,
  )
  return signMessage(message, [DEV_MINT_AUTHORITY])
}

/** A token amount as Solana's RPC shows it: base units, decimals, the float and the exact decimal text. */
export function uiTokenAmount(amount: bigint, decimals: number) {
  const digits = amount.toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  const uiAmountString = fraction ? `${whole}.${fraction}` : whole
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString }
}
