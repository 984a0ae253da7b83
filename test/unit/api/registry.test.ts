import { describe, expect, it } from 'vitest'
import { ACTIVITY_TYPES, ADDRESS_FORMATS, ActivityType } from '../../../src/api/enums.js'
import { QUERY_OPERATIONS, SUBMIT_OPERATIONS, queryByPath, submitByPath, submitByType } from '../../../src/api/registry.js'

const SUBMIT_NAMES = [
  // service-interface.md
  'create_authenticators',
  'recover_user',
  'create_sub_organization',
  'create_wallet_accounts',
  'init_fiat_on_ramp',
  'init_otp_auth',
  'otp_auth',
  'otp_login',
  'otp_login_v1',
  'init_user_email_recovery',
  'create_read_write_session',
  'create_fiat_on_ramp_credential',
  'update_fiat_on_ramp_credential',
  // wire-formats B4 and the service
  'create_wallet',
  'sign_raw_payload',
  'sign_raw_payloads',
  'sign_transaction',
  'stamp_login',
  'init_otp',
  'verify_otp',
  'verify_otp_v1',
  'approve_activity',
  'reject_activity',
  'init_import_wallet',
  'import_wallet',
  'export_wallet',
  'export_wallet_account',
  'update_root_quorum',
  'create_api_keys',
  'delete_api_keys',
  'create_users',
  'delete_users',
  'delete_authenticators',
  'set_organization_feature',
  'remove_organization_feature',
  'delete_wallets',
  'update_allowed_origins',
  'delete_fiat_on_ramp_credential',
  'eth_send_transaction',
  'eth_send_transaction_v1',
  'eth_send_raw_transaction',
  'sol_send_transaction',
  'sol_send_transaction_v1',
  'create_smart_contract_interface',
  'delete_smart_contract_interface',
  'create_policy',
  'create_policy_v1',
  'create_policy_v2',
  'create_policies',
  'update_policy_v1',
  'update_policy',
  'delete_policy',
  'delete_policies',
  // the rest of the organization
  'create_users_v3',
  'update_wallet',
  'delete_wallet_accounts',
  'update_organization_name',
  'delete_sub_organization',
  'create_user_tag',
  'update_user_tag',
  'delete_user_tags',
  'update_user',
  'update_user_name',
  'update_user_email',
  'update_user_phone_number',
  'create_api_only_users',
  'create_private_keys',
  'create_private_keys_v1',
  'delete_private_keys',
  'disable_private_key',
  'create_private_key_tag',
  'update_private_key_tag',
  'delete_private_key_tags',
  'init_import_private_key',
  'import_private_key',
  'export_private_key',
  'sign_raw_payload_v1',
  'sign_transaction_v1',
  'create_api_keys_v1',
  'create_users_v2',
  'create_invitations',
  'delete_invitation',
  'accept_invitation',
  'accept_invitation_v1',
  // older versions
  'create_sub_organization_v1',
  'create_sub_organization_v2',
  'create_sub_organization_v3',
  'create_sub_organization_v4',
  'create_sub_organization_v5',
  'create_sub_organization_v6',
  'create_sub_organization_v7',
  'create_authenticators_v1',
  'create_users_v1',
  'init_otp_auth_v1',
  'init_otp_auth_v2',
  'init_otp_v1',
  'init_otp_v2',
  'init_user_email_recovery_v1',
  'create_read_write_session_v1',
  // OAuth providers
  'delete_oauth_providers',
  'create_oauth_providers',
  'create_oauth_providers_v1',
  'oauth',
  'oauth_login',
  // read-only sessions and email auth
  'create_read_only_session',
  'email_auth',
  'email_auth_v2',
  'email_auth_v1',
  // webhooks
  'create_webhook_endpoint',
  'update_webhook_endpoint',
  'delete_webhook_endpoint',
  // gas sponsorship limits
  'upsert_gas_usage_config',
  // EIP-7702
  'eth_undelegate_7702',
  // IP allow-lists
  'set_ip_allowlist',
  'remove_ip_allowlist',
  // session profiles
  'create_session_profile',
  // MFA policies
  'create_mfa_policy',
  'update_mfa_policy',
  'delete_mfa_policy',
  // velocity controls
  'create_velocity_control',
  'delete_velocity_control',
  // OAuth 2.0 credentials
  'create_oauth2_credential',
  'update_oauth2_credential',
  'delete_oauth2_credential',
  'oauth2_authenticate',
  // secrets
  'init_import_secrets',
  'import_secrets',
  'export_secrets',
  'delete_secrets',
]
const QUERY_NAMES = [
  'get_oauth_providers',
  'get_organization_configs',
  'list_users',
  'list_activities',
  'get_activity',
  'get_send_transaction_status',
  'whoami',
  'list_wallets',
  'list_wallet_accounts',
  'get_wallet',
  'get_user',
  'list_fiat_on_ramp_credentials',
  'get_on_ramp_transaction_status',
  'list_suborgs',
  'list_verified_suborgs',
  'list_email_events',
  'get_wallet_address_balances',
  'list_supported_assets',
  'get_nonces',
  'list_eth_transaction_history',
  'list_sol_transaction_history',
  'get_smart_contract_interface',
  'list_smart_contract_interfaces',
  'get_policy',
  'list_policies',
  'get_policy_evaluations',
  // credentials, accounts, private keys, tags and the organization
  'get_api_key',
  'get_api_keys',
  'get_authenticator',
  'get_authenticators',
  'get_wallet_account',
  'list_user_tags',
  'get_private_key',
  'list_private_keys',
  'list_private_key_tags',
  'get_organization',
  'list_app_proofs',
  'get_active_policies',
  // webhooks (list_webhook_deliveries is Sigil only)
  'list_webhook_endpoints',
  'list_webhook_deliveries',
  // gas sponsorship
  'get_gas_usage',
  // IP allow-lists
  'get_ip_allowlist',
  // OAuth 2.0 credentials
  'get_oauth2_credential',
  'list_oauth2_credentials',
  // session profiles
  'get_session_profile',
  'get_session_profiles',
  // MFA policies
  'get_mfa_policy',
  'get_mfa_policies',
  'get_mfa_status',
  // velocity controls
  'get_velocity_control',
  'list_velocity_controls',
  // secrets
  'list_secrets',
]

const EXPECTED_TYPES: Record<string, string> = {
  create_sub_organization: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
  init_otp_auth: 'ACTIVITY_TYPE_INIT_OTP_AUTH_V3',
  create_read_write_session: 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2',
  otp_login: 'ACTIVITY_TYPE_OTP_LOGIN_V2',
  otp_login_v1: 'ACTIVITY_TYPE_OTP_LOGIN',
  verify_otp: 'ACTIVITY_TYPE_VERIFY_OTP_V2',
  verify_otp_v1: 'ACTIVITY_TYPE_VERIFY_OTP',
  sign_raw_payload: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
  sign_transaction: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
  init_otp: 'ACTIVITY_TYPE_INIT_OTP_V3',
  create_api_keys: 'ACTIVITY_TYPE_CREATE_API_KEYS_V2',
  create_users: 'ACTIVITY_TYPE_CREATE_USERS_V4',
  create_users_v3: 'ACTIVITY_TYPE_CREATE_USERS_V3',
  create_private_keys: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2',
  create_authenticators: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
  init_user_email_recovery: 'ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2',
  create_policy: 'ACTIVITY_TYPE_CREATE_POLICY_V3',
  accept_invitation: 'ACTIVITY_TYPE_ACCEPT_INVITATION_V2',
  accept_invitation_v1: 'ACTIVITY_TYPE_ACCEPT_INVITATION',
  create_read_only_session: 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION',
  email_auth: 'ACTIVITY_TYPE_EMAIL_AUTH_V3',
  email_auth_v2: 'ACTIVITY_TYPE_EMAIL_AUTH_V2',
  email_auth_v1: 'ACTIVITY_TYPE_EMAIL_AUTH',
}

describe('enums', () => {
  it('has exactly the 36 address formats, unique', () => {
    expect(ADDRESS_FORMATS).toHaveLength(36)
    expect(new Set(ADDRESS_FORMATS).size).toBe(36)
    expect(ADDRESS_FORMATS).toContain('ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR')
    expect(ADDRESS_FORMATS).toContain('ADDRESS_FORMAT_TON_V5R1')
  })

  it('activity types are unique, prefixed, and include the versioned ones', () => {
    expect(new Set(ACTIVITY_TYPES).size).toBe(ACTIVITY_TYPES.length)
    for (const t of ACTIVITY_TYPES) expect(t.startsWith('ACTIVITY_TYPE_')).toBe(true)
    for (const v of [2, 3, 4, 5, 6, 7, 8]) expect(ACTIVITY_TYPES).toContain(`ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V${v}`)
    expect(ActivityType.safeParse('ACTIVITY_TYPE_INIT_OTP_V3').success).toBe(true)
    expect(ActivityType.safeParse('ACTIVITY_TYPE_NOPE').success).toBe(false)
  })
})

describe('registry completeness', () => {
  it('defines every named submit and query operation', () => {
    expect(SUBMIT_OPERATIONS.map((d) => d.name).sort()).toEqual([...SUBMIT_NAMES].sort())
    expect(QUERY_OPERATIONS.map((d) => d.name).sort()).toEqual([...QUERY_NAMES].sort())
  })

  it('uses the expected activity type versions', () => {
    for (const [name, type] of Object.entries(EXPECTED_TYPES)) {
      expect(SUBMIT_OPERATIONS.find((d) => d.name === name)?.type).toBe(type)
    }
  })

  it('(path, type) pairs and types are unique; keys non-empty; paths well formed', () => {
    const pairs = SUBMIT_OPERATIONS.map((d) => `${d.path} ${d.type}`)
    expect(new Set(pairs).size).toBe(pairs.length)
    expect(submitByType.size).toBe(SUBMIT_OPERATIONS.length)
    for (const d of SUBMIT_OPERATIONS) {
      expect(d.intentKey.length).toBeGreaterThan(0)
      expect(d.resultKey.length).toBeGreaterThan(0)
      expect(d.path).toMatch(/^\/public\/v1\/submit\/[a-z0-9_]+$/)
      expect(ActivityType.safeParse(d.type).success).toBe(true)
      expect(submitByType.get(d.type)).toBe(d)
    }
    for (const d of QUERY_OPERATIONS) {
      // the path names the query, in the hosted service's spelling where Sigil's differs (kept as an alias)
      expect([d.path, ...(d.aliases ?? [])]).toContain(`/public/v1/query/${d.name}`)
      for (const p of [d.path, ...(d.aliases ?? [])]) expect(queryByPath.get(p)).toBe(d)
      // every query request requires organizationId
      expect(d.request.safeParse({}).success).toBe(false)
    }
  })

  it('shares one path between the two versions of verify_otp and otp_login', () => {
    expect(
      submitByPath
        .get('/public/v1/submit/verify_otp')
        ?.map((d) => d.type)
        .sort(),
    ).toEqual(['ACTIVITY_TYPE_VERIFY_OTP', 'ACTIVITY_TYPE_VERIFY_OTP_V2'])
    expect(
      submitByPath
        .get('/public/v1/submit/otp_login')
        ?.map((d) => d.intentKey)
        .sort(),
    ).toEqual(['otpLoginIntent', 'otpLoginIntentV2'])
  })

  it('uses the documented intent and result keys', () => {
    const d = submitByType.get('ACTIVITY_TYPE_INIT_OTP_AUTH_V3')
    expect([d?.intentKey, d?.resultKey]).toEqual(['initOtpAuthIntentV3', 'initOtpAuthResultV2'])
    const s = submitByType.get('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8')
    expect([s?.intentKey, s?.resultKey]).toEqual(['createSubOrganizationIntentV8', 'createSubOrganizationResultV8'])
  })
})
