/**
 * Evaluation records in both stored forms (migration 012): rows of policy_evaluations written before
 * it keep their JSON array; an evaluation now lives on its vote, naming its policy set and giving one
 * outcome letter per policy, in the set's order. Both are served together, oldest first.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertActivity, insertVote } from '../../src/service/store/activities.js'
import { migrate } from '../../src/service/store/migrate.js'
import { openPglite } from '../../src/service/store/pglite.js'
import {
  hasPolicyEvaluations,
  insertPolicySet,
  listPolicyEvaluations,
  OUTCOME_LETTERS,
  setVoteEvaluation,
} from '../../src/service/store/policies.js'
import type { Database } from '../../src/service/store/sql.js'

const dir = mkdtempSync(join(tmpdir(), 'sigil-evaluations-'))
let db: Database

const vote = (id: string, userId: string, createdAt: number) => ({
  id,
  activity_id: 'act',
  user_id: userId,
  selection: 'VOTE_SELECTION_APPROVED' as const,
  message: '{}',
  public_key: '02ab',
  signature: '30',
  scheme: 'SIGNATURE_SCHEME_TK_API_P256',
  created_at: createdAt,
})

beforeAll(async () => {
  db = await openPglite(dir)
  await migrate(db)
  await db.query(`INSERT INTO organizations (id, name, created_at, updated_at) VALUES ('org', 'o', 1, 1)`)
  await insertActivity(
    db,
    {
      id: 'act',
      organization_id: 'org',
      quorum_org_id: 'org',
      submitter_user_id: 'u1',
      submitter_org_id: 'org',
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      status: 'ACTIVITY_STATUS_CONSENSUS_NEEDED',
      intent_key: 'signRawPayloadIntentV2',
      intent: {},
      result_key: 'signRawPayloadResult',
      result: null,
      failure: null,
      app_proofs: [],
      generate_app_proofs: false,
      fingerprint: 'fp',
      body: '{}',
      timestamp_ms: '1',
      created_at: 1,
      updated_at: 1,
    },
    vote('v1', 'u1', 5),
  )
})
afterAll(async () => {
  await db?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('policy evaluation records', () => {
  it('serves a record of the array form and one on a vote, oldest first', async () => {
    expect(await hasPolicyEvaluations(db, 'act')).toBe(false)
    await db.query(
      `INSERT INTO policy_evaluations (id, activity_id, organization_id, vote_id, evaluations, created_at)
       VALUES ('old', 'act', 'org', 'v1', $1, 5)`,
      [JSON.stringify([{ policyId: 'p1', outcome: 'OUTCOME_DENY_IMPLICIT' }])],
    )
    expect(await hasPolicyEvaluations(db, 'act')).toBe(true)
    await insertPolicySet(db, { version: 'ver', orgId: 'org', policyIds: ['p1', 'p2', 'p3'], now: 6 })
    // A second write of the same version keeps the first.
    await insertPolicySet(db, { version: 'ver', orgId: 'org', policyIds: ['other'], now: 7 })
    await insertVote(db, vote('v2', 'u2', 8))
    const { OUTCOME_ALLOW: a, OUTCOME_REQUIRES_CONSENSUS: c, OUTCOME_TIME_INACTIVE: t } = OUTCOME_LETTERS
    await setVoteEvaluation(db, 'v2', { evaluation_id: 'new', policy_set: 'ver', outcomes: `${a}${c}${t}` })
    expect(await listPolicyEvaluations(db, 'act')).toEqual([
      {
        id: 'old',
        activity_id: 'act',
        organization_id: 'org',
        vote_id: 'v1',
        created_at: 5,
        evaluations: [{ policyId: 'p1', outcome: 'OUTCOME_DENY_IMPLICIT' }],
      },
      {
        id: 'new',
        activity_id: 'act',
        organization_id: 'org',
        vote_id: 'v2',
        created_at: 8,
        evaluations: [
          { policyId: 'p1', outcome: 'OUTCOME_ALLOW' },
          { policyId: 'p2', outcome: 'OUTCOME_REQUIRES_CONSENSUS' },
          { policyId: 'p3', outcome: 'OUTCOME_TIME_INACTIVE' },
        ],
      },
    ])
    expect(await hasPolicyEvaluations(db, 'none')).toBe(false)
  })

  it('gives every outcome its own letter', () => {
    const letters = Object.values(OUTCOME_LETTERS)
    expect(new Set(letters).size).toBe(letters.length)
    expect(letters.every((l) => l.length === 1)).toBe(true)
  })

  it('refuses a vote with half an evaluation', async () => {
    await expect(db.query(`UPDATE votes SET outcomes = 'A' WHERE id = 'v1'`)).rejects.toThrow(/votes_evaluation/)
  })
})
