/**
 * The popup → background allow-list (style.md habit 6). Anything not listed is refused with
 * METHOD_NOT_FOUND; every input is parsed with the row's zod schema before the handler runs.
 * Handlers that need a session go through `core.withSession` (NOT_LOGGED_IN / SESSION_EXPIRED).
 */
import { z } from 'zod'
import { Attestation } from '../../api/common'
import { listActivities, vote } from './activity/activities'
import { activitySites } from './activity/activitySites'
import {
  ApprovalGetParams,
  ApprovalQueueParams,
  ApprovalResolveParams,
  getApproval,
  resolveApproval,
  withAccountNames,
} from './approval/page'
import { serviceFingerprint } from '../../crypto/serviceIdentity'
import { BUILD_CONFIG } from './service/buildConfig'
import { popupMethod } from './methods'
import { PASSWORD_METHODS } from './session/passwordMethods'
import { forgetPassword } from './session/vault'
import { accountBookOrLastKnown, balancesOrLastKnown } from './wallet/lastKnown'
import { onRampNetworks, onRampStatus, readLastOnRamp, startOnRamp } from './wallet/onRamp'
import { startOtp, verifyOtp } from './login/otp'
import { loginWithOauth, oauthProviders } from './login/oauth'
import { CredentialId, readLastLogin } from './login/lastLogin'
import { beginPasskeyLogin, finishPasskeyLogin, passkeySignup } from './login/passkey'
import { readPending } from './login/pending'
import { finishRecovery, startRecovery } from './login/recovery'
import { signupEmailView, startSignupEmail, verifySignupEmail } from './login/signupEmail'
import type { SessionRecord } from './session/sessionRecord'
import { confirmService, probeService } from './service/connect'
import { PreferencesSchema, ServiceUrl } from './service/settings'
import { listAccounts } from './wallet/accounts'
import { ACCOUNT_NAME_MAX, accountBook, accountNameMap, flatten, namedAccounts, renameGroup, setGroupHidden } from './wallet/accountBook'
import { USER_REJECTED } from './approval/approvals'
import { addAccountGroup, createWallet, exportSecret, importPrivateKey, importWallet } from './wallet/walletKeys'
import { connectedSites, disconnectSite, setSiteAccounts } from './dapp/connectedSites'
import { MAX_SITE_ACCOUNTS } from './dapp/grants'
import { fundFromFaucet } from './wallet/faucet'
import { accountDelegation, undelegateAccount } from './wallet/delegation'
import { listHistory } from './wallet/history'
import { popupNetworks, selectPopupNetwork } from './chains/popupNetwork'
import { estimateSend, sendStatus, submitSend } from './wallet/send'
import { importToken, previewToken } from './wallet/importToken'
import { reviewReplacement, submitReplacement } from './wallet/replace'
import { estimateNftSend, importNft, listNfts, submitNftSend } from './wallet/nfts'

const noParams = z.undefined()
const id = z.string().min(1).max(256)
const b64url = z
  .string()
  .min(1)
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]+={0,2}$/)
const email = z
  .string()
  .trim()
  .max(320)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Enter an email address such as name@example.com.')
const otpCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{4,12}$/, 'Enter the code from the message (letters and digits).')
const caip2 = z.string().min(1).max(128)
const address = z
  .string()
  .trim()
  .min(1)
  .max(128)
  .regex(/^[0-9A-Za-z]+$/, 'must be an address')
const accountGroup = z.string().min(1).max(300)
const walletName = z.string().trim().min(1).max(64)
const atomic = z.string().regex(/^[0-9]{1,78}$/, 'must be a whole number of atomic units')
const evmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address')
/** An SPL Token mint (base58, 32 bytes). */
const splMint = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'must be a base58 Solana mint address')
const sendInput = { caip2, from: address, to: address, token: evmAddress.or(splMint).optional() }
const siteOrigin = z.string().min(1).max(512)
/** An NFT send: the contract, the token id (a uint256) and for ERC-1155 how many. */
const nftSendInput = {
  caip2,
  from: evmAddress,
  to: z.string().trim().min(1).max(128),
  contract: evmAddress,
  tokenId: z.string().regex(/^[0-9]{1,78}$/, 'must be a token id (a whole number)'),
  amount: z
    .string()
    .regex(/^[0-9]{1,78}$/, 'must be a whole number')
    .optional(),
}
const siteFamily = z.enum(['evm', 'solana'])
const phone = z
  .string()
  .trim()
  .regex(/^\+[1-9][0-9]{6,14}$/, 'Include the country code, e.g. +1 for the US: +14155550123.')

const registration = {
  authenticatorName: z.string().trim().min(1).max(64),
  challenge: b64url,
  attestation: Attestation,
}

const otpStart = z.discriminatedUnion('otpType', [
  z.object({ otpType: z.literal('OTP_TYPE_EMAIL'), contact: email }),
  z.object({ otpType: z.literal('OTP_TYPE_SMS'), contact: phone }),
])

/** The session as the popup may see it (no key material). */
export type SessionView = Pick<SessionRecord, 'organizationId' | 'userId' | 'username' | 'method' | 'expiresAt'>

function sessionView(r: SessionRecord): SessionView {
  return { organizationId: r.organizationId, userId: r.userId, username: r.username, method: r.method, expiresAt: r.expiresAt }
}

/** The popup method table: `{ method: { params, handler } }`. */
export const POPUP_METHODS = {
  ping: popupMethod({
    params: noParams,
    handler: (_p, { state }) => ({ pong: ++state.pongCount }),
  }),
  getStatus: popupMethod({
    params: noParams,
    handler: async (_p, { extensionId, core, dapp }) => {
      const s = await core.current()
      const otp = await readPending(core.deps.session, 'otp', core.now())
      const recovery = await readPending(core.deps.session, 'recovery', core.now())
      const signup = await readPending(core.deps.session, 'passkeySignup', core.now())
      const lastEnd = await core.lastEnd()
      return {
        loggedIn: s !== null,
        extensionId,
        session: s ? sessionView(s.record) : null,
        settings: await core.settings(),
        service: { fingerprint: serviceFingerprint((await core.settings()).identityKey), locked: BUILD_CONFIG.lockSettings },
        pendingOtp: otp ? { otpType: otp.otpType, contact: otp.contact } : null,
        pendingRecovery: recovery ? { email: recovery.email } : null,
        pendingPasskeySignup: signup ? signupEmailView(signup) : null,
        lastEnd: lastEnd ?? null,
        lastOnRamp: s ? await readLastOnRamp(core) : null,
        lastLogin: s ? null : ((await readLastLogin(core.deps.local).catch(() => undefined)) ?? null),
        loginWanted: s || !dapp ? [] : dapp.loginWanted(),
      }
    },
  }),
  savePreferences: popupMethod({
    params: PreferencesSchema,
    handler: (p, { core }) => core.savePreferences(p),
  }),
  serviceProbe: popupMethod({
    params: z.object({ apiBaseUrl: ServiceUrl, relayUrl: ServiceUrl }),
    handler: (p, { core }) => probeService(core, p),
  }),
  serviceConnect: popupMethod({
    params: z.object({ fingerprint: z.string().regex(/^[0-9A-F]{4}( [0-9A-F]{4}){7}$/, 'must be the fingerprint shown') }),
    handler: (p, { core }) => confirmService(core, p),
  }),
  oauthProviders: popupMethod({
    params: noParams,
    handler: (_p, { core }) => oauthProviders(core),
  }),
  oauthLogin: popupMethod({
    params: z.object({ issuer: z.url({ protocol: /^https?$/ }).max(2048) }).strict(),
    handler: async (p, { core }) => sessionView(await loginWithOauth(core, p)),
  }),
  otpStart: popupMethod({
    params: otpStart,
    handler: (p, { core }) => startOtp(core, p),
  }),
  otpVerify: popupMethod({
    params: z.object({ code: otpCode }),
    handler: async (p, { core }) => sessionView(await verifyOtp(core, p)),
  }),
  passkeySignupEmailStart: popupMethod({
    params: z.object({ email, userName: z.string().trim().max(64).optional() }),
    handler: (p, { core }) => startSignupEmail(core, p),
  }),
  passkeySignupEmailVerify: popupMethod({
    params: z.object({ code: otpCode }),
    handler: (p, { core }) => verifySignupEmail(core, p),
  }),
  passkeySignup: popupMethod({
    params: z.object(registration),
    handler: async (p, { core }) => sessionView(await passkeySignup(core, p)),
  }),
  passkeyLoginBegin: popupMethod({
    params: z.object({ credentialId: CredentialId.optional(), credentialIds: z.array(CredentialId).max(10).optional() }).strict(),
    handler: (p, { core }) => beginPasskeyLogin(core, p),
  }),
  passkeyLoginFinish: popupMethod({
    params: z.object({ authenticatorData: b64url, clientDataJson: b64url, credentialId: b64url, signature: b64url }),
    handler: async (p, { core }) => sessionView(await finishPasskeyLogin(core, p)),
  }),
  recoveryStart: popupMethod({
    params: z.object({ email }),
    handler: (p, { core }) => startRecovery(core, p),
  }),
  recoveryFinish: popupMethod({
    params: z.object({
      ...registration,
      bundle: z
        .string()
        .trim()
        .min(1)
        .max(4096)
        .regex(/^[1-9A-HJ-NP-Za-km-z]+$/, 'must be the code from the email'),
    }),
    handler: (p, { core }) => finishRecovery(core, p),
  }),
  listAccounts: popupMethod({
    params: noParams,
    handler: (_p, { core }) => core.withSession((client, s) => listAccounts(client, s)),
  }),
  // accounts and wallets: the account book (groups, names, hidden), add, create, import, export
  accountBook: popupMethod({
    params: noParams,
    handler: (_p, { core }) => accountBookOrLastKnown(core),
  }),
  accountNames: popupMethod({
    params: noParams,
    handler: (_p, { core }) =>
      core.withSession(async (client, s) => ({
        names: Object.fromEntries(accountNameMap(flatten((await accountBook(client, s, core.deps.local)).groups))),
      })),
  }),
  addAccount: popupMethod({
    params: z.object({ walletId: id }).strict(),
    handler: (p, { core }) => core.withSession((client, s) => addAccountGroup(client, s, p)),
  }),
  renameAccount: popupMethod({
    params: z
      .object({ group: accountGroup, name: z.string().trim().max(ACCOUNT_NAME_MAX, `must be at most ${ACCOUNT_NAME_MAX} characters`) })
      .strict(),
    handler: (p, { core }) => core.withSession(async (_c, s) => renameGroup(core.deps.local, s, p)),
  }),
  hideAccount: popupMethod({
    params: z.object({ group: accountGroup, hidden: z.boolean() }).strict(),
    handler: (p, { core }) => core.withSession(async (_c, s) => setGroupHidden(core.deps.local, s, p)),
  }),
  createWallet: popupMethod({
    params: z.object({ walletName }).strict(),
    handler: (p, { core }) => core.withSession((client, s) => createWallet(client, s, p)),
  }),
  importWallet: popupMethod({
    params: z.object({ walletName, mnemonic: z.string().max(1024, 'must be at most 24 words') }).strict(),
    handler: (p, { core }) => core.withSession((client, s) => importWallet(core, client, s, p)),
  }),
  importPrivateKey: popupMethod({
    params: z
      .object({
        name: walletName,
        addressFormat: z.enum(['ADDRESS_FORMAT_ETHEREUM', 'ADDRESS_FORMAT_SOLANA']),
        privateKey: z.string().max(256, 'is too long for a private key'),
      })
      .strict(),
    handler: (p, { core }) => core.withSession((client, s) => importPrivateKey(core, client, s, p)),
  }),
  exportSecret: popupMethod({
    params: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('wallet'), walletId: id }).strict(),
      z.object({ kind: z.literal('account'), address }).strict(),
      z.object({ kind: z.literal('privateKey'), privateKeyId: id }).strict(),
    ]),
    handler: (p, { core }) => core.withSession((client, s) => exportSecret(core, client, s, p)),
  }),
  // site accounts: the connected sites of both families, their accounts, disconnect
  connectedSites: popupMethod({
    params: noParams,
    handler: (_p, { core, state }) => core.withSession((client, s) => connectedSites(core, state, client, s)),
  }),
  disconnectSite: popupMethod({
    params: z.object({ origin: siteOrigin, family: siteFamily.optional() }).strict(),
    handler: (p, { core, dapp }) =>
      core.withSession(async (_c, s) => disconnectSite(core, dapp, s.record.organizationId, p.origin, p.family)),
  }),
  setSiteAccounts: popupMethod({
    params: z
      .object({
        origin: siteOrigin,
        family: siteFamily,
        accounts: z.array(address).min(1, 'choose at least one account').max(MAX_SITE_ACCOUNTS),
      })
      .strict(),
    handler: (p, { core, state, dapp }) => core.withSession((client, s) => setSiteAccounts(core, state, dapp, client, s, p)),
  }),
  networks: popupMethod({
    params: noParams,
    handler: (_p, { core }) => popupNetworks(core),
  }),
  selectNetwork: popupMethod({
    params: z.object({ caip2 }),
    handler: (p, { core }) => selectPopupNetwork(core, p),
  }),
  balances: popupMethod({
    params: z.object({ caip2 }),
    handler: (p, { core }) => balancesOrLastKnown(core, p),
  }),
  previewToken: popupMethod({
    params: z.object({ caip2, address: z.string().trim().pipe(evmAddress) }).strict(),
    handler: (p, { core }) => core.withSession((_c, s) => previewToken(core, s, p)),
  }),
  importToken: popupMethod({
    params: z.object({ caip2, address: z.string().trim().pipe(evmAddress) }).strict(),
    handler: (p, { core }) => core.withSession((_c, s) => importToken(core, s, p)),
  }),
  faucet: popupMethod({
    params: z.object({
      caip2,
      address,
      amount: z
        .string()
        .regex(/^\d{1,4}(\.\d{1,18})?$/)
        .optional(),
    }),
    handler: (p, { core }) => core.withSession((client, s) => fundFromFaucet(core, client, s, p)),
  }),
  delegation: popupMethod({
    params: z.object({ caip2, address: evmAddress }).strict(),
    handler: (p, { core }) => core.withSession(() => accountDelegation(core, p)),
  }),
  undelegate: popupMethod({
    params: z.object({ caip2, address: evmAddress }).strict(),
    handler: (p, { core }) => core.withSession((client, s) => undelegateAccount(core, client, s, p)),
  }),
  sendEstimate: popupMethod({
    params: z.object({ ...sendInput, amount: atomic.optional() }),
    handler: (p, { core }) => core.withSession((client, s) => estimateSend(core, client, s, p)),
  }),
  sendSubmit: popupMethod({
    params: z.object({
      ...sendInput,
      amount: atomic,
      evm: z.object({ gasLimit: atomic, maxFeePerGas: atomic, maxPriorityFeePerGas: atomic }).optional(),
    }),
    handler: (p, { core }) => core.withSession((client, s) => submitSend(core, client, s, p)),
  }),
  sendStatus: popupMethod({
    params: z.object({ sendTransactionStatusId: id }),
    handler: (p, { core }) => core.withSession((client, s) => sendStatus(core, client, s, p)),
  }),
  nfts: popupMethod({
    params: z.object({ caip2 }).strict(),
    handler: (p, { core }) => core.withSession((client, s) => listNfts(core, client, s, p)),
  }),
  importNft: popupMethod({
    params: z
      .object({
        caip2,
        address: evmAddress,
        contract: z.string().trim().pipe(evmAddress),
        tokenId: z.string().trim().pipe(nftSendInput.tokenId),
      })
      .strict(),
    handler: (p, { core }) => core.withSession((_c, s) => importNft(core, s, p)),
  }),
  nftSendEstimate: popupMethod({
    params: z.object(nftSendInput).strict(),
    handler: (p, { core }) => core.withSession((client, s) => estimateNftSend(core, client, s, p)),
  }),
  nftSendSubmit: popupMethod({
    params: z.object({ ...nftSendInput, evm: z.object({ gasLimit: atomic, maxFeePerGas: atomic, maxPriorityFeePerGas: atomic }) }).strict(),
    handler: (p, { core }) => core.withSession((client, s) => submitNftSend(core, client, s, p)),
  }),
  history: popupMethod({
    params: z.object({ caip2, address }),
    handler: (p, { core }) => core.withSession((client, s) => listHistory(core, client, s, p)),
  }),
  onRampStart: popupMethod({
    params: z.record(z.string(), z.unknown()),
    handler: (p, { core }) => core.withSession((client, s) => startOnRamp(core, client, s, p)),
  }),
  onRampStatus: popupMethod({
    params: z.object({ transactionId: id }),
    handler: (p, { core }) => core.withSession((client, s) => onRampStatus(client, s, p)),
  }),
  listActivities: popupMethod({
    params: noParams,
    handler: async (_p, { core }) => {
      const sites = await activitySites(core.deps.local)
      return core.withSession(async (client, s) => {
        // Names are labels: without them the activity shows short addresses.
        const book = await accountBook(client, s, core.deps.local).catch(() => undefined)
        return listActivities(client, s, sites, book && accountNameMap(flatten(book.groups)))
      })
    },
  }),
  approveActivity: popupMethod({
    params: z.object({ fingerprint: id }),
    handler: (p, { core }) => core.withSession((client, s) => vote(client, s, { ...p, approve: true })),
  }),
  rejectActivity: popupMethod({
    params: z.object({ fingerprint: id }),
    handler: (p, { core }) => core.withSession((client, s) => vote(client, s, { ...p, approve: false })),
  }),
  // sessions: the wallet password (unlock without email, re-check before sensitive steps)
  ...PASSWORD_METHODS,
  approvalGet: popupMethod({
    params: ApprovalGetParams,
    handler: (p, { state, core }) =>
      withAccountNames(getApproval(state.approvals, p), () => core.withSession((client, s) => namedAccounts(client, s, core.deps.local))),
  }),
  approvalResolve: popupMethod({
    params: ApprovalResolveParams,
    handler: (p, { state }) => resolveApproval(state.approvals, p),
  }),
  // approval queue: what the window shows after an answer, and "Reject all"
  approvalShown: popupMethod({
    params: ApprovalQueueParams,
    handler: async (p, { state, dapp }) => (dapp ? dapp.shownIn(p.id) : { id: state.approvals.get(p.id) ? p.id : null, waiting: 0 }),
  }),
  approvalRejectAll: popupMethod({
    params: ApprovalQueueParams,
    handler: async (p, { state, dapp }) => ({
      rejected: dapp ? dapp.rejectQueue(p.id) : Number(state.approvals.reject(p.id, USER_REJECTED)),
    }),
  }),
  lock: popupMethod({
    params: noParams,
    handler: async (_p, { core }) => {
      await core.wipe('lock')
      return { loggedIn: false as const }
    },
  }),
  logout: popupMethod({
    params: noParams,
    handler: async (_p, { core }) => {
      // Logging out also forgets this browser's wallet password (its device key is revoked).
      await forgetPassword(core)
      await core.wipe('logout')
      return { loggedIn: false as const }
    },
  }),
  onRampNetworks: popupMethod({
    params: noParams,
    handler: (_p, { core }) => onRampNetworks(core),
  }),
  // pending sends: speed up or cancel (a replacement at the same nonce with higher fees)
  replaceReview: popupMethod({
    params: z.object({ sendTransactionStatusId: id, caip2, kind: z.enum(['speedUp', 'cancel']) }).strict(),
    handler: (p, { core }) => core.withSession((client, s) => reviewReplacement(core, client, s, p)),
  }),
  replaceSubmit: popupMethod({
    params: z
      .object({
        sendTransactionStatusId: id,
        caip2,
        kind: z.enum(['speedUp', 'cancel']),
        maxFeePerGas: atomic,
        maxPriorityFeePerGas: atomic,
      })
      .strict(),
    handler: (p, { core }) => core.withSession((client, s) => submitReplacement(core, client, s, p)),
  }),
}
