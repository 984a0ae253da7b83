import type { QueryHandlerTable } from './types.js'
import { handler as listFiatOnRampCredentials } from './list_fiat_on_ramp_credentials.js'
import { handler as getOnRampTransactionStatus } from './get_on_ramp_transaction_status.js'
import { handler as getActivity } from './get_activity.js'
import { handler as getOrganizationConfigs } from './get_organization_configs.js'
import { handler as getUser } from './get_user.js'
import { handler as listActivities } from './list_activities.js'
import { handler as listUsers } from './list_users.js'
import { handler as whoami } from './whoami.js'
import { handler as listSuborgs } from './list_suborgs.js'
import { handler as listWallets } from './list_wallets.js'
import { handler as listWalletAccounts } from './list_wallet_accounts.js'
import { handler as getNonces } from './get_nonces.js'
import { handler as getSendTransactionStatus } from './get_send_transaction_status.js'
import { handler as getWallet } from './get_wallet.js'
import { handler as getWalletAddressBalances } from './get_wallet_address_balances.js'
import { handler as listSupportedAssets } from './list_supported_assets.js'
import { handler as listEthTransactionHistory } from './list_eth_transaction_history.js'
import { handler as listSolTransactionHistory } from './list_sol_transaction_history.js'
import { handler as getSmartContractInterface } from './get_smart_contract_interface.js'
import { handler as listSmartContractInterfaces } from './list_smart_contract_interfaces.js'
import { handler as getPolicy } from './get_policy.js'
import { handler as listPolicies } from './list_policies.js'
import { handler as getPolicyEvaluations } from './get_policy_evaluations.js'
import { handler as getApiKey } from './get_api_key.js'
import { handler as getApiKeys } from './get_api_keys.js'
import { handler as getAuthenticator } from './get_authenticator.js'
import { handler as getAuthenticators } from './get_authenticators.js'
import { handler as getWalletAccount } from './get_wallet_account.js'
import { handler as listUserTags } from './list_user_tags.js'
import { handler as getPrivateKey } from './get_private_key.js'
import { handler as listPrivateKeys } from './list_private_keys.js'
import { handler as listPrivateKeyTags } from './list_private_key_tags.js'
import { handler as getOrganization } from './get_organization.js'
import { handler as listAppProofs } from './list_app_proofs.js'
import { handler as getActivePolicies } from './get_active_policies.js'

/** Query name → handler: the closed table of queries this service answers, one per query the registry declares. */
export const QUERY_HANDLERS = {
  get_activity: getActivity,
  list_fiat_on_ramp_credentials: listFiatOnRampCredentials,
  get_on_ramp_transaction_status: getOnRampTransactionStatus,
  list_activities: listActivities,
  list_users: listUsers,
  get_user: getUser,
  whoami,
  list_suborgs: listSuborgs,
  get_organization_configs: getOrganizationConfigs,
  list_wallets: listWallets,
  list_wallet_accounts: listWalletAccounts,
  get_wallet: getWallet,
  get_wallet_address_balances: getWalletAddressBalances,
  get_send_transaction_status: getSendTransactionStatus,
  get_nonces: getNonces,
  list_supported_assets: listSupportedAssets,
  list_eth_transaction_history: listEthTransactionHistory,
  list_sol_transaction_history: listSolTransactionHistory,
  get_smart_contract_interface: getSmartContractInterface,
  list_smart_contract_interfaces: listSmartContractInterfaces,
  get_policy: getPolicy,
  list_policies: listPolicies,
  get_policy_evaluations: getPolicyEvaluations,
  get_api_key: getApiKey,
  get_api_keys: getApiKeys,
  get_authenticator: getAuthenticator,
  get_authenticators: getAuthenticators,
  get_wallet_account: getWalletAccount,
  list_user_tags: listUserTags,
  get_private_key: getPrivateKey,
  list_private_keys: listPrivateKeys,
  list_private_key_tags: listPrivateKeyTags,
  get_organization: getOrganization,
  list_app_proofs: listAppProofs,
  get_active_policies: getActivePolicies,
} satisfies QueryHandlerTable
