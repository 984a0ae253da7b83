/**
 * The popup rows of the wallet password (session/vault.ts), spread into the closed popup table
 * (popupMethods.ts). Every password is parsed with {@link Password}; it never leaves the background.
 */
import { z } from 'zod'
import { popupMethod } from '../methods'
import { confirmPassword, dismissOffer, forgetPassword, Password, setupPassword, unlockWithPassword, vaultStatus } from './vault'

const noParams = z.undefined()

/** `{ method: { params, handler } }` rows of the wallet password. */
export const PASSWORD_METHODS = {
  /** Whether a password is set here, for whom, how long to wait, and whether to offer setting one. */
  passwordStatus: popupMethod({ params: noParams, handler: (_p, { core }) => vaultStatus(core) }),
  /** Set or replace the password of the logged-in user (a new device credential). */
  passwordSetup: popupMethod({ params: z.object({ password: Password }), handler: (p, { core }) => setupPassword(core, p.password) }),
  /** Unlock with the password: a session without an email. */
  passwordUnlock: popupMethod({
    params: z.object({ password: Password }),
    handler: async (p, { core }) => {
      const r = await unlockWithPassword(core, p.password)
      return { username: r.username, method: r.method }
    },
  }),
  /** Re-check the password (no request) before a sensitive step; sets the session's `authenticatedAt`. */
  confirmPassword: popupMethod({ params: z.object({ password: Password }), handler: (p, { core }) => confirmPassword(core, p.password) }),
  /** Remove the password from this browser (the device credential is revoked while logged in). */
  passwordRemove: popupMethod({
    params: noParams,
    handler: async (_p, { core }) => {
      await forgetPassword(core)
      return vaultStatus(core)
    },
  }),
  /** "Not now" on the offer after a login: it is not shown again. */
  passwordOfferDismiss: popupMethod({
    params: noParams,
    handler: async (_p, { core }) => {
      await dismissOffer(core)
      return vaultStatus(core)
    },
  }),
}
