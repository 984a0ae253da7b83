/**
 * Keep the extension's storage out of reach of content scripts (issue 22): settings, site
 * grants and the selected chain live in `storage.local`, and Chrome lets content scripts read
 * and write it by default, so a compromised renderer could redirect the service URLs or grant
 * itself a connection. Our content scripts only relay messages and never touch storage.
 *
 * Chrome (102+ for `session`, local too in current versions): `setAccessLevel('TRUSTED_CONTEXTS')`
 * limits an area to extension pages and the service worker. The level is not persisted, so the
 * background sets it on every start (top level of the worker, before any listener runs).
 *
 * Firefox: `setAccessLevel` exists for `storage.session` only; `storage.local` stays readable by
 * content scripts. Closing that there would mean keeping settings and grants in the extension's
 * own IndexedDB (origin `moz-extension://…`, unreachable from content scripts) instead of
 * `storage.local`; not done yet (see the issue-22 report).
 */

/** The optional `setAccessLevel` of a storage area (missing on older browsers and Firefox's local). */
export type AccessLevelArea = {
  setAccessLevel?: (opts: { accessLevel: 'TRUSTED_CONTEXTS' | 'TRUSTED_AND_UNTRUSTED_CONTEXTS' }) => Promise<void>
}

/** What happened per area: restricted, unsupported by this browser, or failed (with the message). */
export type AccessLevelResult = Record<string, 'restricted' | 'unsupported' | `failed: ${string}`>

/** Restrict every given area to trusted contexts; never throws (a failure is reported, not fatal). */
export async function restrictStorageToTrustedContexts(areas: Record<string, AccessLevelArea | undefined>): Promise<AccessLevelResult> {
  const result: AccessLevelResult = {}
  for (const [name, area] of Object.entries(areas)) {
    if (typeof area?.setAccessLevel !== 'function') {
      result[name] = 'unsupported'
      continue
    }
    try {
      await area.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' })
      result[name] = 'restricted'
    } catch (err) {
      result[name] = `failed: ${err instanceof Error ? err.message : String(err)}`
    }
  }
  return result
}
