/** get_organization (hosted OpenAPI v1GetOrganizationRequest / v1GetOrganizationResponse). */
import { z } from 'zod'
import { OrganizationScoped, Policy, PrivateKey, Tag, User, Wallet } from '../common.js'
import { defineQuery } from '../operation.js'
import { Invitation } from './create_invitations.js'

/** Everything of an organization at once: users, policies, private keys, invitations, tags, root quorum, features, wallets. */
export const getOrganization = defineQuery({
  name: 'get_organization',
  path: '/public/v1/query/get_organization',
  request: OrganizationScoped,
  response: z.object({
    organizationData: z.object({
      organizationId: z.string(),
      name: z.string(),
      users: z.array(User),
      policies: z.array(Policy),
      privateKeys: z.array(PrivateKey),
      invitations: z.array(Invitation),
      tags: z.array(Tag),
      rootQuorum: z.object({ threshold: z.number(), userIds: z.array(z.string()) }),
      features: z.array(z.object({ name: z.string(), value: z.string() })),
      wallets: z.array(Wallet),
      smartContractInterfaceReferences: z.array(
        z.object({ smartContractInterfaceId: z.string(), smartContractAddress: z.string(), digest: z.string() }),
      ),
    }),
  }),
})
