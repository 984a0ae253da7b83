/**
 * create_sub_organization over loopback: 8 clients for ~5 s, each request a new
 * sub-organization with one root user (an API key) and an Ethereum wallet of one account — the
 * sign-up path. With `SIGIL_BENCH_PROFILE=<dir>` the service process writes a CPU profile there
 * (`npx tsx bench/profileBreakdown.ts <dir>/*.cpuprofile`). Run: `npx tsx bench/service-suborg.ts`.
 */
import { bytesToHex } from '../src/crypto/encoding.js'
import { generateP256KeyPair } from '../src/crypto/p256.js'
import { type LoadResult, formatLoadTable, runLoad } from './load.js'
import { startBenchService } from './serviceProcess.js'

export async function benchServiceSubOrg(
  opts: { durationMs?: number; clients?: number; databaseUrl?: string } = {},
): Promise<LoadResult[]> {
  const svc = await startBenchService(opts.databaseUrl)
  try {
    const org = svc.admin.organizationId as string
    const body = (n: number) => ({
      type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: {
        subOrganizationName: `bench ${n} ${Date.now()}`,
        rootUsers: [
          {
            userName: `user ${n}`,
            userEmail: `user${n}.${Date.now()}@bench.test`,
            apiKeys: [{ apiKeyName: 'k', publicKey: bytesToHex(generateP256KeyPair().publicKey), curveType: 'API_KEY_CURVE_P256' }],
            authenticators: [],
            oauthProviders: [],
          },
        ],
        rootQuorumThreshold: 1,
        wallet: {
          walletName: 'w',
          accounts: [
            {
              curve: 'CURVE_SECP256K1',
              pathFormat: 'PATH_FORMAT_BIP32',
              path: "m/44'/60'/0'/0/0",
              addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
            },
          ],
        },
      },
    })
    const submit = async (n: number) => (await svc.post('/public/v1/submit/create_sub_organization', body(n))).status === 200
    for (let i = 0; i < 10; i++) await submit(-1 - i)
    return [await runLoad('create_sub_organization', opts.clients ?? 8, opts.durationMs ?? 5000, submit)]
  } finally {
    await svc.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatLoadTable(await benchServiceSubOrg()))
}
