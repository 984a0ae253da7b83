import { bytesToHex } from '../src/crypto/encoding.js'
import { createP256WebCryptoKeyPair, createWebCryptoStamper } from '../src/crypto/stamp.js'
import { type LoadResult, runLoad } from './load.js'
import { treeCpuSeconds, freshDatabase, postJson, startBenchService } from './serviceProcess.js'

type Stamper = ReturnType<typeof createWebCryptoStamper>

/** Policy `i` of the 99 that do not allow the bench's activity: the docs' kinds (type, params, tags, consensus). */
function otherPolicy(i: number, address: string) {
  switch (i % 4) {
    case 0:
      return {
        effect: 'EFFECT_ALLOW',
        condition: `activity.type == 'ACTIVITY_TYPE_CREATE_WALLET' && activity.params.wallet_id == 'w-${i}'`,
        consensus: `approvers.any(user, user.id == 'user-${i}')`,
      }
    case 1:
      return {
        effect: 'EFFECT_DENY',
        condition: `activity.action == 'EXPORT' && activity.params.wallet_id == 'wallet-${i}'`,
        consensus: '',
      }
    case 2:
      return {
        effect: 'EFFECT_ALLOW',
        condition: `activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN' && activity.params.sign_with == '${address.slice(0, -4)}${String(i).padStart(4, '0')}'`,
        consensus: `approvers.filter(user, user.id in ['user-${i}', 'user-b', 'user-c']).count() >= 2`,
      }
    default:
      return {
        effect: 'EFFECT_DENY',
        condition: `activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2' && activity.params.sign_with[0..6] == '0xdead' && activity.params.encoding == 'E${i}'`,
        consensus: `approvers.any(user, user.tags.contains('tag-${i}'))`,
      }
  }
}

function signBody(organizationId: string, signWith: string): string {
  return JSON.stringify({
    parameters: {
      signWith,
      payload: bytesToHex(crypto.getRandomValues(new Uint8Array(32))),
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    },
    organizationId,
    timestampMs: String(Date.now()),
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
  })
}

/** A load result, and the service process's CPU time per request (steadier than req/s on a busy machine). */
export type PolicySubmitRow = LoadResult & { policies: number; user: 'root' | 'non-root'; cpuMsPerRequest: number }

/** Measures the rows; `durationMs` per phase and round (default 2000), `rounds` (default 5). */
export async function benchPolicySubmit(
  opts: {
    durationMs?: number
    rounds?: number
    clients?: number
    databaseUrl?: string
    only?: (p: { policies: number; user: string }) => boolean
  } = {},
): Promise<PolicySubmitRow[]> {
  const durationMs = opts.durationMs ?? 2000
  const rounds = opts.rounds ?? 5
  const clients = opts.clients ?? 8
  const svc = await startBenchService(opts.databaseUrl ? await freshDatabase(opts.databaseUrl) : undefined)
  try {
    const org = svc.admin.organizationId as string
    const postAs = async (stamper: Stamper, path: string, text: string) => {
      const s = await stamper.stamp(text)
      const res = await postJson(`${svc.url}${path}`, text, { [s.stampHeaderName]: s.stampHeaderValue })
      return { status: res.status, json: JSON.parse(res.body) as any }
    }
    const admin = async (path: string, type: string, parameters: unknown) => {
      const r = await svc.post(path, { type, timestampMs: String(Date.now()), organizationId: org, parameters })
      if (r.status !== 200 || r.json.activity.status !== 'ACTIVITY_STATUS_COMPLETED')
        throw new Error(`${path}: ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`)
      return r.json.activity.result
    }
    const wallet = await admin('/public/v1/submit/create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', {
      walletName: 'bench',
      accounts: [
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
      ],
    })
    const address = wallet.createWalletResult.addresses[0] as string
    const kp = await createP256WebCryptoKeyPair()
    const bob = createWebCryptoStamper({ privateKey: kp.keyPair.privateKey, publicKeyHex: kp.publicKeyHex })
    const users = await admin('/public/v1/submit/create_users', 'ACTIVITY_TYPE_CREATE_USERS_V3', {
      users: [
        {
          userName: 'bob',
          apiKeys: [{ apiKeyName: 'bob', publicKey: kp.publicKeyHex, curveType: 'API_KEY_CURVE_P256' }],
          authenticators: [],
          oauthProviders: [],
          userTags: [],
        },
      ],
    })
    const bobId = users.createUsersResult.userIds[0] as string

    const created: string[] = []
    const createPolicy = async (p: { effect: string; condition: string; consensus: string }, name: string) => {
      const r = await admin('/public/v1/submit/create_policy', 'ACTIVITY_TYPE_CREATE_POLICY_V3', { policyName: name, notes: '', ...p })
      created.push(r.createPolicyResult.policyId)
    }
    const setPolicies = async (n: number) => {
      while (created.length > 0) {
        const id = created.pop() as string
        await admin('/public/v1/submit/delete_policy', 'ACTIVITY_TYPE_DELETE_POLICY', { policyId: id })
      }
      for (let i = 0; i < n - 1; i++) await createPolicy(otherPolicy(i, address), `other ${i}`)
      if (n > 0)
        await createPolicy(
          {
            effect: 'EFFECT_ALLOW',
            condition: `activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN' && activity.params.sign_with == '${address}'`,
            consensus: `approvers.any(user, user.id == '${bobId}')`,
          },
          'bob signs with the bench wallet',
        )
    }
    const submitAs = (stamper: Stamper) => async () => {
      const r = await postAs(stamper, '/public/v1/submit/sign_raw_payload', signBody(org, address))
      return r.status === 200 && r.json.activity.status === 'ACTIVITY_STATUS_COMPLETED'
    }
    const phases: Array<{ policies: number; user: 'root' | 'non-root'; stamper: Stamper }> = [
      { policies: 0, user: 'root' as const, stamper: svc.stamper },
      { policies: 1, user: 'non-root' as const, stamper: bob },
      { policies: 100, user: 'non-root' as const, stamper: bob },
      { policies: 100, user: 'root' as const, stamper: svc.stamper },
    ].filter((p) => opts.only?.(p) ?? true)
    // Warm the service's JIT on both paths before the first measured phase.
    await runLoad('warm-up', clients, durationMs, submitAs(svc.stamper))
    const best = new Map<number, PolicySubmitRow>()
    for (let round = 0; round < rounds; round++) {
      // Each round starts one phase later, so no row always runs on the largest tables or the warmest JIT.
      for (let k = 0; k < phases.length; k++) {
        const i = (k + round) % phases.length
        const ph = phases[i] as (typeof phases)[number]
        if (created.length !== ph.policies) await setPolicies(ph.policies)
        const submit = submitAs(ph.stamper)
        for (let w = 0; w < 30; w++)
          if (!(await submit())) throw new Error(`warm-up of ${ph.user} with ${ph.policies} policies did not complete`)
        const cpu0 = treeCpuSeconds(svc.pid)
        const r = await runLoad(`sign_raw_payload, ${ph.user}, ${ph.policies} policies`, clients, durationMs, submit)
        const cpuMsPerRequest = ((treeCpuSeconds(svc.pid) - cpu0) * 1000) / r.requests
        const prev = best.get(i)
        best.set(i, {
          ...(prev && prev.throughput > r.throughput ? prev : r),
          policies: ph.policies,
          user: ph.user,
          cpuMsPerRequest: Math.min(prev?.cpuMsPerRequest ?? Number.POSITIVE_INFINITY, cpuMsPerRequest),
        })
      }
    }
    return phases.map((_, i) => best.get(i) as PolicySubmitRow)
  } finally {
    await svc.stop()
  }
}

/** The table and the ratios against the root user's signing without policies. */
export function formatPolicySubmit(rows: PolicySubmitRow[]): string {
  const w = Math.max(...rows.map((r) => r.name.length))
  const base = rows.find((r) => r.user === 'root' && r.policies === 0)?.throughput ?? Number.NaN
  const baseCpu = rows.find((r) => r.user === 'root' && r.policies === 0)?.cpuMsPerRequest ?? Number.NaN
  const head = `${'name'.padEnd(w)}  clients  requests  errors     req/s   p50 ms   p99 ms   req/s vs root, none   CPU ms/req   CPU vs root, none`
  return [
    head,
    '-'.repeat(head.length),
    ...rows.map((r) => {
      const pct = ((r.throughput / base - 1) * 100).toFixed(1)
      const cpuPct = ((r.cpuMsPerRequest / baseCpu - 1) * 100).toFixed(1)
      return `${r.name.padEnd(w)}  ${String(r.clients).padStart(7)}  ${String(r.requests).padStart(8)}  ${String(r.errors).padStart(6)}  ${r.throughput.toFixed(0).padStart(8)}  ${r.p50Ms.toFixed(2).padStart(7)}  ${r.p99Ms.toFixed(2).padStart(7)}  ${`${pct}%`.padStart(20)}  ${r.cpuMsPerRequest.toFixed(2).padStart(11)}  ${`+${cpuPct}%`.replace('+-', '-').padStart(18)}`
    }),
    "(target: non-root with 100 policies at most 10% slower than the root user without policies; CPU ms/req is the service process's own time)",
  ].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const databaseUrl = process.env.DATABASE_URL
  console.log(formatPolicySubmit(await benchPolicySubmit(databaseUrl ? { databaseUrl } : {})))
}
