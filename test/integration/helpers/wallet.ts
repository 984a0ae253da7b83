import { recoverAddress } from 'viem'
import { submitBody } from './service.js'

type Post = (path: string, body: unknown) => Promise<{ status: number; json: any }>

/** Creates a wallet with one Ethereum account; returns the raw response and, on success, its address. */
export async function createEthWallet(post: Post, organizationId: string, walletName: string) {
  const r = await post(
    '/public/v1/submit/create_wallet',
    submitBody('ACTIVITY_TYPE_CREATE_WALLET', organizationId, {
      walletName,
      accounts: [
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
      ],
    }),
  )
  const result = r.json?.activity?.result?.createWalletResult as { walletId: string; addresses: string[] } | undefined
  return { ...r, walletId: result?.walletId, address: result?.addresses[0] }
}

/** Signs a 32-byte digest with `address` (sign_raw_payload, no hashing); returns the raw response and the recovered signer. */
export async function signDigest(post: Post, organizationId: string, address: string, digestHex: string) {
  const r = await post(
    '/public/v1/submit/sign_raw_payload',
    submitBody('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', organizationId, {
      signWith: address,
      payload: digestHex,
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    }),
  )
  const sig = r.json?.activity?.result?.signRawPayloadResult as { r: string; s: string; v: string } | undefined
  const signer = sig
    ? await recoverAddress({ hash: `0x${digestHex}`, signature: { r: `0x${sig.r}`, s: `0x${sig.s}`, yParity: Number.parseInt(sig.v, 16) } })
    : undefined
  return { ...r, signer }
}

/** The names of the wallets of an organization. */
export async function walletNames(post: Post, organizationId: string): Promise<string[]> {
  const r = await post('/public/v1/query/list_wallets', { organizationId })
  return (r.json.wallets as Array<{ walletName: string }>).map((w) => w.walletName).sort()
}
