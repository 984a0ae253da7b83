/**
 * The registry of every operation Sigil defines, with path and type lookups
 * (service-interface.md "Endpoints"; wire-formats A2: dispatch on `type`, never on path alone).
 */
import type { ActivityType } from './enums.js'
import type { QueryDefinition, SubmitDefinition } from './operation.js'
import { acceptInvitation, acceptInvitationV1 } from './operations/accept_invitation.js'
import { approveActivity } from './operations/approve_activity.js'
import { createApiKeys, createApiKeysV1 } from './operations/create_api_keys.js'
import { createAuthenticators } from './operations/create_authenticators.js'
import { createInvitations } from './operations/create_invitations.js'
import { createPolicies } from './operations/create_policies.js'
import { createPolicyV1, createPolicyV2, createPolicyV3 } from './operations/create_policy.js'
import { getActivePolicies } from './operations/get_active_policies.js'
import { createFiatOnRampCredential } from './operations/create_fiat_on_ramp_credential.js'
import { createSmartContractInterface } from './operations/create_smart_contract_interface.js'
import { createReadOnlySession } from './operations/create_read_only_session.js'
import { createReadWriteSession } from './operations/create_read_write_session.js'
import { createSubOrganization } from './operations/create_sub_organization.js'
import { createUsers, createUsersV2, createUsersV3 } from './operations/create_users.js'
import { createWallet } from './operations/create_wallet.js'
import { createWalletAccounts } from './operations/create_wallet_accounts.js'
import { deleteApiKeys } from './operations/delete_api_keys.js'
import { deleteAuthenticators } from './operations/delete_authenticators.js'
import { deleteInvitation } from './operations/delete_invitation.js'
import { deleteFiatOnRampCredential } from './operations/delete_fiat_on_ramp_credential.js'
import { deletePolicies } from './operations/delete_policies.js'
import { deletePolicy } from './operations/delete_policy.js'
import { deleteSmartContractInterface } from './operations/delete_smart_contract_interface.js'
import { deleteUsers } from './operations/delete_users.js'
import { deleteWallets } from './operations/delete_wallets.js'
import { ethSendRawTransaction } from './operations/eth_send_raw_transaction.js'
import { ethSendTransaction, ethSendTransactionV1 } from './operations/eth_send_transaction.js'
import { emailAuth, emailAuthV1, emailAuthV2 } from './operations/email_auth.js'
import { exportWallet } from './operations/export_wallet.js'
import { exportWalletAccount } from './operations/export_wallet_account.js'
import { getActivity } from './operations/get_activity.js'
import { listAppProofs } from './operations/list_app_proofs.js'
import { getOrganization } from './operations/get_organization.js'
import { initImportPrivateKey } from './operations/init_import_private_key.js'
import { importPrivateKey } from './operations/import_private_key.js'
import { exportPrivateKey } from './operations/export_private_key.js'
import { createPrivateKeyTag } from './operations/create_private_key_tag.js'
import { updatePrivateKeyTag } from './operations/update_private_key_tag.js'
import { deletePrivateKeyTags } from './operations/delete_private_key_tags.js'
import { listPrivateKeyTags } from './operations/list_private_key_tags.js'
import { createPrivateKeys, createPrivateKeysV1 } from './operations/create_private_keys.js'
import { deletePrivateKeys } from './operations/delete_private_keys.js'
import { disablePrivateKey } from './operations/disable_private_key.js'
import { getPrivateKey } from './operations/get_private_key.js'
import { listPrivateKeys } from './operations/list_private_keys.js'
import { updateUser } from './operations/update_user.js'
import { updateUserName } from './operations/update_user_name.js'
import { updateUserEmail } from './operations/update_user_email.js'
import { updateUserPhoneNumber } from './operations/update_user_phone_number.js'
import { createApiOnlyUsers } from './operations/create_api_only_users.js'
import { createUserTag } from './operations/create_user_tag.js'
import { updateUserTag } from './operations/update_user_tag.js'
import { deleteUserTags } from './operations/delete_user_tags.js'
import { listUserTags } from './operations/list_user_tags.js'
import { updateWallet } from './operations/update_wallet.js'
import { deleteWalletAccounts } from './operations/delete_wallet_accounts.js'
import { updateOrganizationName } from './operations/update_organization_name.js'
import { deleteSubOrganization } from './operations/delete_sub_organization.js'
import { getApiKey } from './operations/get_api_key.js'
import { getApiKeys } from './operations/get_api_keys.js'
import { getAuthenticator } from './operations/get_authenticator.js'
import { getAuthenticators } from './operations/get_authenticators.js'
import { getWalletAccount } from './operations/get_wallet_account.js'
import { getOnRampTransactionStatus } from './operations/get_on_ramp_transaction_status.js'
import { getNonces } from './operations/get_nonces.js'
import { getOrganizationConfigs } from './operations/get_organization_configs.js'
import { getSendTransactionStatus } from './operations/get_send_transaction_status.js'
import { getPolicy } from './operations/get_policy.js'
import { getPolicyEvaluations } from './operations/get_policy_evaluations.js'
import { getSmartContractInterface } from './operations/get_smart_contract_interface.js'
import { getUser } from './operations/get_user.js'
import { getWallet } from './operations/get_wallet.js'
import { getWalletAddressBalances } from './operations/get_wallet_address_balances.js'
import { importWallet } from './operations/import_wallet.js'
import { initFiatOnRamp } from './operations/init_fiat_on_ramp.js'
import { initImportWallet } from './operations/init_import_wallet.js'
import { initOtp } from './operations/init_otp.js'
import { initOtpAuth } from './operations/init_otp_auth.js'
import { initUserEmailRecovery } from './operations/init_user_email_recovery.js'
import { listActivities } from './operations/list_activities.js'
import { listEthTransactionHistory } from './operations/list_eth_transaction_history.js'
import { listFiatOnRampCredentials } from './operations/list_fiat_on_ramp_credentials.js'
import { listSolTransactionHistory } from './operations/list_sol_transaction_history.js'
import { listUsers } from './operations/list_users.js'
import { listPolicies } from './operations/list_policies.js'
import { listSmartContractInterfaces } from './operations/list_smart_contract_interfaces.js'
import { listSuborgs } from './operations/list_suborgs.js'
import { listSupportedAssets } from './operations/list_supported_assets.js'
import { listWalletAccounts } from './operations/list_wallet_accounts.js'
import { listWallets } from './operations/list_wallets.js'
import { otpAuth } from './operations/otp_auth.js'
import { otpLogin, otpLoginV1 } from './operations/otp_login.js'
import { recoverUser } from './operations/recover_user.js'
import { rejectActivity } from './operations/reject_activity.js'
import { removeOrganizationFeature } from './operations/remove_organization_feature.js'
import { setOrganizationFeature } from './operations/set_organization_feature.js'
import { signRawPayload, signRawPayloadV1 } from './operations/sign_raw_payload.js'
import { signRawPayloads } from './operations/sign_raw_payloads.js'
import { signTransaction, signTransactionV1 } from './operations/sign_transaction.js'
import { solSendTransaction, solSendTransactionV1 } from './operations/sol_send_transaction.js'
import { stampLogin } from './operations/stamp_login.js'
import { updatePolicyV1, updatePolicyV2 } from './operations/update_policy.js'
import { updateAllowedOrigins } from './operations/update_allowed_origins.js'
import { updateFiatOnRampCredential } from './operations/update_fiat_on_ramp_credential.js'
import { updateRootQuorum } from './operations/update_root_quorum.js'
import { verifyOtp, verifyOtpV1 } from './operations/verify_otp.js'
import { whoami } from './operations/whoami.js'

/** Every submit definition (one per accepted `type`). */
export const SUBMIT_OPERATIONS = [
  // service-interface.md "Submit operations"
  createAuthenticators,
  recoverUser,
  createSubOrganization,
  createWalletAccounts,
  initFiatOnRamp,
  initOtpAuth,
  otpAuth,
  otpLogin,
  otpLoginV1,
  initUserEmailRecovery,
  createReadWriteSession,
  createFiatOnRampCredential,
  updateFiatOnRampCredential,
  // wire-formats B4 and the service's own needs
  createWallet,
  signRawPayload,
  signRawPayloads,
  signTransaction,
  stampLogin,
  initOtp,
  verifyOtp,
  verifyOtpV1,
  approveActivity,
  rejectActivity,
  initImportWallet,
  importWallet,
  exportWallet,
  exportWalletAccount,
  updateRootQuorum,
  createApiKeys,
  deleteApiKeys,
  createUsers,
  createUsersV3,
  deleteUsers,
  deleteAuthenticators,
  setOrganizationFeature,
  removeOrganizationFeature,
  deleteWallets,
  updateAllowedOrigins,
  deleteFiatOnRampCredential,
  // issue 11: signing, broadcasting and tracking
  ethSendTransaction,
  ethSendTransactionV1,
  ethSendRawTransaction,
  solSendTransaction,
  solSendTransactionV1,
  // issue 11: smart-contract interfaces (hosted OpenAPI)
  createSmartContractInterface,
  deleteSmartContractInterface,
  // issue 14: policies (hosted OpenAPI)
  createPolicyV3,
  createPolicyV1,
  createPolicyV2,
  createPolicies,
  updatePolicyV1,
  updatePolicyV2,
  deletePolicy,
  deletePolicies,
  // issue 15: wallet and organization operations (hosted OpenAPI)
  updateWallet,
  deleteWalletAccounts,
  updateOrganizationName,
  deleteSubOrganization,
  // issue 15: user tags
  createUserTag,
  updateUserTag,
  deleteUserTags,
  // issue 15: users
  updateUser,
  updateUserName,
  updateUserEmail,
  updateUserPhoneNumber,
  createApiOnlyUsers,
  // issue 15: private keys
  createPrivateKeys,
  createPrivateKeysV1,
  deletePrivateKeys,
  disablePrivateKey,
  createPrivateKeyTag,
  updatePrivateKeyTag,
  deletePrivateKeyTags,
  initImportPrivateKey,
  importPrivateKey,
  exportPrivateKey,
  signRawPayloadV1,
  signTransactionV1,
  createApiKeysV1,
  createUsersV2,
  // issue 15: invitations (accept_invitation on Sigil's own path)
  createInvitations,
  deleteInvitation,
  acceptInvitation,
  acceptInvitationV1,
  // issue 16: read-only sessions and email auth
  createReadOnlySession,
  emailAuth,
  emailAuthV2,
  emailAuthV1,
] as const

/** Every query definition. */
export const QUERY_OPERATIONS = [
  getOrganizationConfigs,
  listUsers,
  listActivities,
  getActivity,
  getSendTransactionStatus,
  whoami,
  listWallets,
  listWalletAccounts,
  getWallet,
  getUser,
  listFiatOnRampCredentials,
  getOnRampTransactionStatus,
  listSuborgs,
  // hosted OpenAPI: what a wallet reads of its chains
  getWalletAddressBalances,
  listSupportedAssets,
  getNonces,
  listEthTransactionHistory,
  listSolTransactionHistory,
  // issue 11: smart-contract interfaces (hosted OpenAPI)
  getSmartContractInterface,
  listSmartContractInterfaces,
  // issue 14: policies (hosted OpenAPI)
  getPolicy,
  listPolicies,
  getPolicyEvaluations,
  // issue 15: credentials and wallet reads (hosted OpenAPI)
  getApiKey,
  getApiKeys,
  getAuthenticator,
  getAuthenticators,
  getWalletAccount,
  listUserTags,
  getPrivateKey,
  listPrivateKeys,
  listPrivateKeyTags,
  getOrganization,
  listAppProofs,
  getActivePolicies,
] as const

/** Union of the concrete submit definitions (keeps literal names for the client). */
export type AnySubmitOperation = (typeof SUBMIT_OPERATIONS)[number]
/** Union of the concrete query definitions. */
export type AnyQueryOperation = (typeof QUERY_OPERATIONS)[number]

/** Submit definition by activity `type`. */
export const submitByType: ReadonlyMap<ActivityType, SubmitDefinition> = new Map(
  SUBMIT_OPERATIONS.map((d): [ActivityType, SubmitDefinition] => [d.type, d]),
)

/** Submit definitions accepted on each path (several `type` versions may share one). */
export const submitByPath: ReadonlyMap<string, readonly SubmitDefinition[]> = (() => {
  const m = new Map<string, SubmitDefinition[]>()
  for (const d of SUBMIT_OPERATIONS) {
    const list = m.get(d.path) ?? []
    list.push(d)
    m.set(d.path, list)
  }
  return m
})()

/** Query definition by path. */
export const queryByPath: ReadonlyMap<string, QueryDefinition> = new Map(
  (QUERY_OPERATIONS as readonly QueryDefinition[]).flatMap(
    (d): Array<[string, QueryDefinition]> => [d.path, ...(d.aliases ?? [])].map((p) => [p, d]),
  ),
)
