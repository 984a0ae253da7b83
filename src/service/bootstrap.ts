import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { p256 } from '@noble/curves/nist.js'
import { z } from 'zod'
import { bytesToHex } from '../crypto/encoding.js'
import type { Database } from './store/sql.js'
import { getQuorum, getRootOrganization, insertOrganization, setQuorum } from './store/organizations.js'
import { advisoryTransactionLock } from './store/transactions.js'
import { apiKeyExists, insertApiKey, insertUser } from './store/users.js'

/** `$SIGIL_DATA_DIR/admin-api-key.json` (wire-formats A6). */
export const AdminKeyFile = z.object({
  organizationId: z.string(),
  userId: z.string(),
  apiKeyId: z.string(),
  publicKey: z.string(),
  privateKey: z.string(),
})
export type AdminKeyFile = z.infer<typeof AdminKeyFile>

const BOOTSTRAP_LOCK = 7_146_114

export function adminKeyPath(dataDir: string): string {
  return join(dataDir, 'admin-api-key.json')
}

/**
 * First start: the root organization, its root user (sole quorum member) and an admin
 * P-256 API key written to the data dir (mode 0600). Later starts reuse them; when this
 * data dir has no usable key file, a new admin key is added to the root user.
 */
export async function bootstrap(db: Database, dataDir: string, now: number): Promise<AdminKeyFile> {
  mkdirSync(dataDir, { recursive: true })
  const file = adminKeyPath(dataDir)
  const existing = readKeyFile(file)
  const admin = await db.transaction(async (tx) => {
    if (db.kind === 'postgres') await advisoryTransactionLock(tx, BOOTSTRAP_LOCK)
    let root = await getRootOrganization(tx)
    let rootUserId: string
    if (!root) {
      const orgId = crypto.randomUUID()
      rootUserId = crypto.randomUUID()
      await insertOrganization(tx, { id: orgId, name: 'Sigil Root Organization', parentId: null, isRoot: true, quorumThreshold: 1, now })
      await insertUser(tx, { id: rootUserId, orgId, userName: 'root-admin', now })
      await setQuorum(tx, orgId, 1, [rootUserId], now)
      root = (await getRootOrganization(tx))!
    } else {
      const quorum = await getQuorum(tx, root.id)
      rootUserId = quorum.userIds[0]!
      if (existing && existing.organizationId === root.id) {
        if (await apiKeyExists(tx, { id: existing.apiKeyId, publicKey: existing.publicKey, orgId: root.id })) return existing
      }
    }
    const privateKey = p256.utils.randomSecretKey()
    const publicKey = bytesToHex(p256.getPublicKey(privateKey, true))
    const apiKeyId = crypto.randomUUID()
    await insertApiKey(tx, {
      id: apiKeyId,
      orgId: root.id,
      userId: rootUserId,
      name: 'admin',
      publicKey,
      curveType: 'API_KEY_CURVE_P256',
      credentialType: 'CREDENTIAL_TYPE_API_KEY_P256',
      now,
    })
    return { organizationId: root.id, userId: rootUserId, apiKeyId, publicKey, privateKey: bytesToHex(privateKey) }
  })
  if (admin !== existing) {
    writeFileSync(file, `${JSON.stringify(admin, null, 2)}\n`, { mode: 0o600 })
    chmodSync(file, 0o600)
  }
  return admin
}

function readKeyFile(file: string): AdminKeyFile | undefined {
  if (!existsSync(file)) return undefined
  try {
    return AdminKeyFile.parse(JSON.parse(readFileSync(file, 'utf8')))
  } catch {
    return undefined
  }
}
