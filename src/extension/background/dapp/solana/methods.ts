/**
 * The Wallet Standard rows of the dApp router (router.ts looks here after DAPP_METHODS): what the
 * inpage wallet (provider/walletStandard.ts) sends for each feature. Closed like the EVM table:
 * params are zod schemas (strict objects, bounded base64 and base58), anything unlisted is 4200,
 * and the origin is the browser's. Rows marked `asks` hold one of the site's places in the approval
 * queue from arrival (router.ts). Rows marked `session` wait for a login when the session is
 * gone and the site is connected (dapp/sessionGate.ts). Bytes travel as base64 (runtime messages are JSON).
 */
import { z } from 'zod'
import { dappMethod } from '../../methods'
import { connectSolana, disconnectSolana, solanaAccountsFor } from './accounts'
import { solanaChains } from './chains'
import { signInSolana, SolanaSignInParams } from './signIn'
import { signAndSendSolanaTransaction, signSolanaMessage, signSolanaTransaction } from './signing'

const noParams = z.union([z.undefined(), z.tuple([])])
const base58Address = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
const base64 = (maxChars: number) =>
  z
    .string()
    .max(maxChars)
    .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/)
const chainId = z
  .string()
  .max(64)
  .regex(/^solana:[A-Za-z0-9-]{1,56}$/)
/** 1232 bytes, base64. */
const transaction = base64(1644)
/** 64 KiB, base64. */
const message = base64(87_384)

/** The Solana (Wallet Standard) method table. */
export const SOLANA_METHODS = {
  /** The chains offered and the accounts this origin may use now (no prompt): the wallet's state at page load. */
  sol_state: dappMethod({
    params: noParams,
    handler: async (_p, ctx) => ({
      result: { chains: (await solanaChains(ctx.core)).map((c) => c.id), accounts: await solanaAccountsFor(ctx) },
    }),
  }),
  sol_connect: dappMethod({
    asks: true,
    params: z.union([noParams, z.tuple([z.object({ silent: z.boolean().optional() }).strict()])]),
    handler: async (p, ctx) => {
      const r = await connectSolana(ctx, p?.[0]?.silent === true)
      return 'error' in r ? r : { result: r }
    },
  }),
  sol_disconnect: dappMethod({
    params: noParams,
    handler: async (_p, ctx) => {
      await disconnectSolana(ctx)
      return { result: null }
    },
  }),
  sol_signMessage: dappMethod({
    asks: true,
    session: 'solana',
    params: z.tuple([z.object({ address: base58Address, message }).strict()]),
    handler: ([input], ctx) => signSolanaMessage(input, ctx),
  }),
  /** `solana:signIn`: connects the site too when it is not connected yet (one approval). */
  sol_signIn: dappMethod({
    asks: true,
    session: 'solana',
    params: z.tuple([SolanaSignInParams]),
    handler: ([input], ctx) => signInSolana(input, ctx),
  }),
  sol_signTransaction: dappMethod({
    asks: true,
    session: 'solana',
    params: z.tuple([z.object({ address: base58Address, transaction, chain: chainId.optional() }).strict()]),
    handler: ([input], ctx) => signSolanaTransaction(input, ctx),
  }),
  sol_signAndSendTransaction: dappMethod({
    asks: true,
    session: 'solana',
    params: z.tuple([z.object({ address: base58Address, transaction, chain: chainId }).strict()]),
    handler: ([input], ctx) => signAndSendSolanaTransaction(input, ctx),
  }),
}
