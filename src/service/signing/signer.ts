/**
 * The key a signing activity names (`signWith`, or `privateKeyId` in the V1 intents): a wallet
 * account by address, or a private key by id or by one of its addresses. Disabled private keys sign
 * nothing. The key bytes are opened only by `open()`, and the caller wipes them.
 */
import { fieldError } from '../../api/errors.js'
import type { Curve } from '../../chains/types.js'
import type { Runtime } from '../runtime.js'
import { findPrivateKeyByAddress, getPrivateKey, type PrivateKeyWithAddresses, privateKeyPurpose } from '../store/privateKeys.js'
import type { Sql } from '../store/sql.js'
import { findAccountByAddress, getWalletAccountById, type WalletAccountRow } from '../store/wallets.js'
import { openAccountKey } from './walletLookup.js'

export type Signer =
  | { kind: 'walletAccount'; curve: Curve; publicKey: string; account: WalletAccountRow }
  | { kind: 'privateKey'; curve: Curve; publicKey: string; privateKey: PrivateKeyWithAddresses }

/**
 * @throws NOT_FOUND naming `field` when nothing of the organization answers to `signWith`
 * @throws FAILED_PRECONDITION naming `field` when it is a disabled private key
 */
export async function requireSigner(sql: Sql, orgId: string, signWith: string, field: string): Promise<Signer> {
  const account = await findAccountByAddress(sql, orgId, signWith)
  if (account) return { kind: 'walletAccount', curve: account.curve as Curve, publicKey: account.public_key, account }
  const key = (await getPrivateKey(sql, orgId, signWith)) ?? (await findPrivateKeyByAddress(sql, orgId, signWith))
  if (!key) throw fieldError('NOT_FOUND', field, 'no wallet account or private key with this address or id in the organization')
  if (key.disabled) throw fieldError('FAILED_PRECONDITION', field, `private key ${key.id} is disabled and signs nothing`)
  return { kind: 'privateKey', curve: key.curve as Curve, publicKey: key.public_key, privateKey: key }
}

/**
 * The organization's wallet account `accountId` as a signer, or undefined when it no longer exists:
 * the send tracker signs with the accounts a committed send recorded.
 */
export async function accountSigner(
  sql: Sql,
  orgId: string,
  accountId: string,
): Promise<Extract<Signer, { kind: 'walletAccount' }> | undefined> {
  const account = await getWalletAccountById(sql, orgId, accountId)
  return account && { kind: 'walletAccount', curve: account.curve as Curve, publicKey: account.public_key, account }
}

/** The signer's private key, opened for this request only: the caller wipes it. */
export function openSignerKey(rt: Pick<Runtime, 'secrets'>, signer: Signer): Uint8Array {
  return signer.kind === 'walletAccount'
    ? openAccountKey(rt, signer.account)
    : rt.secrets.open(signer.privateKey.private_key_enc, privateKeyPurpose(signer.privateKey.id))
}
