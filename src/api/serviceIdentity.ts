/**
 * A service's identity, pinned so a relay or service in the middle cannot pass as it. The
 * extension pins one key of the service: its **identity key**, the key that signs OTP encryption
 * target bundles and verification tokens (the hosted service's TLS-fetcher key; Sigil's `verifier` key).
 *
 * A Sigil service publishes, unauthenticated, at {@link SERVICE_IDENTITY_PATH}, a statement
 * signed by that key: which origins it answers at and its other public keys (the signer of
 * export and import bundles, the notarizer of session JWTs). The signed origin list binds the
 * key to the URL, so a proxy at another URL cannot pass the real service's document off as
 * its own. The relay republishes its upstream's document at {@link RELAY_IDENTITY_PATH}.
 *
 * The hosted service publishes no such document: its keys are constants of its official
 * clients (`@turnkey/crypto` constants.js), reached over HTTPS only ({@link HOSTED_SERVICE}).
 */
import { z } from 'zod'

/** Where a Sigil service serves its signed identity (GET, no credentials, any origin). */
export const SERVICE_IDENTITY_PATH = '/.well-known/sigil-service'

/** Where the relay republishes its upstream service's identity (GET, relative to the relay base). */
export const RELAY_IDENTITY_PATH = '/v1/service_identity'

/** Uncompressed SEC1 P-256 public key: 130 lower-case hex characters starting 04. */
export const P256PublicKeyHex = z
  .string()
  .regex(/^04[0-9a-f]{128}$/, { error: 'must be an uncompressed P-256 public key (130 lower-case hex characters, 04…)' })

/** The service's public keys by role. */
export const ServiceKeys = z.object({
  /** Signs OTP encryption target bundles and verification tokens: the pinned identity key. */
  identity: P256PublicKeyHex,
  /** Signs export and import bundles (`enclaveQuorumPublic`). */
  signer: P256PublicKeyHex,
  /** Signs session JWTs. */
  notarizer: P256PublicKeyHex,
})
export type ServiceKeys = z.infer<typeof ServiceKeys>

/** A network the service works with (src/chains/networks.ts), as wallets see it. */
export const NetworkInfo = z.object({
  /** CAIP-2 id: `eip155:<chainId>` or `solana:<genesis hash prefix>`. */
  caip2: z.string().max(128),
  family: z.enum(['evm', 'solana']),
  name: z.string().max(128),
  /** JSON-RPC endpoint for read-only calls (published: configure public endpoints). */
  rpcUrl: z.string().max(2048),
  nativeSymbol: z.string().max(16),
  nativeDecimals: z.number().int().min(0).max(36),
  /** A development chain: the dev faucet may fund addresses on it. */
  dev: z.boolean(),
  /** EVM: the service's Gas Station (EIP-7702 batch executor) on this network, lowercase; absent when it has none. */
  gasStation: z
    .string()
    .regex(/^0x[0-9a-f]{40}$/)
    .optional(),
  /** The network's block explorer: a transaction's page is this with `{tx}` replaced, else `<explorerUrl>/tx/<hash or signature>`; absent: none configured. */
  explorerUrl: z
    .string()
    .max(2048)
    .regex(/^https?:\/\/[^\s]+$/)
    .optional(),
  tokens: z
    .array(
      z.object({
        address: z.string().max(64),
        symbol: z.string().max(32),
        decimals: z.number().int().min(0).max(36),
        name: z.string().max(128),
        stable: z.boolean(),
      }),
    )
    .max(256),
})
export type NetworkInfo = z.infer<typeof NetworkInfo>

/** The signed statement (inside {@link ServiceIdentityDocument}.statement, as JSON text). */
export const ServiceIdentityStatement = z.object({
  v: z.literal(1),
  kind: z.literal('sigil-service-identity'),
  /** Origins (`scheme://host[:port]`) the service answers at; the client's URL must be one of them. */
  origins: z.array(z.string().max(2048)).min(1).max(32),
  keys: ServiceKeys,
  /** The networks the service signs and sends on (signed, so no one on the way can add an RPC). */
  networks: z.array(NetworkInfo).max(64).default([]),
  /** Milliseconds since the epoch. */
  issuedAt: z.number().int().nonnegative(),
})
export type ServiceIdentityStatement = z.infer<typeof ServiceIdentityStatement>

/** The published document: the statement's exact bytes and the identity key's signature over them. */
export const ServiceIdentityDocument = z.object({
  statement: z.string().min(2).max(16_384),
  /** The identity key (must equal `keys.identity` of the statement). */
  publicKey: P256PublicKeyHex,
  /** ECDSA P-256 / SHA-256 over the UTF-8 statement, DER, hex. */
  signature: z.string().regex(/^[0-9a-f]{16,160}$/, { error: 'must be a hex DER signature' }),
})
export type ServiceIdentityDocument = z.infer<typeof ServiceIdentityDocument>

/** The hosted service: keys from `@turnkey/crypto` dist/constants.js (PRODUCTION_*_SIGN_PUBLIC_KEY). */
export const HOSTED_SERVICE = {
  origin: 'https://api.turnkey.com',
  relayOrigin: 'https://authproxy.turnkey.com',
  keys: {
    identity:
      '046b4f88421f76b6ba418afc2ea1d8ced671337d7db6b80478a60d8531bf8f17fa9a512f0fef96fc0c9b4cd9dff70b34992e520ce04c79d931f6ff6296b547d201',
    signer:
      '04cf288fe433cc4e1aa0ce1632feac4ea26bf2f5a09dcfe5a42c398e06898710330f0572882f4dbdf0f5304b8fc8703acd69adca9a4bbf7f5d00d20a5e364b2569',
    notarizer:
      '04d498aa87ac3bf982ac2b5dd9604d0074905cfbda5d62727c5a237b895e6749205e9f7cd566909c4387f6ca25c308445c60884b788560b785f4a96ac33702a469',
  },
} as const satisfies { origin: string; relayOrigin: string; keys: ServiceKeys }

/**
 * Identity key of the development service that `npm start` runs (its private key is the
 * well-known development key in src/service/devIdentity.ts, like a dev chain's funded
 * accounts: never for real use). Development builds of the extension pin it by default.
 */
export const DEV_SERVICE_IDENTITY_KEY =
  '044526ea21788d3eb196946a89c7bb67bee9aa90d0310505da6aaab94a5ed198edc76d741772723ecf9aea91e80cbf2118ec688429ed7819a02afe7530a385cd73'
