import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8Encode } from '../../crypto/encoding.js'
import { invitationToWire, listInvitations } from '../store/invitations.js'
import { getOrganization, getQuorum, listFeatures } from '../store/organizations.js'
import { listPolicies, policyToWire } from '../store/policies.js'
import { listPrivateKeys, privateKeyToWire } from '../store/privateKeys.js'
import { listSmartContractInterfaces } from '../store/smartContractInterfaces.js'
import { listTags, tagToWire } from '../store/tags.js'
import { listUsers, userToWire } from '../store/users.js'
import { listWallets, walletToWire } from '../store/wallets.js'
import type { QueryHandler } from './types.js'

/**
 * get_organization: `{organizationId}` → `{organizationData}` — the organization's users (with
 * credentials), policies, private keys, tags (user and private-key), root quorum, features,
 * wallets, smart contract interface references (digest: SHA-256 of the interface JSON)
 * and invitations (every status).
 */
export const handler: QueryHandler = async ({ sql, organizationId }) => {
  const org = await getOrganization(sql, organizationId)
  const users = []
  for (const u of await listUsers(sql, organizationId)) users.push(await userToWire(sql, u))
  const tags = [...(await listTags(sql, organizationId, 'TAG_TYPE_USER')), ...(await listTags(sql, organizationId, 'TAG_TYPE_PRIVATE_KEY'))]
  const interfaces = await listSmartContractInterfaces(sql, organizationId)
  return {
    organizationData: {
      organizationId,
      name: org?.name ?? '',
      users,
      policies: (await listPolicies(sql, organizationId)).map(policyToWire),
      privateKeys: (await listPrivateKeys(sql, organizationId)).map(privateKeyToWire),
      invitations: (await listInvitations(sql, organizationId)).map(invitationToWire),
      tags: tags.sort((a, b) => Number(a.seq) - Number(b.seq)).map(tagToWire),
      rootQuorum: await getQuorum(sql, organizationId),
      features: await listFeatures(sql, organizationId),
      wallets: (await listWallets(sql, organizationId)).map(walletToWire),
      smartContractInterfaceReferences: interfaces.map((i) => ({
        smartContractInterfaceId: i.id,
        smartContractAddress: i.address,
        digest: bytesToHex(sha256(utf8Encode(i.interface_json))),
      })),
    },
  }
}
