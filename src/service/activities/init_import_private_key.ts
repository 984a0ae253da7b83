import type { z } from 'zod'
import type { initImportPrivateKey } from '../../api/operations/init_import_private_key.js'
import { handler as initImportWallet } from './init_import_wallet.js'
import type { ActivityHandler } from './types.js'

/**
 * init_import_private_key (wire-formats B2 import bundles): as init_import_wallet — a fresh P-256
 * import key for the user in a signed target bundle. The user has one pending import key: a later
 * init (of a wallet or a private key) replaces it.
 *
 * @throws NOT_FOUND when parameters.userId names no user of the organization
 */
export const handler: ActivityHandler<z.infer<typeof initImportPrivateKey.parameters>> = (ctx, p) => initImportWallet(ctx, p)
