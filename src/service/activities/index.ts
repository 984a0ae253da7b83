import type { ActivityHandlerTable, SubmitType, VoteType } from './types.js'
import { handler as initOtpAuth } from './init_otp_auth.js'
import { handler as otpAuth } from './otp_auth.js'
import { handler as initOtp } from './init_otp.js'
import { handlerV1 as verifyOtpV1, handlerV2 as verifyOtpV2 } from './verify_otp.js'
import { handlerV1 as otpLoginV1, handlerV2 as otpLoginV2 } from './otp_login.js'
import { handler as stampLogin } from './stamp_login.js'
import { handler as createReadOnlySession } from './create_read_only_session.js'
import { handler as createReadWriteSession } from './create_read_write_session.js'
import { handler as emailAuth } from './email_auth.js'
import { handler as initUserEmailRecovery } from './init_user_email_recovery.js'
import { handler as recoverUser } from './recover_user.js'
import { handler as updateAllowedOrigins } from './update_allowed_origins.js'
import { handler as initFiatOnRamp } from './init_fiat_on_ramp.js'
import { handler as createFiatOnRampCredential } from './create_fiat_on_ramp_credential.js'
import { handler as updateFiatOnRampCredential } from './update_fiat_on_ramp_credential.js'
import { handler as deleteFiatOnRampCredential } from './delete_fiat_on_ramp_credential.js'
import { handler as createApiKeys, handlerV1 as createApiKeysV1 } from './create_api_keys.js'
import { handler as createAuthenticators } from './create_authenticators.js'
import { handler as createSubOrganization } from './create_sub_organization.js'
import { handler as createUsers, handlerV2 as createUsersV2 } from './create_users.js'
import { handler as initImportPrivateKey } from './init_import_private_key.js'
import { handler as importPrivateKey } from './import_private_key.js'
import { handler as exportPrivateKey } from './export_private_key.js'
import { handler as createPrivateKeyTag } from './create_private_key_tag.js'
import { handler as updatePrivateKeyTag } from './update_private_key_tag.js'
import { handler as deletePrivateKeyTags } from './delete_private_key_tags.js'
import { handler as createPrivateKeys, handlerV1 as createPrivateKeysV1 } from './create_private_keys.js'
import { handler as deletePrivateKeys } from './delete_private_keys.js'
import { handler as disablePrivateKey } from './disable_private_key.js'
import { handler as updateUser } from './update_user.js'
import { handler as updateUserName } from './update_user_name.js'
import { handler as updateUserEmail } from './update_user_email.js'
import { handler as updateUserPhoneNumber } from './update_user_phone_number.js'
import { handler as createApiOnlyUsers } from './create_api_only_users.js'
import { handler as createUserTag } from './create_user_tag.js'
import { handler as createInvitations } from './create_invitations.js'
import { handler as deleteInvitation } from './delete_invitation.js'
import { handler as acceptInvitation, handlerV1 as acceptInvitationV1 } from './accept_invitation.js'
import { handler as updateUserTag } from './update_user_tag.js'
import { handler as deleteUserTags } from './delete_user_tags.js'
import { handler as updateWallet } from './update_wallet.js'
import { handler as deleteWalletAccounts } from './delete_wallet_accounts.js'
import { handler as updateOrganizationName } from './update_organization_name.js'
import { handler as deleteSubOrganization } from './delete_sub_organization.js'
import { handler as deleteApiKeys } from './delete_api_keys.js'
import { handler as deleteAuthenticators } from './delete_authenticators.js'
import { handler as deleteUsers } from './delete_users.js'
import { handler as removeOrganizationFeature } from './remove_organization_feature.js'
import { handler as setOrganizationFeature } from './set_organization_feature.js'
import { handler as updateRootQuorum } from './update_root_quorum.js'
import { handler as createWallet } from './create_wallet.js'
import { handler as createWalletAccounts } from './create_wallet_accounts.js'
import { handler as deleteWallets } from './delete_wallets.js'
import { handler as signRawPayload, handlerV1 as signRawPayloadV1 } from './sign_raw_payload.js'
import { handler as signRawPayloads } from './sign_raw_payloads.js'
import { handler as signTransaction, handlerV1 as signTransactionV1 } from './sign_transaction.js'
import { handler as initImportWallet } from './init_import_wallet.js'
import { handler as importWallet } from './import_wallet.js'
import { handler as exportWallet } from './export_wallet.js'
import { handler as exportWalletAccount } from './export_wallet_account.js'
import { handler as ethSendTransaction } from './eth_send_transaction.js'
import { handler as ethSendRawTransaction } from './eth_send_raw_transaction.js'
import { handler as solSendTransaction } from './sol_send_transaction.js'
import { handler as createSmartContractInterface } from './create_smart_contract_interface.js'
import { handler as deleteSmartContractInterface } from './delete_smart_contract_interface.js'
import { handler as createPolicy, handlerV1 as createPolicyV1, handlerV2 as createPolicyV2 } from './create_policy.js'
import { handler as createPolicies } from './create_policies.js'
import { handlerV1 as updatePolicyV1, handlerV2 as updatePolicyV2 } from './update_policy.js'
import { handler as deletePolicy } from './delete_policy.js'
import { handler as deletePolicies } from './delete_policies.js'

/**
 * Activity type → handler: the closed table of what this service executes, one entry for every
 * type the registry declares (`tsc` refuses a missing one). approve and reject are the engine's.
 */
export const ACTIVITY_HANDLERS = {
  ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8: createSubOrganization,
  ACTIVITY_TYPE_CREATE_USERS_V3: createUsers,
  ACTIVITY_TYPE_CREATE_USERS_V2: createUsersV2,
  ACTIVITY_TYPE_CREATE_INVITATIONS: createInvitations,
  ACTIVITY_TYPE_DELETE_INVITATION: deleteInvitation,
  ACTIVITY_TYPE_ACCEPT_INVITATION_V2: acceptInvitation,
  ACTIVITY_TYPE_ACCEPT_INVITATION: acceptInvitationV1,
  ACTIVITY_TYPE_UPDATE_WALLET: updateWallet,
  ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS: deleteWalletAccounts,
  ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME: updateOrganizationName,
  ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION: deleteSubOrganization,
  ACTIVITY_TYPE_CREATE_USER_TAG: createUserTag,
  ACTIVITY_TYPE_UPDATE_USER_TAG: updateUserTag,
  ACTIVITY_TYPE_DELETE_USER_TAGS: deleteUserTags,
  ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2: createPrivateKeys,
  ACTIVITY_TYPE_CREATE_PRIVATE_KEYS: createPrivateKeysV1,
  ACTIVITY_TYPE_DELETE_PRIVATE_KEYS: deletePrivateKeys,
  ACTIVITY_TYPE_DISABLE_PRIVATE_KEY: disablePrivateKey,
  ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY: initImportPrivateKey,
  ACTIVITY_TYPE_IMPORT_PRIVATE_KEY: importPrivateKey,
  ACTIVITY_TYPE_EXPORT_PRIVATE_KEY: exportPrivateKey,
  ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG: createPrivateKeyTag,
  ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG: updatePrivateKeyTag,
  ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS: deletePrivateKeyTags,
  ACTIVITY_TYPE_UPDATE_USER: updateUser,
  ACTIVITY_TYPE_UPDATE_USER_NAME: updateUserName,
  ACTIVITY_TYPE_UPDATE_USER_EMAIL: updateUserEmail,
  ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER: updateUserPhoneNumber,
  ACTIVITY_TYPE_CREATE_API_ONLY_USERS: createApiOnlyUsers,
  ACTIVITY_TYPE_CREATE_USERS_V4: createUsers,
  ACTIVITY_TYPE_INIT_OTP_AUTH_V3: initOtpAuth,
  ACTIVITY_TYPE_OTP_AUTH: otpAuth,
  ACTIVITY_TYPE_INIT_OTP_V3: initOtp,
  ACTIVITY_TYPE_VERIFY_OTP: verifyOtpV1,
  ACTIVITY_TYPE_VERIFY_OTP_V2: verifyOtpV2,
  ACTIVITY_TYPE_OTP_LOGIN: otpLoginV1,
  ACTIVITY_TYPE_OTP_LOGIN_V2: otpLoginV2,
  ACTIVITY_TYPE_STAMP_LOGIN: stampLogin,
  ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2: createReadWriteSession,
  ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION: createReadOnlySession,
  ACTIVITY_TYPE_EMAIL_AUTH_V3: emailAuth,
  ACTIVITY_TYPE_EMAIL_AUTH_V2: emailAuth,
  ACTIVITY_TYPE_EMAIL_AUTH: emailAuth,
  ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2: initUserEmailRecovery,
  ACTIVITY_TYPE_RECOVER_USER: recoverUser,
  ACTIVITY_TYPE_UPDATE_ALLOWED_ORIGINS: updateAllowedOrigins,
  ACTIVITY_TYPE_INIT_FIAT_ON_RAMP: initFiatOnRamp,
  ACTIVITY_TYPE_CREATE_FIAT_ON_RAMP_CREDENTIAL: createFiatOnRampCredential,
  ACTIVITY_TYPE_UPDATE_FIAT_ON_RAMP_CREDENTIAL: updateFiatOnRampCredential,
  ACTIVITY_TYPE_DELETE_FIAT_ON_RAMP_CREDENTIAL: deleteFiatOnRampCredential,
  ACTIVITY_TYPE_CREATE_API_KEYS_V2: createApiKeys,
  ACTIVITY_TYPE_CREATE_API_KEYS: createApiKeysV1,
  ACTIVITY_TYPE_DELETE_API_KEYS: deleteApiKeys,
  ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2: createAuthenticators,
  ACTIVITY_TYPE_DELETE_AUTHENTICATORS: deleteAuthenticators,
  ACTIVITY_TYPE_DELETE_USERS: deleteUsers,
  ACTIVITY_TYPE_UPDATE_ROOT_QUORUM: updateRootQuorum,
  ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE: setOrganizationFeature,
  ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE: removeOrganizationFeature,
  ACTIVITY_TYPE_CREATE_WALLET: createWallet,
  ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS: createWalletAccounts,
  ACTIVITY_TYPE_DELETE_WALLETS: deleteWallets,
  ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2: signRawPayload,
  ACTIVITY_TYPE_SIGN_RAW_PAYLOAD: signRawPayloadV1,
  ACTIVITY_TYPE_SIGN_RAW_PAYLOADS: signRawPayloads,
  ACTIVITY_TYPE_SIGN_TRANSACTION_V2: signTransaction,
  ACTIVITY_TYPE_SIGN_TRANSACTION: signTransactionV1,
  ACTIVITY_TYPE_INIT_IMPORT_WALLET: initImportWallet,
  ACTIVITY_TYPE_IMPORT_WALLET: importWallet,
  ACTIVITY_TYPE_EXPORT_WALLET: exportWallet,
  ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT: exportWalletAccount,
  ACTIVITY_TYPE_ETH_SEND_TRANSACTION: ethSendTransaction,
  ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2: ethSendTransaction,
  ACTIVITY_TYPE_ETH_SEND_RAW_TRANSACTION: ethSendRawTransaction,
  ACTIVITY_TYPE_SOL_SEND_TRANSACTION: solSendTransaction,
  ACTIVITY_TYPE_SOL_SEND_TRANSACTION_V2: solSendTransaction,
  ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE: createSmartContractInterface,
  ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE: deleteSmartContractInterface,
  ACTIVITY_TYPE_CREATE_POLICY: createPolicyV1,
  ACTIVITY_TYPE_CREATE_POLICY_V2: createPolicyV2,
  ACTIVITY_TYPE_CREATE_POLICY_V3: createPolicy,
  ACTIVITY_TYPE_CREATE_POLICIES: createPolicies,
  ACTIVITY_TYPE_UPDATE_POLICY: updatePolicyV1,
  ACTIVITY_TYPE_UPDATE_POLICY_V2: updatePolicyV2,
  ACTIVITY_TYPE_DELETE_POLICY: deletePolicy,
  ACTIVITY_TYPE_DELETE_POLICIES: deletePolicies,
} satisfies ActivityHandlerTable<Exclude<SubmitType, VoteType>>
