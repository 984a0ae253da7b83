/**
 * The send tracker: after an activity commits its send record (its after-commit hook kicks the
 * tracker; a poll finds sends a crashed or other instance left), this worker builds and
 * signs the transaction, stores the signed bytes and hash (BROADCASTING) before broadcasting
 * anything, broadcasts, and follows the send to INCLUDED or FAILED, storing where it landed (block,
 * block hash and time, fee; for the transaction history) when it lands on chain. It claims one send at a time
 * with a short lease (instances sharing a database do not work on the same send at once), oldest
 * first (so one address's nonces follow submission order). A node that is down or slow is retried with
 * backoff; a restart resumes from the stored state, rebroadcasting the same signed bytes.
 * A sponsored send takes the sponsor's nonce and reserves the most it can cost against the gas
 * budget in the transaction that stores it signed, under a lock per (network, sponsor) shared by
 * the instances; one that does not fit the budget fails there, never signed nor broadcast.
 */
import { SigilError } from '../../api/errors.js'
import type { SendTracker, Runtime } from '../runtime.js'
import type { Sql } from '../store/sql.js'
import {
  claimDueSend,
  highestOpenPayerNonce,
  lockPayerNonce,
  lockUnsignedSend,
  markFailed,
  markIncluded,
  markSigned,
  nextSendDueAt,
  replacementOf,
  retryAt,
  type SendInclusion,
  type SendRow,
} from '../store/sends.js'
import { reserveSponsoredFee, settleSponsoredFee } from '../sponsorship/limits.js'
import { abisDeclaringError } from '../store/smartContractInterfaces.js'
import { addressKey } from '../../chains/contractInterfaces.js'
import { accountSigner, openSignerKey } from '../signing/signer.js'
import { withSendStatus } from '../webhooks/events.js'
import { buildEvm, type SponsoredSeal } from './batch.js'
import { advanceEvmSend, type EvmSendRequest, type Failure, type Signed } from './evm.js'
import type { CustomErrorAbis } from './revert.js'
import { advanceSolanaSend, buildSolanaSend, type SolanaSendRequest } from './solana.js'

/**
 * How long a claim keeps other trackers off a send. Correctness does not rest on it: only the
 * first signed transaction stored for a send is ever broadcast (markSigned is conditional), and
 * rebroadcasting the same bytes is harmless; the lease only saves duplicate work. It is also how
 * long a send held by a tracker that crashed waits before another (or the restarted one) resumes it.
 */
const LEASE_MS = 5_000
const IDLE_POLL_MS = 1_000
/** How soon a broadcast send is first looked at again; later looks back off (a dev chain mines at once, real ones take seconds). */
const FOLLOW_MS = 20
const MAX_FOLLOW_MS = 2_000
const MAX_BACKOFF_MS = 15_000

/** The runtime's send tracker (one per service instance), idle until started; stopped, it stays stopped. */
export function createSendTracker(): SendTracker {
  let running: Omit<SendTracker, 'start'> | undefined
  let stopped = false
  return {
    start(rt) {
      if (!stopped) running ??= startTracking(rt)
    },
    kick: () => running?.kick(),
    async stop() {
      stopped = true
      await running?.stop()
    },
  }
}

function startTracking(rt: Runtime): Omit<SendTracker, 'start'> {
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined
  let again = false
  let stopped = false

  const schedule = (ms: number) => {
    if (stopped) return
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => kick(), ms)
    timer.unref()
  }

  function kick() {
    if (stopped) return
    if (running !== undefined) {
      again = true
      return
    }
    running = (async () => {
      let delay = IDLE_POLL_MS
      try {
        for (;;) {
          const send = await claimDueSend(rt.db, rt.now(), LEASE_MS)
          if (!send) break
          await step(send)
          if (stopped) break
        }
        // Wake when the earliest open send falls due (its follow-up backs off), never later than the idle poll.
        const next = await nextSendDueAt(rt.db)
        if (next !== undefined) delay = Math.min(IDLE_POLL_MS, Math.max(1, next - rt.now() + 1))
      } catch (e) {
        rt.log.warn('send tracker paused', { errorName: (e as Error).name, errorCode: e instanceof SigilError ? e.code : undefined })
      } finally {
        running = undefined
        if (again) {
          again = false
          schedule(0)
        } else schedule(delay)
      }
    })()
  }

  /** One step of one send; records its outcome. */
  async function step(send: SendRow): Promise<void> {
    const now = () => rt.now()
    const network = rt.config.networks.find((n) => n.caip2 === send.caip2)
    // Webhooks: each status the tracker records commits with its SEND_TRANSACTION_STATUS_UPDATES event.
    const record = <T>(write: (sql: Sql) => Promise<T>) => withSendStatus(rt, send, write)
    if (!network) return record((sql) => markFailed(sql, send.id, { message: `network ${send.caip2} is no longer configured` }, now()))
    // A revert with a custom error is decoded with the sending organization's smart-contract interfaces.
    const customErrors: CustomErrorAbis = (selector, address) =>
      abisDeclaringError(rt.db, send.organization_id, selector, address === undefined ? undefined : addressKey('ethereum', address))
    try {
      if (send.status === 'INITIALIZED') {
        const ids =
          send.family === 'evm' ? [send.account_id] : (JSON.parse(send.request) as SolanaSendRequest).signers.map((s) => s.accountId)
        const keys = new Map<string, Uint8Array>()
        let built: Awaited<ReturnType<typeof buildEvm | typeof buildSolanaSend>>
        // Set when a sponsored send's outcome (signed or failed) was already stored by `seal`.
        let sealed: { stored: boolean } | undefined
        /**
         * A sponsored batch: in one transaction, holding the sponsor's nonce lock (across instances),
         * its nonce is the node's pending count or one past the highest stored for its open sends,
         * whichever is higher; the most it can cost is reserved against the budget (no fit: the
         * send fails, never signed nor broadcast); and the signed transaction is stored.
         */
        const seal: SponsoredSeal = (d) =>
          record(async (sql) => {
            const run = async (tx: Sql): Promise<Signed | Failure> => {
              await lockPayerNonce(tx, rt.db.kind, send.caip2, d.payer)
              // Another tracker whose lease outlived ours may have stored this send meanwhile: then nothing more to do.
              if (!(await lockUnsignedSend(tx, send.id))) {
                sealed = { stored: false }
                return { failed: { message: 'already stored by another tracker' } }
              }
              const stored = await highestOpenPayerNonce(tx, send.caip2, d.payer)
              const nodeNonce = await d.nodeNonce()
              const nonce = stored !== undefined && BigInt(stored) + 1n > nodeNonce ? BigInt(stored) + 1n : nodeNonce
              const refusal = await reserveSponsoredFee(tx, send.id, d.maxCostWei, now())
              if (refusal) {
                const failed = { message: refusal.message }
                await markFailed(tx, send.id, failed, now())
                sealed = { stored: true }
                return { failed }
              }
              const signed = d.sign(nonce)
              sealed = { stored: await markSigned(tx, send.id, signed.signed, now(), d.payer) }
              return signed
            }
            return sql === rt.db ? rt.db.transaction(run) : run(sql)
          })
        try {
          for (const id of ids) {
            const signer = await accountSigner(rt.db, send.organization_id, id)
            if (!signer) return record((sql) => markFailed(sql, send.id, { message: 'a signing account no longer exists' }, now()))
            keys.set(signer.account.address, openSignerKey(rt, signer))
          }
          built =
            send.family === 'evm'
              ? await buildEvm(network, send, keys.get(send.from_address) as Uint8Array, rt.config.gasSponsorKeys, customErrors, seal)
              : await buildSolanaSend(network, send, keys)
        } finally {
          for (const key of keys.values()) key.fill(0)
        }
        // Stored by another tracker meanwhile: it goes on from there.
        if (sealed && !sealed.stored) return
        if ('failed' in built)
          return finish(
            send,
            () => (sealed ? Promise.resolve() : record((sql) => markFailed(sql, send.id, built.failed, now()))),
            built.failed.message,
          )
        if (!sealed && !(await record((sql) => markSigned(sql, send.id, built.signed, now())))) return
        send = {
          ...send,
          status: 'BROADCASTING',
          signed_tx: built.signed.signedTx,
          tx_hash: built.signed.txHash,
          nonce: built.signed.nonce,
        }
        rt.log.info('send signed', { sendId: send.id, caip2: send.caip2, txHash: send.tx_hash })
      }
      // A newer send of the same sender at this nonce (speed up or cancel) replaces this one.
      const replacement = send.family === 'evm' ? await replacementOf(rt.db, send) : undefined
      const outcome =
        send.family === 'evm' ? await advanceEvmSend(network, send, customErrors, replacement) : await advanceSolanaSend(network, send)
      if (outcome === 'pending')
        return retryAt(rt.db, send.id, now() + Math.min(MAX_FOLLOW_MS, FOLLOW_MS * 2 ** Math.min(send.attempts, 7)), now())
      // What the sponsor paid for a sponsored send that landed (included or reverted) counts against the organization's budget.
      const settle = async (sql: Sql, at: SendInclusion | undefined) => {
        if (at?.fee && send.family === 'evm' && (JSON.parse(send.request) as EvmSendRequest).batch?.sponsor)
          await settleSponsoredFee(sql, send.id, BigInt(at.fee), now())
      }
      // The status and the settled fee commit together.
      const both = (write: (sql: Sql) => Promise<void>, at: SendInclusion | undefined) => {
        const run = async (sql: Sql) => {
          await write(sql)
          await settle(sql, at)
        }
        return record((sql) => (sql === rt.db ? rt.db.transaction(run) : run(sql)))
      }
      if ('included' in outcome)
        return finish(send, () => both((sql) => markIncluded(sql, send.id, outcome.included, now()), outcome.included))
      return finish(
        send,
        () => both((sql) => markFailed(sql, send.id, outcome.failed, now(), outcome.inclusion), outcome.inclusion),
        outcome.failed.message,
      )
    } catch (e) {
      // The node is down, slow or answered nonsense: try again later, from the stored state.
      const wait = Math.min(MAX_BACKOFF_MS, 250 * 2 ** Math.min(send.attempts, 6))
      rt.log.warn('send will be retried', {
        sendId: send.id,
        caip2: send.caip2,
        status: send.status,
        inMs: wait,
        reason: e instanceof SigilError ? e.message : (e as Error).name,
      })
      await retryAt(rt.db, send.id, now() + wait, now())
    }
  }

  async function finish(send: SendRow, record: () => Promise<void>, failure?: string): Promise<void> {
    await record()
    if (failure === undefined) rt.log.info('send included', { sendId: send.id, caip2: send.caip2, txHash: send.tx_hash })
    else rt.log.info('send failed', { sendId: send.id, caip2: send.caip2, reason: failure })
  }

  schedule(0)
  return {
    kick,
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      await running
    },
  }
}
