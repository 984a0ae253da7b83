/**
 * Every policy example of the hosted service's policy documentation (github.com/tkhq/docs, commit
 * c8289df27996be9941f7ed87eb93649bf3eb2bac, pages under features/policies/ and
 * snippets/shared/policy-engine), with its page, the expressions as published (placeholders such as
 * `<USER_ID>` filled with the concrete values below), a context it must apply to (`match`) and a
 * change of that context after which it must not (`miss`: dotted paths → new values).
 * Identical policies published on several pages appear once with every page listed.
 */
import { activityKind, activityResourceAction } from '../../src/service/policy/activity.js'
import type { PolicyContext, PolicyDynamic } from '../../src/service/policy/types/namespaces.js'

export type PolicyExample = {
  pages: string[]
  name: string
  effect: 'EFFECT_ALLOW' | 'EFFECT_DENY'
  condition?: string
  consensus?: string
  time?: string
  /** A context the policy applies to: ALLOW → OUTCOME_ALLOW, DENY → OUTCOME_DENY_EXPLICIT. */
  match: PolicyContext
  /** Paths into `match` (dots, list indexes as numbers) and their new values: the policy no longer applies. */
  miss: Record<string, unknown>
  /** Where the fixture departs from the page's text, and why. */
  note?: string
}

export const ALICE = { id: 'user-alice', tags: ['tag-ops'], email: 'alice@example.com', alias: 'alice' }
export const BOB = { id: 'user-bob', tags: [] as string[], email: 'bob@example.com', alias: 'bob' }
const CAROL = { id: 'user-carol', tags: ['tag-ops'], email: 'carol@example.com', alias: 'carol' }
const SECURITY = { id: 'user-sec', tags: ['tag-security'], email: 'sec@example.com', alias: 'sec' }
export const API_KEY = { id: 'cred-api', user_id: 'user-alice', type: 'CREDENTIAL_TYPE_API_KEY_P256', public_key: '02ffff' }
const PASSKEY = { id: 'cred-passkey', user_id: 'user-alice', type: 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR', credential_id: 'cred-id', public_key: '04eeee' }
const WALLET = { id: 'wallet-1', imported: false, exported: false, label: 'main' }
const PRIVATE_KEY = { id: 'pk-1', tags: ['tempo-enabled'], imported: false, exported: false, label: 'key' }

const ALLOWED = '0x1111111111111111111111111111111111111111'
const CONTRACT = '0x2222222222222222222222222222222222222222'
const SIGNER = '0x5555555555555555555555555555555555555555'
const TOKEN_CONTRACT = '0x6666666666666666666666666666666666666666'
const TREASURY = '0x7777777777777777777777777777777777777777'
const OTHER_EVM = '0x9999999999999999999999999999999999999999'
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const USDT = '0xdAC17F958D2ee523a2206206994597C13D831ec7'
const ERC20_TRANSFER = `0xa9059cbb${'0'.repeat(24)}${'1'.repeat(40)}${'0'.repeat(63)}1`
const ERC20_APPROVE = `0x095ea7b3${'0'.repeat(24)}${'1'.repeat(40)}${'0'.repeat(63)}1`

const SYSTEM_PROGRAM = '11111111111111111111111111111111'
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
const JUPITER = 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4'
const SENDER = 'SendSo1ana1111111111111111111111111111111'
const RECIPIENT = 'RecipSo1ana111111111111111111111111111111'
const OTHER_SOL = 'OtherSo1ana111111111111111111111111111111'
const TOKEN_ACCOUNT = 'TokenAcct111111111111111111111111111111111'

/** An `activity` as the engine builds it: type, kind, resource and action from the docs' tables, params. */
export function act(type: string, params: { [key: string]: PolicyDynamic } = {}) {
  return { type, kind: activityKind(type), ...activityResourceAction(type), params }
}

/** The base context: Alice (tag-ops) approving with an API key, signing an Ethereum transaction, 2026-03-10 15:00 UTC. */
function ctx(over: Partial<PolicyContext>): PolicyContext {
  return {
    approvers: [ALICE],
    credentials: [API_KEY],
    activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_ETHEREUM' }),
    now: new Date('2026-03-10T15:00:00Z'),
    ...over,
  }
}

function ethTx(over: Record<string, PolicyDynamic>) {
  return {
    from: SIGNER,
    to: OTHER_EVM,
    data: '0x',
    value: 1_000_000_000_000_000_000n,
    gas: 21_000n,
    gas_price: 30_000_000_000n,
    chain_id: 1n,
    nonce: 0n,
    max_fee_per_gas: 30_000_000_000n,
    max_priority_fee_per_gas: 1_000_000_000n,
    type: 'TYPE_2',
    ...over,
  }
}

function eip712(name: string, primaryType: string, message: { [key: string]: PolicyDynamic }) {
  return { primary_type: primaryType, domain: { name, version: '1', chain_id: 1n, verifying_contract: CONTRACT }, message }
}

function permit2(permitted: { token: string; amount: bigint }[]) {
  return eip712('Permit2', 'PermitBatchTransferFrom', { permitted, spender: ALLOWED, nonce: 0n, deadline: 1_234_567_890n })
}

const SOL_TRANSFER = { from: SENDER, to: RECIPIENT, amount: 1_000n }
const SOL_INSTRUCTION = {
  program_key: SYSTEM_PROGRAM,
  accounts: [
    { account_key: 'AddrSo1ana11111111111111111111111111111111', signer: true, writable: true },
    { account_key: RECIPIENT, signer: false, writable: true },
  ],
  instruction_data_hex: '02000000e803000000000000',
  address_table_lookups: [],
}
function solTx() {
  return {
    account_keys: [SENDER, RECIPIENT, SYSTEM_PROGRAM],
    program_keys: [SYSTEM_PROGRAM],
    instructions: [SOL_INSTRUCTION],
    transfers: [SOL_TRANSFER],
    recent_blockhash: 'Blockhash1111111111111111111111111111111111',
    spl_transfers: [],
    address_table_lookups: [],
  }
}
const SPL_TRANSFER = {
  from: TOKEN_ACCOUNT,
  to: TOKEN_ACCOUNT,
  amount: 500n,
  owner: 'OwnerSo1ana111111111111111111111111111111',
  signers: [SIGNER],
  token_mint: 'Mint1111111111111111111111111111111111111',
}
function splTx() {
  return {
    ...solTx(),
    program_keys: [TOKEN_PROGRAM],
    instructions: [{ ...SOL_INSTRUCTION, program_key: TOKEN_PROGRAM, instruction_data_hex: '0cf401000000000000' }],
    transfers: [],
    spl_transfers: [SPL_TRANSFER],
  }
}

function btcTx() {
  return {
    version: '2',
    inputs: [{ tx_id: 'utxo-tx-id', vout: 1n, sequence: 4_294_967_293n }],
    outputs: [
      { value: 1_000n, script_pubkey: '0014aa', address: 'bc1qallowed', address_type: 'p2wpkh' },
      { value: 500n, script_pubkey: '0014aa', address: 'bc1qallowed', address_type: 'p2wpkh' },
    ],
    locktime: { amount: 0n, type: 'Blocks' },
    fee: 5_000n,
  }
}

function tronTx(contract: { [key: string]: PolicyDynamic }) {
  return { ref_block_bytes: 'ab12', ref_block_hash: 'cd34', expiration: 1n, timestamp: 1n, data: '', fee_limit: 0n, contract: [{ permission_id: 0n, ...contract }] }
}

const erc20Transfer = (to: string) => `0xa9059cbb${'0'.repeat(24)}${to}${'0'.repeat(63)}1`
const erc20TransferFrom = (from: string, to: string) => `0x23b872dd${'0'.repeat(24)}${from}${'0'.repeat(24)}${to}${'0'.repeat(63)}1`
const TEMPO_CALL = { to: '0x40f008f4c17075EFcA092aE650655f6693AECEd0', input: erc20Transfer('d'.repeat(40)), function_signature: '0xa9059cbb' }
function tempoTx() {
  return {
    chain_id: 42_431n,
    from: SIGNER,
    nonce: 0n,
    gas_limit: 50_000n,
    max_fee_per_gas: 10_000_000_000n,
    max_priority_fee_per_gas: 1_000_000_000n,
    fee_token: USDT,
    valid_before: 0n,
    valid_after: 0n,
    calls: [TEMPO_CALL],
  }
}

const signingLeaf = (leafId: string) => ({ type: 'signing_leaf', signing_leaf: { leaf_id: leafId }, static_deposit: { index: 0n } })
const staticDeposit = (index: bigint) => ({ type: 'static_deposit', signing_leaf: { leaf_id: '' }, static_deposit: { index } })
const frost = (derivation: { [key: string]: PolicyDynamic }, adaptor: string) => ({
  derivation,
  message: 'msg',
  verifying_key: 'vk',
  operator_commitments: [{ id: 'op-1', hiding: 'h', binding: 'b' }],
  adaptor_public_key: adaptor,
})
function sparkTransfer() {
  return {
    transfer_id: 't-1',
    leaves: [
      {
        leaf_id: 'leaf-1',
        old_leaf_derivation: signingLeaf('leaf-1'),
        new_leaf_derivation: signingLeaf('leaf-1'),
        refund_signature: '',
        direct_refund_signature: '',
        direct_from_cpfp_refund_signature: '',
      },
    ],
    threshold: 2n,
    operator_recipients: [{ operator_id: 'op-1', encryption_public_key: 'opkey-1' }],
    receiver_public_key: 'recv-1',
  }
}

export const POLICY_EXAMPLES: PolicyExample[] = [
  {
    pages: ["features/policies/examples/access-control"],
    name: "Allow user <USER_ID> to create wallets",
    effect: 'EFFECT_ALLOW',
    condition: "activity.resource == 'WALLET' && activity.action == 'CREATE'",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_CREATE_WALLET') }),
    miss: { approvers: [BOB] },
  },
  {
    pages: ["features/policies/examples/access-control"],
    name: "Allow user_tag <USER_TAG_ID> to create users",
    effect: 'EFFECT_ALLOW',
    condition: "activity.resource == 'USER' && activity.action == 'CREATE'",
    consensus: "approvers.any(user, user.tags.contains('tag-ops'))",
    match: ctx({ activity: act('ACTIVITY_TYPE_CREATE_USERS_V3') }),
    miss: { activity: act('ACTIVITY_TYPE_CREATE_WALLET') },
  },
  {
    pages: ["features/policies/examples/access-control"],
    name: "Require two users with user_tag <USER_TAG_ID> to create policies",
    effect: 'EFFECT_ALLOW',
    condition: "activity.resource == 'POLICY' && activity.action == 'CREATE'",
    consensus: "approvers.filter(user, user.tags.contains('tag-ops')).count() >= 2",
    match: ctx({ activity: act('ACTIVITY_TYPE_CREATE_POLICY_V3'), approvers: [ALICE, CAROL] }),
    miss: { approvers: [ALICE] },
  },
  {
    pages: ["features/policies/examples/access-control"],
    name: "Require 1 security + 2 ops approvers for policy changes",
    effect: 'EFFECT_ALLOW',
    condition: "activity.resource == 'POLICY' && (activity.action == 'CREATE' || activity.action == 'UPDATE' || activity.action == 'DELETE')",
    consensus: "approvers.any(user, user.tags.contains('tag-security') || user.tags.contains('tag-ops')) && (approvers.filter(user, user.tags.contains('tag-security')).count() >= 1 && approvers.filter(user, user.tags.contains('tag-ops')).count() >= 2)",
    match: ctx({ activity: act('ACTIVITY_TYPE_UPDATE_POLICY_V2'), approvers: [SECURITY, ALICE, CAROL] }),
    miss: { approvers: [SECURITY, ALICE] },
  },
  {
    pages: ["features/policies/examples/access-control"],
    name: "Only user_tag <USER_TAG_ID> can take actions",
    effect: 'EFFECT_DENY',
    condition: "activity.action == 'DELETE'",
    consensus: "approvers.any(user, user.tags.contains('tag-ops'))",
    match: ctx({ activity: act('ACTIVITY_TYPE_DELETE_USERS', { user_ids: ['user-bob'] }) }),
    miss: { approvers: [BOB] },
  },
  {
    pages: ["features/policies/examples/access-control"],
    name: "Allow user <USER_ID> to create a sub-org",
    effect: 'EFFECT_ALLOW',
    condition: "activity.resource == 'ORGANIZATION' && activity.action == 'CREATE'",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7') }),
    miss: { activity: act('ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION') },
  },
  {
    pages: ["features/policies/examples/access-control"],
    name: "Allow user <USER_ID> to initiate auth type activities",
    effect: 'EFFECT_ALLOW',
    condition: "activity.resource == 'AUTH' && activity.action == 'CREATE'",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_OTP_LOGIN_V2', { session_profile_id: '' }) }),
    miss: { activity: act('ACTIVITY_TYPE_VERIFY_OTP_V2') },
  },
  {
    pages: ["features/policies/examples/access-control"],
    name: "Allow user <USER_ID> to initiate and verify generic OTP activities",
    effect: 'EFFECT_ALLOW',
    condition: "activity.resource in ['AUTH', 'OTP'] && activity.action in ['CREATE','VERIFY']",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_VERIFY_OTP_V2') }),
    miss: { activity: act('ACTIVITY_TYPE_CREATE_WALLET') },
  },
  {
    pages: ["features/policies/examples/access-control"],
    name: "Allow user <USER_ID> to perform create read write session v2",
    effect: 'EFFECT_ALLOW',
    condition: "activity.type == 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2'",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2') }),
    miss: { activity: act('ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION') },
  },
  {
    pages: ["features/policies/examples/access-control"],
    name: "Allow user <USER_ID> to create read write sessions (any version)",
    effect: 'EFFECT_ALLOW',
    condition: "activity.kind == 'CREATE_READ_WRITE_SESSION'",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION') }),
    miss: { activity: act('ACTIVITY_TYPE_STAMP_LOGIN', { session_profile_id: '' }) },
  },
  {
    pages: ["features/policies/examples/access-control"],
    name: "Allow user <USER_ID> to sign transactions (any version)",
    effect: 'EFFECT_ALLOW',
    condition: "activity.kind == 'SIGN_TRANSACTION'",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({}),
    miss: { activity: act('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { hash_function: 'HASH_FUNCTION_KECCAK256', encoding: 'PAYLOAD_ENCODING_HEXADECIMAL' }) },
  },
  {
    pages: ["features/policies/examples/access-control"],
    name: "Allow signing with only passkeys",
    effect: 'EFFECT_ALLOW',
    condition: "activity.type == 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2'",
    consensus: "credentials.any(credential, credential.type == 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR')",
    match: ctx({ credentials: [PASSKEY] }),
    miss: { credentials: [API_KEY] },
  },
  {
    pages: ["features/policies/examples/access-control"],
    name: "Allow signing with only passkeys",
    effect: 'EFFECT_ALLOW',
    condition: "activity.type == 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2'",
    consensus: "credentials.any(credential, credential.public_key == '02abcdef')",
    match: ctx({ credentials: [{ ...API_KEY, public_key: '02abcdef' }] }),
    miss: { credentials: [API_KEY] },
  },
  {
    pages: ["features/policies/examples/access-control"],
    name: "Allow exporting only wallet account <WALLET_ACCOUNT_ADDRESS>",
    effect: 'EFFECT_ALLOW',
    condition: "activity.action == 'EXPORT' && wallet_account.address == '0x8888888888888888888888888888888888888888'",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT', { target_public_key: '04aa' }), wallet_account: { address: '0x8888888888888888888888888888888888888888' } }),
    miss: { 'wallet_account.address': '0x9999999999999999999999999999999999999999' },
  },
  {
    pages: ["features/policies/examples/bitcoin"],
    name: "Enable bitcoin transactions to be sent to <BITCOIN_ADDRESS>",
    effect: 'EFFECT_ALLOW',
    condition: "bitcoin.tx.outputs.all(o, o.address == 'bc1qallowed')",
    match: ctx({ bitcoin: { tx: btcTx() } }),
    miss: { 'bitcoin.tx.outputs.1.address': 'bc1qother' },
  },
  {
    pages: ["features/policies/examples/bitcoin"],
    name: "Allow signing bitcoin transactions only if all outputs have value < 200000 satoshis",
    effect: 'EFFECT_ALLOW',
    condition: "bitcoin.tx.outputs.all(o, o.value < 200000)",
    match: ctx({ bitcoin: { tx: btcTx() } }),
    miss: { 'bitcoin.tx.outputs.0.value': 300_000n },
  },
  {
    pages: ["features/policies/examples/bitcoin"],
    name: "Only allow spending of a single bitcoin transaction input",
    effect: 'EFFECT_ALLOW',
    condition: "bitcoin.tx.inputs.all(i, i.tx_id == 'utxo-tx-id' && i.vout == 1)",
    match: ctx({ bitcoin: { tx: btcTx() } }),
    miss: { 'bitcoin.tx.inputs.0.vout': 0n },
  },
  {
    pages: ["features/policies/examples/bitcoin"],
    name: "Allow signing Bitcoin transactions only if fee is under 10000 satoshis",
    effect: 'EFFECT_ALLOW',
    condition: "bitcoin.tx.fee <= 10000",
    match: ctx({ bitcoin: { tx: btcTx() } }),
    miss: { 'bitcoin.tx.fee': 20_000n },
  },
  {
    pages: ["features/policies/examples/bitcoin"],
    name: "Deny signing Bitcoin transactions if fee exceeds 50000 satoshis",
    effect: 'EFFECT_DENY',
    condition: "bitcoin.tx.fee > 50000",
    match: ctx({ bitcoin: { tx: { ...btcTx(), fee: 60_000n } } }),
    miss: { 'bitcoin.tx.fee': 5_000n },
  },
  {
    pages: ["features/policies/examples/ethereum", "features/policies/smart-contract-interfaces", "features/policies/smart-contract-interfaces"],
    name: "Limit WETH transfers",
    effect: 'EFFECT_ALLOW',
    condition: "eth.tx.contract_call_args['wad'] < 1000000000000000000 && eth.tx.contract_call_args['dst'] == '0x08d2b0a37F869FF76BACB5Bab3278E26ab7067B7'",
    match: ctx({ eth: { tx: ethTx({ contract_call_args: { wad: 500_000_000_000_000_000n, dst: '0x08d2b0a37F869FF76BACB5Bab3278E26ab7067B7' } }) } }),
    miss: { 'eth.tx.contract_call_args.wad': 2_000_000_000_000_000_000n },
  },
  {
    pages: ["features/policies/examples/ethereum"],
    name: "Allow only transfer calls to a contract",
    effect: 'EFFECT_ALLOW',
    condition: "eth.tx.to == '0x2222222222222222222222222222222222222222' && eth.tx.function_name == 'transfer'",
    match: ctx({ eth: { tx: ethTx({ to: CONTRACT, function_name: 'transfer' }) } }),
    miss: { 'eth.tx.function_name': 'approve' },
  },
  {
    pages: ["features/policies/examples/ethereum"],
    name: "Allow executeBatch with exactly 2 calls",
    effect: 'EFFECT_ALLOW',
    condition: "eth.tx.function_name == 'executeBatch' && eth.tx.contract_call_args['calls'].count() == 2",
    match: ctx({ eth: { tx: ethTx({ function_name: 'executeBatch', contract_call_args: { calls: [[CONTRACT, 0n, '0x'], [CONTRACT, 0n, '0x']] } }) } }),
    miss: { 'eth.tx.contract_call_args.calls': [[CONTRACT, 0n, '0x']] },
  },
  {
    pages: ["features/policies/examples/ethereum"],
    name: "Allow executeBatch to whitelisted contract only",
    effect: 'EFFECT_ALLOW',
    condition: "eth.tx.function_name == 'executeBatch' && eth.tx.contract_call_args['calls'].all(call, call[0] == '0x2222222222222222222222222222222222222222' && call[1] == 0)",
    match: ctx({ eth: { tx: ethTx({ function_name: 'executeBatch', contract_call_args: { calls: [[CONTRACT, 0n, '0x'], [CONTRACT, 0n, '0x']] } }) } }),
    miss: { 'eth.tx.contract_call_args.calls.1.1': 5n },
  },
  {
    pages: ["features/policies/examples/ethereum"],
    name: "Allow executeBatch \u2014 max 2 calls to whitelisted contract",
    effect: 'EFFECT_ALLOW',
    condition: "eth.tx.function_name == 'executeBatch' && eth.tx.contract_call_args['calls'].count() <= 2 && eth.tx.contract_call_args['calls'].all(call, call[0] == '0x2222222222222222222222222222222222222222' && call[1] == 0)",
    match: ctx({ eth: { tx: ethTx({ function_name: 'executeBatch', contract_call_args: { calls: [[CONTRACT, 0n, '0x'], [CONTRACT, 0n, '0x']] } }) } }),
    miss: { 'eth.tx.contract_call_args.calls': [[CONTRACT, 0n, '0x'], [CONTRACT, 0n, '0x'], [CONTRACT, 0n, '0x']] },
  },
  {
    pages: ["features/policies/examples/ethereum"],
    name: "Allow disperse to whitelisted recipients only",
    effect: 'EFFECT_ALLOW',
    condition: "eth.tx.function_name == 'disperse' && eth.tx.contract_call_args['recipients'].all(addr, addr in ['0xa1', '0xa2', '0xa3'])",
    match: ctx({ eth: { tx: ethTx({ function_name: 'disperse', contract_call_args: { recipients: ['0xa1', '0xa3'], values: [1n, 2n] } }) } }),
    miss: { 'eth.tx.contract_call_args.recipients': ['0xa1', '0xbad'] },
  },
  {
    pages: ["features/policies/examples/ethereum"],
    name: "Enable ERC-20 transfers for <CONTRACT_ADDRESS>",
    effect: 'EFFECT_ALLOW',
    condition: "eth.tx.to == '0x2222222222222222222222222222222222222222' && eth.tx.data[0..10] == '0xa9059cbb'",
    match: ctx({ eth: { tx: ethTx({ to: CONTRACT, data: ERC20_TRANSFER }) } }),
    miss: { 'eth.tx.data': ERC20_APPROVE },
  },
  {
    pages: ["features/policies/examples/ethereum"],
    name: "Allow signing ethereum sepolia transactions",
    effect: 'EFFECT_ALLOW',
    condition: "eth.tx.chain_id == 11155111",
    match: ctx({ eth: { tx: ethTx({ chain_id: 11_155_111n }) } }),
    miss: { 'eth.tx.chain_id': 1n },
  },
  {
    pages: ["features/policies/examples/ethereum"],
    name: "Allow signing Ethereum transactions with an early nonce",
    effect: 'EFFECT_ALLOW',
    condition: "eth.tx.nonce <= 3",
    match: ctx({ eth: { tx: ethTx({ nonce: 2n }) } }),
    miss: { 'eth.tx.nonce': 4n },
  },
  {
    pages: ["features/policies/examples/ethereum"],
    name: "Allow signing of EIP-712 Payloads for Hyperliquid `ApproveAgent` operations",
    effect: 'EFFECT_ALLOW',
    condition: "eth.eip_712.domain.name == 'HyperliquidSignTransaction' && eth.eip_712.primary_type == 'HyperliquidTransaction:ApproveAgent' && activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { hash_function: 'HASH_FUNCTION_NO_OP', encoding: 'PAYLOAD_ENCODING_EIP712' }), eth: { eip_712: eip712('HyperliquidSignTransaction', 'HyperliquidTransaction:ApproveAgent', { agentAddress: '0xabc', agentName: 'bot' }) } }),
    miss: { 'eth.eip_712.primary_type': 'HyperliquidTransaction:Withdraw' },
  },
  {
    pages: ["features/policies/examples/ethereum"],
    name: "Allow Permit2 batch only if first token is USDC",
    effect: 'EFFECT_ALLOW',
    condition: "eth.eip_712.domain.name == 'Permit2' && eth.eip_712.primary_type == 'PermitBatchTransferFrom' && eth.eip_712.message['permitted'][0]['token'] == '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' && activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { hash_function: 'HASH_FUNCTION_NO_OP', encoding: 'PAYLOAD_ENCODING_EIP712' }), eth: { eip_712: permit2([{ token: USDC, amount: 1_000_000_000n }]) } }),
    miss: { 'eth.eip_712.message.permitted.0.token': USDT },
  },
  {
    pages: ["features/policies/examples/ethereum"],
    name: "Allow Permit2 batch only for USDC",
    effect: 'EFFECT_ALLOW',
    condition: "eth.eip_712.domain.name == 'Permit2' && eth.eip_712.primary_type == 'PermitBatchTransferFrom' && eth.eip_712.message['permitted'].all(p, p['token'] == '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48') && activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { hash_function: 'HASH_FUNCTION_NO_OP', encoding: 'PAYLOAD_ENCODING_EIP712' }), eth: { eip_712: permit2([{ token: USDC, amount: 1n }, { token: USDC, amount: 2n }]) } }),
    miss: { 'eth.eip_712.message.permitted.1.token': USDT },
  },
  {
    pages: ["features/policies/examples/ethereum"],
    name: "Allow Permit2 batches with <= 2 token permissions",
    effect: 'EFFECT_ALLOW',
    condition: "eth.eip_712.domain.name == 'Permit2' && eth.eip_712.primary_type == 'PermitBatchTransferFrom' && eth.eip_712.message['permitted'].count() <= 2 && activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { hash_function: 'HASH_FUNCTION_NO_OP', encoding: 'PAYLOAD_ENCODING_EIP712' }), eth: { eip_712: permit2([{ token: USDC, amount: 1n }, { token: USDT, amount: 2n }]) } }),
    miss: { 'eth.eip_712.message.permitted': [{ token: USDC, amount: 1n }, { token: USDT, amount: 2n }, { token: USDC, amount: 3n }] },
  },
  {
    pages: ["features/policies/examples/ethereum"],
    name: "Allow USDC token permissions below 100 USDC",
    effect: 'EFFECT_ALLOW',
    condition: "eth.eip_712.domain.name == 'Permit2' && eth.eip_712.primary_type == 'PermitBatchTransferFrom' && eth.eip_712.message['permitted'].any(p, p['token'] == '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' && p['amount'] < 100000000) && activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { hash_function: 'HASH_FUNCTION_NO_OP', encoding: 'PAYLOAD_ENCODING_EIP712' }), eth: { eip_712: permit2([{ token: USDT, amount: 5n }, { token: USDC, amount: 50_000_000n }]) } }),
    miss: { 'eth.eip_712.message.permitted.1.amount': 1_000_000_000n },
    note: "the docs' sample message carries amount as the JSON string \"1000000000\"; the context builder types uint256 message fields as int (bigint), as `p['amount'] < 100000000` requires",
  },
  {
    pages: ["features/policies/examples/ethereum", "features/policies/language"],
    name: "Deny NO_OP hash signing",
    effect: 'EFFECT_DENY',
    condition: "activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2' && activity.params.hash_function == 'HASH_FUNCTION_NO_OP' && activity.params.encoding != 'PAYLOAD_ENCODING_EIP712'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { hash_function: 'HASH_FUNCTION_NO_OP', encoding: 'PAYLOAD_ENCODING_HEXADECIMAL' }) }),
    miss: { 'activity.params.encoding': 'PAYLOAD_ENCODING_EIP712' },
  },
  {
    pages: ["features/policies/examples/ethereum"],
    name: "Allow signing of EIP-712 payloads for EIP-3009 Transfers for USD Coin",
    effect: 'EFFECT_ALLOW',
    condition: "eth.eip_712.domain.name == 'USD Coin' && eth.eip_712.primary_type == 'TransferWithAuthorization' && activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { hash_function: 'HASH_FUNCTION_NO_OP', encoding: 'PAYLOAD_ENCODING_EIP712' }), eth: { eip_712: eip712('USD Coin', 'TransferWithAuthorization', { from: '0x1', to: '0x2', value: 1n }) } }),
    miss: { 'eth.eip_712.primary_type': 'Permit' },
  },
  {
    pages: ["features/policies/examples/ethereum"],
    name: "Allow signing of EIP-712 payloads for EIP-2612 Permits for USD Coin",
    effect: 'EFFECT_ALLOW',
    condition: "eth.eip_712.domain.name == 'USD Coin' && eth.eip_712.primary_type == 'Permit' && activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { hash_function: 'HASH_FUNCTION_NO_OP', encoding: 'PAYLOAD_ENCODING_EIP712' }), eth: { eip_712: eip712('USD Coin', 'Permit', { owner: '0x1', spender: '0x2', value: 1n }) } }),
    miss: { 'eth.eip_712.domain.name': 'Dai Stablecoin' },
  },
  {
    pages: ["features/policies/examples/ethereum"],
    name: "Allow signing of EIP-7702 Authorizations",
    effect: 'EFFECT_ALLOW',
    condition: "eth.eip_7702_authorization.address == 'AddrSo1ana11111111111111111111111111111111' && eth.eip_7702_authorization.chain_id == 1 && eth.eip_7702_authorization.nonce == 0 && activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { hash_function: 'HASH_FUNCTION_NO_OP', encoding: 'PAYLOAD_ENCODING_EIP712' }), eth: { eip_7702_authorization: { address: 'AddrSo1ana11111111111111111111111111111111', chain_id: 1n, nonce: 0n } } }),
    miss: { 'eth.eip_7702_authorization.nonce': 1n },
    note: "the docs quote the <CHAIN_ID> and <NONCE> placeholders ('<CHAIN_ID>'), but both fields are numbers; the fixture fills them unquoted",
  },
  {
    pages: ["features/policies/examples/signing-control"],
    name: "Allow <USER_ID> to sign transactions with <WALLET_ID>",
    effect: 'EFFECT_ALLOW',
    condition: "activity.action == 'SIGN' && wallet.id == 'wallet-1'",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ wallet: WALLET }),
    miss: { approvers: [BOB] },
  },
  {
    pages: ["features/policies/examples/signing-control"],
    name: "Allow <USER_ID> to sign transactions with <WALLET_ACCOUNT_ADDRESS>",
    effect: 'EFFECT_ALLOW',
    condition: "activity.action == 'SIGN' && wallet_account.address == '0x8888888888888888888888888888888888888888'",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ wallet_account: { address: '0x8888888888888888888888888888888888888888' } }),
    miss: { 'wallet_account.address': '0x9999999999999999999999999999999999999999' },
  },
  {
    pages: ["features/policies/examples/signing-control"],
    name: "Allow <USER_ID> to sign transactions with <PRIVATE_KEY_ID>",
    effect: 'EFFECT_ALLOW',
    condition: "activity.action == 'SIGN' && private_key.id == 'pk-1'",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ private_key: PRIVATE_KEY }),
    miss: { 'private_key.id': 'pk-2' },
  },
  {
    pages: ["features/policies/examples/solana"],
    name: "Enable transactions with a transfer sent by <SENDER_ADDRESS>",
    effect: 'EFFECT_ALLOW',
    condition: "solana.tx.transfers.all(transfer, transfer.from == 'SendSo1ana1111111111111111111111111111111')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_SOLANA' }), solana: { tx: solTx() } }),
    miss: { 'solana.tx.transfers.0.from': OTHER_SOL },
  },
  {
    pages: ["features/policies/examples/solana"],
    name: "Enable transactions with a single transfer sent to <RECIPIENT_ADDRESS>",
    effect: 'EFFECT_ALLOW',
    condition: "solana.tx.transfers.count == 1 && solana.tx.transfers[0].to == 'RecipSo1ana111111111111111111111111111111'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_SOLANA' }), solana: { tx: solTx() } }),
    miss: { 'solana.tx.transfers': [SOL_TRANSFER, SOL_TRANSFER] },
  },
  {
    pages: ["features/policies/examples/solana"],
    name: "Enable transactions with a transfer sent to <RECIPIENT_ADDRESS>",
    effect: 'EFFECT_ALLOW',
    condition: "solana.tx.transfers.all(transfer, transfer.to == 'RecipSo1ana111111111111111111111111111111')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_SOLANA' }), solana: { tx: solTx() } }),
    miss: { 'solana.tx.transfers.0.to': OTHER_SOL },
  },
  {
    pages: ["features/policies/examples/solana"],
    name: "Enable transactions that only use the system program",
    effect: 'EFFECT_ALLOW',
    condition: "solana.tx.program_keys.all(p, p == '11111111111111111111111111111111')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_SOLANA' }), solana: { tx: solTx() } }),
    miss: { 'solana.tx.program_keys': [SYSTEM_PROGRAM, TOKEN_PROGRAM] },
  },
  {
    pages: ["features/policies/examples/solana"],
    name: "Reject transactions with a transfer sent to <BAD_ADDRESS>",
    effect: 'EFFECT_DENY',
    condition: "solana.tx.transfers.any(transfer, transfer.to == 'BadSo1ana1111111111111111111111111111111111')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_SOLANA' }), solana: { tx: { ...solTx(), transfers: [{ ...SOL_TRANSFER, to: 'BadSo1ana1111111111111111111111111111111111' }] } } }),
    miss: { 'solana.tx.transfers.0.to': RECIPIENT },
  },
  {
    pages: ["features/policies/examples/solana"],
    name: "Enable transactions where the first instruction has precisely <HEX BYTES>",
    effect: 'EFFECT_ALLOW',
    condition: "solana.tx.instructions[0].instruction_data_hex == '02000000e803000000000000'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_SOLANA' }), solana: { tx: solTx() } }),
    miss: { 'solana.tx.instructions.0.instruction_data_hex': '0200000001' },
  },
  {
    pages: ["features/policies/examples/solana"],
    name: "Enable transactions where the first instruction has a first account involving <ADDRESS>",
    effect: 'EFFECT_ALLOW',
    condition: "solana.tx.instructions[0].accounts[0].account_key == 'AddrSo1ana11111111111111111111111111111111'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_SOLANA' }), solana: { tx: solTx() } }),
    miss: { 'solana.tx.instructions.0.accounts.0.account_key': OTHER_SOL },
  },
  {
    pages: ["features/policies/examples/solana"],
    name: "Deny Solana transactions that use address table lookups",
    effect: 'EFFECT_DENY',
    condition: "solana.tx.address_table_lookups.count() > 0",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_SOLANA' }), solana: { tx: { ...solTx(), address_table_lookups: [{ address_table_key: 'Lookup111', writable_indexes: [0n], readonly_indexes: [] }] } } }),
    miss: { 'solana.tx.address_table_lookups': [] },
  },
  {
    pages: ["features/policies/examples/solana"],
    name: "Deny Solana transactions sending directly to an address from a table lookup",
    effect: 'EFFECT_DENY',
    condition: "solana.tx.transfers.any(t, t.to == 'ADDRESS_TABLE_LOOKUP') || solana.tx.spl_transfers.any(t, t.to == 'ADDRESS_TABLE_LOOKUP')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_SOLANA' }), solana: { tx: { ...splTx(), spl_transfers: [{ ...SPL_TRANSFER, to: 'ADDRESS_TABLE_LOOKUP' }] } } }),
    miss: { 'solana.tx.spl_transfers.0.to': TOKEN_ACCOUNT },
  },
  {
    pages: ["features/policies/examples/solana"],
    name: "Allow user <USER_ID> to sign Solana transactions that include only a single SPL Transfer FROM <TOKEN_ADDRESS>",
    effect: 'EFFECT_ALLOW',
    condition: "solana.tx.instructions.count() == 1 && solana.tx.spl_transfers.count() == 1 && solana.tx.spl_transfers.all(transfer, transfer.from == 'TokenAcct111111111111111111111111111111111')",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_SOLANA' }), solana: { tx: splTx() } }),
    miss: { 'solana.tx.spl_transfers.0.from': OTHER_SOL },
  },
  {
    pages: ["features/policies/examples/solana"],
    name: "Allow user <USER_ID> to sign Solana transactions only if ALL of the instructions are SPL transfers TO <TOKEN_ADDRESS>",
    effect: 'EFFECT_ALLOW',
    condition: "solana.tx.instructions.count() == solana.tx.spl_transfers.count() && solana.tx.spl_transfers.all(transfer, transfer.to == 'TokenAcct111111111111111111111111111111111')",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_SOLANA' }), solana: { tx: splTx() } }),
    miss: { 'solana.tx.spl_transfers.0.to': OTHER_SOL },
  },
  {
    pages: ["features/policies/examples/solana"],
    name: "Allow users with <USER_TAG> to sign Solana transactions only if ALL of the instructions are SPL token transfers with <OWNER_ADDRESS> as the owner of the sending token address",
    effect: 'EFFECT_ALLOW',
    condition: "solana.tx.instructions.count() == solana.tx.spl_transfers.count() && solana.tx.spl_transfers.all(transfer, transfer.owner == 'OwnerSo1ana111111111111111111111111111111')",
    consensus: "approvers.any(user, user.tags.contains('tag-ops'))",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_SOLANA' }), solana: { tx: splTx() } }),
    miss: { approvers: [BOB] },
  },
  {
    pages: ["features/policies/examples/solana"],
    name: "Allow user <USER_ID> to sign Solana transactions that include a single instruction which is an SPL token transfer where the atomic units of the transfer are less than <AMOUNT>",
    effect: 'EFFECT_ALLOW',
    condition: "solana.tx.instructions.count() == 1 && solana.tx.spl_transfers.count() == 1 && solana.tx.spl_transfers.all(transfer, transfer.amount < 1000000)",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_SOLANA' }), solana: { tx: splTx() } }),
    miss: { 'solana.tx.spl_transfers.0.amount': 2_000_000n },
  },
  {
    pages: ["features/policies/examples/solana"],
    name: "Allow <USER_ID> to sign a Solana transaction only if ALL of the instructions are SPL token transfers where the token mint address is <TOKEN_MINT_ADDRESS>",
    effect: 'EFFECT_ALLOW',
    condition: "solana.tx.instructions.count() == solana.tx.spl_transfers.count() && solana.tx.spl_transfers.all(transfer, transfer.token_mint == 'Mint1111111111111111111111111111111111111')",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_SOLANA' }), solana: { tx: splTx() } }),
    miss: { 'solana.tx.spl_transfers.0.token_mint': '' },
  },
  {
    pages: ["features/policies/examples/solana"],
    name: "Allow <USER_ID> to sign a Solana transaction only if ALL of it's instructions are SPL token transfers where one of the multisig signers of the owner is <SIGNER_ADDRESS>",
    effect: 'EFFECT_ALLOW',
    condition: "solana.tx.instructions.count() == 1 && solana.tx.spl_transfers.count() == 1 && solana.tx.spl_transfers.all(transfer, transfer.signers.any(s, s == '0x5555555555555555555555555555555555555555'))",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_SOLANA' }), solana: { tx: splTx() } }),
    miss: { 'solana.tx.spl_transfers.0.signers': [] },
  },
  {
    pages: ["features/policies/examples/spark"],
    name: "Allow Spark transfers to approved receivers",
    effect: 'EFFECT_ALLOW',
    condition: "activity.type == 'ACTIVITY_TYPE_SPARK_PREPARE_TRANSFER' && activity.params.sign_with == 'spark1account' && activity.params.transfer.receiver_public_key in ['recv-1', 'recv-2']",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SPARK_PREPARE_TRANSFER', { sign_with: 'spark1account', transfer: sparkTransfer() }) }),
    miss: { 'activity.params.transfer.receiver_public_key': 'recv-9' },
  },
  {
    pages: ["features/policies/examples/spark"],
    name: "Allow transfers of approved Spark leaves",
    effect: 'EFFECT_ALLOW',
    condition: "activity.type == 'ACTIVITY_TYPE_SPARK_PREPARE_TRANSFER' && activity.params.sign_with == 'spark1account' && activity.params.transfer.leaves.count() > 0 && activity.params.transfer.leaves.all(leaf, leaf.old_leaf_derivation.type == 'signing_leaf' && leaf.new_leaf_derivation.type == 'signing_leaf' && leaf.leaf_id in ['leaf-1', 'leaf-2'])",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SPARK_PREPARE_TRANSFER', { sign_with: 'spark1account', transfer: sparkTransfer() }) }),
    miss: { 'activity.params.transfer.leaves.0.leaf_id': 'leaf-9' },
  },
  {
    pages: ["features/policies/examples/spark"],
    name: "Allow adaptor Spark leaf FROST signing",
    effect: 'EFFECT_ALLOW',
    condition: "activity.type == 'ACTIVITY_TYPE_SPARK_SIGN_FROST' && activity.params.sign_with == 'spark1account' && activity.params.signatures.count() > 0 && activity.params.signatures.all(sig, sig.derivation.type == 'signing_leaf' && sig.adaptor_public_key != '')",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SPARK_SIGN_FROST', { sign_with: 'spark1account', signatures: [frost(signingLeaf('leaf-1'), 'adaptor-key')] }) }),
    miss: { 'activity.params.signatures.0.adaptor_public_key': '' },
  },
  {
    pages: ["features/policies/examples/spark"],
    name: "Allow FROST signing for approved Spark leaves",
    effect: 'EFFECT_ALLOW',
    condition: "activity.type == 'ACTIVITY_TYPE_SPARK_SIGN_FROST' && activity.params.sign_with == 'spark1account' && activity.params.signatures.count() > 0 && activity.params.signatures.all(sig, sig.derivation.type == 'signing_leaf' && sig.derivation.signing_leaf.leaf_id in ['leaf-1', 'leaf-2'])",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SPARK_SIGN_FROST', { sign_with: 'spark1account', signatures: [frost(signingLeaf('leaf-2'), '')] }) }),
    miss: { 'activity.params.signatures.0.derivation.signing_leaf.leaf_id': 'leaf-9' },
  },
  {
    pages: ["features/policies/examples/spark"],
    name: "Allow FROST signing for static deposit index 0",
    effect: 'EFFECT_ALLOW',
    condition: "activity.type == 'ACTIVITY_TYPE_SPARK_SIGN_FROST' && activity.params.sign_with == 'spark1account' && activity.params.signatures.count() > 0 && activity.params.signatures.all(sig, sig.derivation.type == 'static_deposit' && sig.derivation.static_deposit.index == 0)",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SPARK_SIGN_FROST', { sign_with: 'spark1account', signatures: [frost(staticDeposit(0n), '')] }) }),
    miss: { 'activity.params.signatures.0.derivation.static_deposit.index': 1n },
  },
  {
    pages: ["features/policies/examples/spark"],
    name: "Allow Spark claims from approved senders",
    effect: 'EFFECT_ALLOW',
    condition: "activity.type == 'ACTIVITY_TYPE_SPARK_CLAIM_TRANSFER' && activity.params.sign_with == 'spark1account' && activity.params.claim.sender_identity_public_key in ['sender-1', 'sender-2']",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SPARK_CLAIM_TRANSFER', { sign_with: 'spark1account', claim: { leaves: [], threshold: 2n, operator_recipients: [], transfer_id: 't-1', sender_identity_public_key: 'sender-2' } }) }),
    miss: { 'activity.params.claim.sender_identity_public_key': 'sender-9' },
  },
  {
    pages: ["features/policies/examples/spark"],
    name: "Allow Spark Lightning receives with approved operators",
    effect: 'EFFECT_ALLOW',
    condition: "activity.type == 'ACTIVITY_TYPE_SPARK_PREPARE_LIGHTNING_RECEIVE' && activity.params.sign_with == 'spark1account' && activity.params.lightning_receive.threshold == 2 && activity.params.lightning_receive.operator_recipients.count() == 2 && activity.params.lightning_receive.operator_recipients.all(recipient, (recipient.operator_id == 'op-1' && recipient.encryption_public_key == 'opkey-1') || (recipient.operator_id == 'op-2' && recipient.encryption_public_key == 'opkey-2'))",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SPARK_PREPARE_LIGHTNING_RECEIVE', { sign_with: 'spark1account', lightning_receive: { threshold: 2n, operator_recipients: [{ operator_id: 'op-1', encryption_public_key: 'opkey-1' }, { operator_id: 'op-2', encryption_public_key: 'opkey-2' }] } }) }),
    miss: { 'activity.params.lightning_receive.operator_recipients.1.encryption_public_key': 'opkey-1' },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "Allow Tempo transactions",
    effect: 'EFFECT_ALLOW',
    condition: "activity.action == 'SIGN' && activity.params.type == 'TRANSACTION_TYPE_TEMPO'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: tempoTx() } }),
    miss: { 'activity.params.type': 'TRANSACTION_TYPE_ETHEREUM' },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "Only allow Tempo testnet",
    effect: 'EFFECT_ALLOW',
    condition: "tempo.tx.chain_id == 42431",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: tempoTx() } }),
    miss: { 'tempo.tx.chain_id': 4217n },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "Only allow specific fee token",
    effect: 'EFFECT_ALLOW',
    condition: "tempo.tx.fee_token == '0xdAC17F958D2ee523a2206206994597C13D831ec7'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: tempoTx() } }),
    miss: { 'tempo.tx.fee_token': '0x20c0000000000000000000000000000000000000' },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "Deny Tempo transactions",
    effect: 'EFFECT_DENY',
    condition: "activity.action == 'SIGN' && activity.params.type == 'TRANSACTION_TYPE_TEMPO'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: tempoTx() } }),
    miss: { activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_SOLANA' }) },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "Deny high gas limit",
    effect: 'EFFECT_DENY',
    condition: "tempo.tx.gas_limit > 100000",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: { ...tempoTx(), gas_limit: 200_000n } } }),
    miss: { 'tempo.tx.gas_limit': 50_000n },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "Deny high max fee per gas",
    effect: 'EFFECT_DENY',
    condition: "tempo.tx.max_fee_per_gas > 15000000000",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: { ...tempoTx(), max_fee_per_gas: 20_000_000_000n } } }),
    miss: { 'tempo.tx.max_fee_per_gas': 10_000_000_000n },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "Deny transactions with specific valid_before",
    effect: 'EFFECT_DENY',
    condition: "tempo.tx.valid_before == 9999999999",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: { ...tempoTx(), valid_before: 9_999_999_999n } } }),
    miss: { 'tempo.tx.valid_before': 0n },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "Allow calls to approved contract",
    effect: 'EFFECT_ALLOW',
    condition: "tempo.tx.calls[0].to == '0x40f008f4c17075EFcA092aE650655f6693AECEd0'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: tempoTx() } }),
    miss: { 'tempo.tx.calls.0.to': OTHER_EVM },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "Allow ERC-20 transfer calls",
    effect: 'EFFECT_ALLOW',
    condition: "tempo.tx.calls[0].function_signature == '0xa9059cbb'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: tempoTx() } }),
    miss: { 'tempo.tx.calls.0.function_signature': '0x23b872dd' },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "Deny calls to blocked address",
    effect: 'EFFECT_DENY',
    condition: "tempo.tx.calls[0].to == '0x40f008f4c17075EFcA092aE650655f6693AECEd0'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: tempoTx() } }),
    miss: { 'tempo.tx.calls.0.to': OTHER_EVM },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "Deny single-call transactions",
    effect: 'EFFECT_DENY',
    condition: "tempo.tx.calls.count() == 1",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: tempoTx() } }),
    miss: { 'tempo.tx.calls': [TEMPO_CALL, TEMPO_CALL] },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "All calls must target approved address",
    effect: 'EFFECT_ALLOW',
    condition: "private_key.id == 'pk-1' && tempo.tx.calls.all(call, call.to == '0x40f008f4c17075EFcA092aE650655f6693AECEd0')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: tempoTx() }, private_key: PRIVATE_KEY }),
    miss: { 'tempo.tx.calls.0.to': OTHER_EVM },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "All calls must target known address",
    effect: 'EFFECT_ALLOW',
    condition: "wallet_account.address == '0x5555555555555555555555555555555555555555' && tempo.tx.calls.all(call, call.to == '0x1111111111111111111111111111111111111111')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: { ...tempoTx(), calls: [{ ...TEMPO_CALL, to: ALLOWED }] } }, wallet_account: { address: SIGNER } }),
    miss: { 'tempo.tx.calls.0.to': OTHER_EVM },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "Allow ERC-20 transfer to relay address only",
    effect: 'EFFECT_ALLOW',
    condition: "wallet_account.address == '0x5555555555555555555555555555555555555555' && tempo.tx.calls[0].to == '0x6666666666666666666666666666666666666666' && tempo.tx.calls[0].input[34..74] == 'dddddddddddddddddddddddddddddddddddddddd'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: { ...tempoTx(), calls: [{ ...TEMPO_CALL, to: TOKEN_CONTRACT }] } }, wallet_account: { address: SIGNER } }),
    miss: { 'tempo.tx.calls.0.input': erc20Transfer('c'.repeat(40)) },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "Allow when encoded recipient matches expected address",
    effect: 'EFFECT_ALLOW',
    condition: "wallet_account.address == '0x5555555555555555555555555555555555555555' && tempo.tx.calls[0].input[34..74] == 'dddddddddddddddddddddddddddddddddddddddd'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: tempoTx() }, wallet_account: { address: SIGNER } }),
    miss: { 'tempo.tx.calls.0.input': erc20Transfer('c'.repeat(40)) },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "Allow transferFrom only between known addresses",
    effect: 'EFFECT_ALLOW',
    condition: "wallet_account.address == '0x5555555555555555555555555555555555555555' && tempo.tx.calls[0].input[34..74] == 'ffffffffffffffffffffffffffffffffffffffff' && tempo.tx.calls[0].input[98..138] == 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: { ...tempoTx(), calls: [{ ...TEMPO_CALL, input: erc20TransferFrom('f'.repeat(40), 'e'.repeat(40)), function_signature: '0x23b872dd' }] } }, wallet_account: { address: SIGNER } }),
    miss: { 'tempo.tx.calls.0.input': erc20TransferFrom('e'.repeat(40), 'f'.repeat(40)) },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "Allow Tempo transactions for specific wallet",
    effect: 'EFFECT_ALLOW',
    condition: "activity.action == 'SIGN' && activity.params.type == 'TRANSACTION_TYPE_TEMPO' && wallet.id == 'wallet-1'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: tempoTx() }, wallet: WALLET }),
    miss: { 'wallet.id': 'wallet-2' },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "Allow Tempo transactions for specific private key",
    effect: 'EFFECT_ALLOW',
    condition: "activity.action == 'SIGN' && activity.params.type == 'TRANSACTION_TYPE_TEMPO' && private_key.id == 'pk-1'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: tempoTx() }, private_key: PRIVATE_KEY }),
    miss: { 'private_key.id': 'pk-2' },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "Require specific approver for Tempo transactions",
    effect: 'EFFECT_ALLOW',
    condition: "activity.action == 'SIGN' && activity.params.type == 'TRANSACTION_TYPE_TEMPO'",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: tempoTx() } }),
    miss: { approvers: [BOB] },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "Allow Tempo transactions for wallets with specific label",
    effect: 'EFFECT_ALLOW',
    condition: "activity.action == 'SIGN' && activity.params.type == 'TRANSACTION_TYPE_TEMPO' && wallet.label == 'tempo-production'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: tempoTx() }, wallet: { ...WALLET, label: 'tempo-production' } }),
    miss: { 'wallet.label': 'tempo-staging' },
  },
  {
    pages: ["features/policies/examples/tempo"],
    name: "Allow Tempo transactions for private keys with tag",
    effect: 'EFFECT_ALLOW',
    condition: "activity.action == 'SIGN' && activity.params.type == 'TRANSACTION_TYPE_TEMPO' && private_key.tags.contains('tempo-enabled')",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TEMPO' }), tempo: { tx: tempoTx() }, private_key: PRIVATE_KEY }),
    miss: { 'private_key.tags': [] },
  },
  {
    pages: ["features/policies/examples/time-based-policies", "features/policies/time-based-policies"],
    name: "Allow user <USER_ID> to sign transactions during March 2026",
    effect: 'EFFECT_ALLOW',
    condition: "activity.kind == 'SIGN_TRANSACTION'",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    time: "time.now >= Timestamp('2026-03-01T00:00:00Z') && time.now < Timestamp('2026-04-01T00:00:00Z')",
    match: ctx({ now: new Date('2026-03-10T15:00:00Z') }),
    miss: { now: new Date('2026-04-01T00:00:00Z') },
    note: "end-exclusive: the first instant of April is outside",
  },
  {
    pages: ["features/policies/examples/time-based-policies", "features/policies/time-based-policies"],
    name: "Allow user <USER_ID> to sign during business hours",
    effect: 'EFFECT_ALLOW',
    condition: "activity.kind == 'SIGN_TRANSACTION'",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    time: "CronSpan('0 9 * * 1-5', '8h', 'America/New_York')",
    match: ctx({ now: new Date('2026-03-10T15:00:00Z') }),
    miss: { now: new Date('2026-03-14T15:00:00Z') },
    note: "Tuesday 11:00 in New York (EDT) vs Saturday",
  },
  {
    pages: ["features/policies/examples/time-based-policies", "features/policies/time-based-policies"],
    name: "Allow user <USER_ID> to sign overnight",
    effect: 'EFFECT_ALLOW',
    condition: "activity.kind == 'SIGN_TRANSACTION'",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    time: "CronSpan('0 22 * * *', '8h', 'America/New_York')",
    match: ctx({ now: new Date('2026-03-11T03:00:00Z') }),
    miss: { now: new Date('2026-03-10T15:00:00Z') },
    note: "23:00 in New York vs 11:00",
  },
  {
    pages: ["features/policies/examples/time-based-policies", "features/policies/time-based-policies"],
    name: "Allow user <USER_ID> to sign during business hours through 2025",
    effect: 'EFFECT_ALLOW',
    condition: "activity.kind == 'SIGN_TRANSACTION'",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    time: "CronSpan('0 9 * * 1-5', '8h', 'America/New_York') && time.now < Timestamp('2026-01-01T00:00:00Z')",
    match: ctx({ now: new Date('2025-12-02T15:00:00Z') }),
    miss: { now: new Date('2026-03-10T15:00:00Z') },
    note: "Tuesday 10:00 EST 2025 vs after the end date",
  },
  {
    pages: ["features/policies/examples/time-based-policies", "features/policies/time-based-policies"],
    name: "Ops may sign to treasury during business hours",
    effect: 'EFFECT_ALLOW',
    condition: "activity.kind == 'SIGN_TRANSACTION' && eth.tx.to == '0x7777777777777777777777777777777777777777'",
    consensus: "approvers.any(user, user.tags.contains('tag-ops'))",
    time: "CronSpan('0 9 * * 1-5', '8h', 'America/New_York')",
    match: ctx({ now: new Date('2026-03-10T15:00:00Z'), eth: { tx: ethTx({ to: TREASURY }) } }),
    miss: { approvers: [BOB] },
  },
  {
    pages: ["features/policies/examples/tron"],
    name: "Enable Tether TRC-20 transfers on the Nile Testnet for the Tether contract address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf'",
    effect: 'EFFECT_ALLOW',
    condition: "tron.tx.contract[0].contract_address == 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf' && tron.tx.contract[0].data[0..8] == 'a9059cbb'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TRON' }), tron: { tx: tronTx({ type: 'TriggerSmartContract', owner_address: 'TOwner', contract_address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', data: 'a9059cbb' + '0'.repeat(64), call_value: 0n }) } }),
    miss: { 'tron.tx.contract.0.data': '095ea7b3' + '0'.repeat(64) },
  },
  {
    pages: ["features/policies/examples/tron"],
    name: "Allow TRX transfers under 10 TRX",
    effect: 'EFFECT_ALLOW',
    condition: "tron.tx.contract[0].amount < 10000000",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TRON' }), tron: { tx: tronTx({ type: 'TransferContract', owner_address: 'TOwner', to_address: 'TTo', amount: 5_000_000n }) } }),
    miss: { 'tron.tx.contract.0.amount': 20_000_000n },
  },
  {
    pages: ["features/policies/examples/tron"],
    name: "Allow all TRX transfers",
    effect: 'EFFECT_ALLOW',
    condition: "tron.tx.contract[0].type == 'TransferContract'",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_TRON' }), tron: { tx: tronTx({ type: 'TransferContract', owner_address: 'TOwner', to_address: 'TTo', amount: 5_000_000n }) } }),
    miss: { 'tron.tx.contract.0.type': 'TriggerSmartContract' },
  },
  {
    pages: ["features/policies/language"],
    name: "Allow self-deletion",
    effect: 'EFFECT_ALLOW',
    condition: "activity.type == 'ACTIVITY_TYPE_DELETE_USERS' && activity.params.user_ids.count() == 1 && 'user-alice' in activity.params.user_ids",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ activity: act('ACTIVITY_TYPE_DELETE_USERS', { user_ids: ['user-alice'] }) }),
    miss: { 'activity.params.user_ids': ['user-alice', 'user-bob'] },
  },
  {
    pages: ["features/policies/quickstart"],
    name: "(unnamed)",
    effect: 'EFFECT_ALLOW',
    condition: "eth.tx.to == '0x1111111111111111111111111111111111111111'",
    consensus: "approvers.any(user, user.id == 'user-alice')",
    match: ctx({ eth: { tx: ethTx({ to: ALLOWED }) } }),
    miss: { 'eth.tx.to': OTHER_EVM },
  },
  {
    pages: ["features/policies/smart-contract-interfaces"],
    name: "(unnamed)",
    effect: 'EFFECT_ALLOW',
    condition: "eth.tx.contract_call_args['arg_name'] == 1",
    match: ctx({ eth: { tx: ethTx({ contract_call_args: { arg_name: 1n } }) } }),
    miss: { 'eth.tx.contract_call_args.arg_name': 2n },
  },
  {
    pages: ["features/policies/smart-contract-interfaces"],
    name: "(unnamed)",
    effect: 'EFFECT_ALLOW',
    condition: "solana.tx.instructions[0].parsed_instruction_data.program_call_args['arg_name'] == 1",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_SOLANA' }), solana: { tx: { ...solTx(), instructions: [{ ...SOL_INSTRUCTION, parsed_instruction_data: { instruction_name: 'deposit', discriminator: 'f223c68952e1f2b6', named_accounts: {}, program_call_args: { arg_name: 1n } } }] } } }),
    miss: { 'solana.tx.instructions.0.parsed_instruction_data.program_call_args.arg_name': 2n },
  },
  {
    pages: ["features/policies/smart-contract-interfaces"],
    name: "(unnamed)",
    effect: 'EFFECT_ALLOW',
    condition: "solana.tx.instructions.any(i, i.program_key == 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4' && i.parsed_instruction_data.instruction_name == 'route' && i.parsed_instruction_data.program_call_args['in_amount'] == 995500000)",
    match: ctx({ activity: act('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { type: 'TRANSACTION_TYPE_SOLANA' }), solana: { tx: { ...solTx(), instructions: [{ ...SOL_INSTRUCTION, program_key: JUPITER, parsed_instruction_data: { instruction_name: 'route', discriminator: 'e517cb977ae3ad2a', named_accounts: {}, program_call_args: { in_amount: 995_500_000n, quoted_out_amount: 1n } } }] } } }),
    miss: { 'solana.tx.instructions.0.parsed_instruction_data.program_call_args.in_amount': 1n },
    note: "no short circuit: every instruction of the transaction needs parsed_instruction_data here, else the policy errors",
  },
  {
    pages: ["features/policies/smart-contract-interfaces"],
    name: "(unnamed)",
    effect: 'EFFECT_ALLOW',
    condition: "eth.tx.function_name == 'transfer' && eth.tx.function_signature == '0xa9059cbb'",
    match: ctx({ eth: { tx: ethTx({ to: CONTRACT, function_name: 'transfer', function_signature: '0xa9059cbb' }) } }),
    miss: { 'eth.tx.function_signature': '0x23b872dd' },
  },
  {
    pages: ["snippets/shared/policy-engine"],
    name: "(unnamed)",
    effect: 'EFFECT_ALLOW',
    condition: "eth.tx.to == '0x1111111111111111111111111111111111111111'",
    consensus: "approvers.any(user, user.id == '4b894565-fa11-42fc-b813-5bf4ea3d53f9')",
    match: ctx({ approvers: [{ id: '4b894565-fa11-42fc-b813-5bf4ea3d53f9', tags: [] }], eth: { tx: ethTx({ to: ALLOWED }) } }),
    miss: { approvers: [ALICE] },
  },
]
