/**
 * "Connect to a service" (the service identity the wallet pins): the only way to point the
 * wallet at another service or relay. Step 1 fetches the new service's signed identity (and
 * checks the relay serves the same one) and shows its fingerprint; step 2, once the user
 * confirmed that fingerprint, checks again, forgets the wallet password, ends the session, clears
 * every site grant (Ethereum and Solana) and pins the new key with the URLs. A build made with `WXT_SIGIL_LOCK_SETTINGS=true` refuses both.
 */
import { serviceFingerprint } from '../../../crypto/serviceIdentity'
import { BUILD_CONFIG } from './buildConfig'
import type { Core } from '../core'
import { CHAIN_KEY } from '../dapp/evm/chains'
import { WATCHED_ASSETS_KEY } from '../dapp/evm/watchAsset'
import { ExtensionError } from '../failures'
import { clearPending, readPending, writePending } from '../login/pending'
import { PERMISSIONS_KEY } from '../dapp/evm/permissions'
import { SOLANA_PERMISSIONS_KEY } from '../dapp/solana/permissions'
import { forgetPassword } from '../session/vault'
import { verifyService } from './trust'
import { saveConnection, type Settings } from './settings'

/** What the popup shows before the user confirms. */
export type ServiceCandidate = {
  apiBaseUrl: string
  relayUrl: string
  fingerprint: string
  /** The fingerprint pinned now, to compare. */
  pinnedFingerprint: string
  /** True when the candidate is signed by the key pinned now (same service, other address). */
  samePinnedKey: boolean
  origins: string[]
}

function refuseWhenLocked(): void {
  if (BUILD_CONFIG.lockSettings) {
    throw new ExtensionError('SETTINGS_LOCKED', 'This build of the wallet is tied to its service; the service cannot be changed.')
  }
}

/** Step 1: check the service and relay at these URLs and show who they are. */
export async function probeService(core: Core, p: { apiBaseUrl: string; relayUrl: string }): Promise<ServiceCandidate> {
  refuseWhenLocked()
  const found = await verifyService({ apiBaseUrl: p.apiBaseUrl, relayUrl: p.relayUrl }, core.deps.fetch)
  const current = await core.settings()
  await writePending(core.deps.session, 'connect', {
    apiBaseUrl: p.apiBaseUrl,
    relayUrl: p.relayUrl,
    identityKey: found.keys.identity,
    createdAt: core.now(),
  })
  return {
    apiBaseUrl: p.apiBaseUrl,
    relayUrl: p.relayUrl,
    fingerprint: found.fingerprint,
    pinnedFingerprint: serviceFingerprint(current.identityKey),
    samePinnedKey: found.keys.identity === current.identityKey,
    origins: found.origins,
  }
}

/**
 * Step 2: the user confirmed `fingerprint`. Check again (the service must still present that
 * key), end the session, clear site grants and chain choices, pin.
 */
export async function confirmService(core: Core, p: { fingerprint: string }): Promise<Settings> {
  refuseWhenLocked()
  const pending = await readPending(core.deps.session, 'connect', core.now())
  if (!pending) throw new ExtensionError('NO_PENDING_LOGIN', 'Check the service again before connecting.')
  const found = await verifyService(
    { apiBaseUrl: pending.apiBaseUrl, relayUrl: pending.relayUrl, pinnedKey: pending.identityKey },
    core.deps.fetch,
  )
  if (found.fingerprint !== p.fingerprint) {
    throw new ExtensionError('SERVICE_UNVERIFIED', 'The service now presents another fingerprint than the one you confirmed.')
  }
  await clearPending(core.deps.session, 'connect')
  // The old service's wallet password goes too (its device key revoked while the session can).
  await forgetPassword(core)
  if ((await core.current()) !== null) await core.wipe('logout')
  await core.deps.local.remove(PERMISSIONS_KEY)
  await core.deps.local.remove(SOLANA_PERMISSIONS_KEY)
  await core.deps.local.remove(CHAIN_KEY)
  await core.deps.local.remove(WATCHED_ASSETS_KEY)
  const settings = await saveConnection(core.deps.local, {
    apiBaseUrl: pending.apiBaseUrl,
    relayUrl: pending.relayUrl,
    identityKey: found.keys.identity,
  })
  core.forgetService()
  return settings
}
