/**
 * The documented namespaces of the policy language (features/policies/language, "Keywords",
 * "Struct", "Nested structs", "Activity parameters"), as static types for the parse-time field check,
 * and the TypeScript shape of the evaluation context built from them.
 *
 * Maps (`contract_call_args`, `eip_712.message`, `program_call_args`, `named_account(s)`) take any
 * key; their values, and ABI / IDL `ContractArgument`s, are `dynamic` (checked at evaluation time).
 */
import type { Unreadable } from '../errors.js'

/** A static type of the language. */
export type PolicyType =
  | { readonly k: 'bool' }
  | { readonly k: 'int' }
  | { readonly k: 'string' }
  | { readonly k: 'timestamp' }
  | { readonly k: 'list'; readonly of: PolicyType }
  | { readonly k: 'map'; readonly of: PolicyType }
  | { readonly k: 'struct'; readonly name: string; readonly fields: Readonly<Record<string, PolicyType>> }
  /** Known only at evaluation time (map values, contract arguments, list elements of `dynamic`). */
  | { readonly k: 'dynamic' }

export const BOOL: PolicyType = { k: 'bool' }
export const INT: PolicyType = { k: 'int' }
export const STRING: PolicyType = { k: 'string' }
export const TIMESTAMP: PolicyType = { k: 'timestamp' }
export const DYNAMIC: PolicyType = { k: 'dynamic' }
export const listOf = (of: PolicyType): PolicyType => ({ k: 'list', of })
const mapOf = (of: PolicyType): PolicyType => ({ k: 'map', of })
const struct = (name: string, fields: Record<string, PolicyType>): PolicyType => ({ k: 'struct', name, fields })

export const USER = struct('User', { id: STRING, tags: listOf(STRING), email: STRING, alias: STRING })
export const CREDENTIAL = struct('Credential', { id: STRING, user_id: STRING, type: STRING, credential_id: STRING, public_key: STRING })

const SPARK_KEY_DERIVATION = struct('SparkKeyDerivation', {
  type: STRING,
  signing_leaf: struct('SparkSigningLeafDerivation', { leaf_id: STRING }),
  static_deposit: struct('SparkStaticDepositDerivation', { index: INT }),
})
const SPARK_OPERATOR_RECIPIENT = struct('SparkOperatorRecipient', { operator_id: STRING, encryption_public_key: STRING })

/** Union of the documented `activity.params` fields ("Activity parameters"); which exist depends on the activity. */
const ACTIVITY_PARAMS = struct('ActivityParams', {
  hash_function: STRING,
  encoding: STRING,
  type: STRING,
  user_ids: listOf(STRING),
  user_id: STRING,
  api_key_ids: listOf(STRING),
  target_public_key: STRING,
  wallet_id: STRING,
  otp_length: INT,
  session_profile_id: STRING,
  endpoint_id: STRING,
  sign_with: STRING,
  signatures: listOf(
    struct('SparkSignatureRequest', {
      derivation: SPARK_KEY_DERIVATION,
      message: STRING,
      verifying_key: STRING,
      operator_commitments: listOf(struct('SparkFrostCommitment', { id: STRING, hiding: STRING, binding: STRING })),
      adaptor_public_key: STRING,
    }),
  ),
  transfer: struct('SparkTransferPackage', {
    transfer_id: STRING,
    leaves: listOf(
      struct('SparkTransferLeaf', {
        leaf_id: STRING,
        old_leaf_derivation: SPARK_KEY_DERIVATION,
        new_leaf_derivation: SPARK_KEY_DERIVATION,
        refund_signature: STRING,
        direct_refund_signature: STRING,
        direct_from_cpfp_refund_signature: STRING,
      }),
    ),
    threshold: INT,
    operator_recipients: listOf(SPARK_OPERATOR_RECIPIENT),
    receiver_public_key: STRING,
  }),
  claim: struct('SparkClaimPackage', {
    leaves: listOf(struct('SparkClaimLeaf', { leaf_id: STRING, ciphertext: STRING, sender_signature: STRING })),
    threshold: INT,
    operator_recipients: listOf(SPARK_OPERATOR_RECIPIENT),
    transfer_id: STRING,
    sender_identity_public_key: STRING,
  }),
  lightning_receive: struct('SparkLightningReceivePackage', { threshold: INT, operator_recipients: listOf(SPARK_OPERATOR_RECIPIENT) }),
})

const ACTIVITY = struct('Activity', { type: STRING, kind: STRING, resource: STRING, action: STRING, params: ACTIVITY_PARAMS })
const WALLET = struct('Wallet', { id: STRING, imported: BOOL, exported: BOOL, label: STRING })
const WALLET_ACCOUNT = struct('WalletAccount', { address: STRING })
const PRIVATE_KEY = struct('PrivateKey', { id: STRING, tags: listOf(STRING), imported: BOOL, exported: BOOL, label: STRING })

const EIP7702 = struct('Eip7702Authorization', { address: STRING, chain_id: INT, nonce: INT })
const ETH_TX = struct('EthereumTransaction', {
  from: STRING,
  to: STRING,
  data: STRING,
  value: INT,
  gas: INT,
  gas_price: INT,
  chain_id: INT,
  nonce: INT,
  max_fee_per_gas: INT,
  max_priority_fee_per_gas: INT,
  max_fee_per_blob_gas: INT,
  type: STRING,
  /** TYPE_4 (EIP-7702): the delegations the transaction sets. */
  authorization_list: listOf(EIP7702),
  function_name: STRING,
  function_signature: STRING,
  contract_call_args: mapOf(DYNAMIC),
})
const EIP712 = struct('Eip712TypedData', {
  primary_type: STRING,
  domain: struct('Eip712Domain', { name: STRING, version: STRING, chain_id: INT, verifying_contract: STRING }),
  message: mapOf(DYNAMIC),
})

const ADDRESS_TABLE_LOOKUP = struct('AddressTableLookup', {
  address_table_key: STRING,
  writable_indexes: listOf(INT),
  readonly_indexes: listOf(INT),
})
const SOLANA_PARSED = struct('SolanaParsedInstructionData', {
  instruction_name: STRING,
  discriminator: STRING,
  // The struct table says `named_account`, the Solana SolanaTransaction row says `named_accounts`: both accepted.
  named_account: mapOf(STRING),
  named_accounts: mapOf(STRING),
  program_call_args: mapOf(DYNAMIC),
})
const SOLANA_TX = struct('SolanaTransaction', {
  account_keys: listOf(STRING),
  program_keys: listOf(STRING),
  instructions: listOf(
    struct('Instruction', {
      program_key: STRING,
      accounts: listOf(struct('Account', { account_key: STRING, signer: BOOL, writable: BOOL })),
      instruction_data_hex: STRING,
      address_table_lookups: listOf(ADDRESS_TABLE_LOOKUP),
      parsed_instruction_data: SOLANA_PARSED,
    }),
  ),
  transfers: listOf(struct('Transfer', { from: STRING, to: STRING, amount: INT })),
  recent_blockhash: STRING,
  spl_transfers: listOf(
    struct('SPLTransfer', { from: STRING, to: STRING, amount: INT, owner: STRING, signers: listOf(STRING), token_mint: STRING }),
  ),
  address_table_lookups: listOf(ADDRESS_TABLE_LOOKUP),
})

const TRON_PERMISSION = struct('TronPermission', {
  type: STRING,
  id: INT,
  permission_name: STRING,
  threshold: INT,
  parent_id: INT,
  operations: STRING,
  keys: listOf(struct('TronKey', { address: STRING, weight: INT })),
})
const TRON_TX = struct('TronTransaction', {
  ref_block_bytes: STRING,
  ref_block_hash: STRING,
  expiration: INT,
  timestamp: INT,
  data: STRING,
  fee_limit: INT,
  contract: listOf(
    struct('TronContract', {
      type: STRING,
      permission_id: INT,
      owner_address: STRING,
      to_address: STRING,
      amount: INT,
      contract_address: STRING,
      call_value: INT,
      data: STRING,
      call_token_value: INT,
      token_id: INT,
      resource: STRING,
      balance: INT,
      receiver_address: STRING,
      lock: BOOL,
      lock_period: INT,
      frozen_balance: INT,
      unfreeze_balance: INT,
      owner: TRON_PERMISSION,
      witness: TRON_PERMISSION,
      actives: listOf(TRON_PERMISSION),
    }),
  ),
})
const BITCOIN_TX = struct('BitcoinTransaction', {
  version: STRING,
  inputs: listOf(struct('BitcoinTxInput', { tx_id: STRING, vout: INT, sequence: INT })),
  outputs: listOf(struct('BitcoinTxOutput', { value: INT, script_pubkey: STRING, address: STRING, address_type: STRING })),
  locktime: struct('BitcoinTxLocktime', { amount: INT, type: STRING }),
  fee: INT,
})
const TEMPO_TX = struct('TempoTransaction', {
  chain_id: INT,
  from: STRING,
  nonce: INT,
  gas_limit: INT,
  max_fee_per_gas: INT,
  max_priority_fee_per_gas: INT,
  fee_token: STRING,
  valid_before: INT,
  valid_after: INT,
  calls: listOf(struct('TempoCall', { to: STRING, input: STRING, function_signature: STRING })),
})

/** Keywords of the `consensus` field. */
export const CONSENSUS_KEYWORDS: Readonly<Record<string, PolicyType>> = { approvers: listOf(USER), credentials: listOf(CREDENTIAL) }

/** Keywords of the `condition` field. */
export const CONDITION_KEYWORDS: Readonly<Record<string, PolicyType>> = {
  activity: ACTIVITY,
  eth: struct('eth', { tx: ETH_TX, eip_712: EIP712, eip_7702_authorization: EIP7702 }),
  solana: struct('solana', { tx: SOLANA_TX }),
  tron: struct('tron', { tx: TRON_TX }),
  bitcoin: struct('bitcoin', { tx: BITCOIN_TX }),
  tempo: struct('tempo', { tx: TEMPO_TX }),
  wallet: WALLET,
  wallets: listOf(WALLET),
  private_key: PRIVATE_KEY,
  wallet_account: WALLET_ACCOUNT,
}

/** Keywords of the `time` field. */
export const TIME_KEYWORDS: Readonly<Record<string, PolicyType>> = { time: struct('time', { now: TIMESTAMP }) }

// ---------------------------------------------------------------------------------------------
// The evaluation context: what a policy can see about an activity. Field names are the language's
// (snake_case). Integers may be given as bigint or as safe-integer numbers; an absent field is a
// `MISSING_FIELD` error when a policy reads it (the hosted engine's MissingField).

/** An integer of the language (wei values need bigint). */
export type PolicyInt = bigint | number
/** A value of a map or contract argument, known only at evaluation time. */
export type PolicyDynamic = boolean | PolicyInt | string | readonly PolicyDynamic[] | { readonly [key: string]: PolicyDynamic }

export type PolicyUser = { id: string; tags: readonly string[]; email?: string; alias?: string }
export type PolicyCredential = { id: string; user_id: string; type: string; credential_id?: string; public_key: string }
export type PolicyActivity = {
  type: string
  kind?: string
  resource?: string
  action?: string
  params?: { readonly [key: string]: PolicyDynamic }
}
export type PolicyWallet = { id: string; imported: boolean; exported: boolean; label: string }
export type PolicyWalletAccount = { address: string }
export type PolicyPrivateKey = { id: string; tags: readonly string[]; imported: boolean; exported: boolean; label: string }

export type PolicyEthTx = {
  from?: string
  to?: string
  data?: string
  value?: PolicyInt
  gas?: PolicyInt
  gas_price?: PolicyInt
  chain_id?: PolicyInt
  nonce?: PolicyInt
  max_fee_per_gas?: PolicyInt
  max_priority_fee_per_gas?: PolicyInt
  max_fee_per_blob_gas?: PolicyInt
  /** 'LEGACY' | 'TYPE_1' | 'TYPE_2' | 'TYPE_3' | 'TYPE_4' */
  type?: string
  /** TYPE_4 (EIP-7702): the delegations the transaction sets. */
  authorization_list?: readonly PolicyEip7702[]
  /**
   * From a smart contract interface (ABI) for `to` that declares the selector, else absent;
   * `contract_call_args` is `Unreadable` when the arguments do not decode under it.
   */
  function_name?: string
  function_signature?: string
  contract_call_args?: { readonly [name: string]: PolicyDynamic } | Unreadable
}
export type PolicyEip712 = {
  primary_type: string
  domain: { name?: string; version?: string; chain_id?: PolicyInt; verifying_contract?: string }
  message: { readonly [key: string]: PolicyDynamic }
}
/** `nonce` is absent where the service picks it when it builds the transaction (a batch send's or an undelegation's delegation). */
export type PolicyEip7702 = { address: string; chain_id: PolicyInt; nonce?: PolicyInt }

export type PolicySolanaAddressTableLookup = {
  address_table_key: string
  writable_indexes: readonly PolicyInt[]
  readonly_indexes: readonly PolicyInt[]
}
export type PolicySolanaInstruction = {
  program_key: string
  accounts: readonly { account_key: string; signer: boolean; writable: boolean }[]
  instruction_data_hex: string
  address_table_lookups: readonly PolicySolanaAddressTableLookup[]
  /** From an IDL for the program that declares the instruction; `program_call_args` is `Unreadable` when they do not decode. */
  parsed_instruction_data?: {
    instruction_name: string
    discriminator: string
    named_account?: { readonly [name: string]: string }
    named_accounts?: { readonly [name: string]: string }
    program_call_args: { readonly [name: string]: PolicyDynamic } | Unreadable
  }
}
export type PolicySolanaTx = {
  account_keys: readonly string[]
  program_keys: readonly string[]
  instructions: readonly PolicySolanaInstruction[]
  transfers: readonly { from: string; to: string; amount: PolicyInt }[]
  recent_blockhash: string
  spl_transfers: readonly { from: string; to: string; amount: PolicyInt; owner: string; signers: readonly string[]; token_mint: string }[]
  address_table_lookups: readonly PolicySolanaAddressTableLookup[]
}

/** `bitcoin.tx` (struct BitcoinTransaction): what sign_transaction TRANSACTION_TYPE_BITCOIN signs; `fee` only when every input's amount is known. */
export type PolicyBitcoinTx = {
  version: string
  inputs: readonly { tx_id: string; vout: PolicyInt; sequence: PolicyInt }[]
  outputs: readonly { value: PolicyInt; script_pubkey: string; address: string; address_type: string }[]
  locktime: { amount: PolicyInt; type: string }
  fee?: PolicyInt
}

/**
 * Everything a policy can see about one evaluation. The engine builds it per activity (and per vote:
 * `approvers` / `credentials` are the users and credentials that have approved so far).
 * `tron.tx` is the plain data chains/policy/tronTx.ts reads; `tempo`, which Sigil never produces, may be given as such too.
 */
export type PolicyContext = {
  /** Consensus keywords. */
  approvers: readonly PolicyUser[]
  credentials: readonly PolicyCredential[]
  /** Condition keywords. */
  activity?: PolicyActivity
  /** `Unreadable` where the activity carries the namespace but it could not be read (a DENY reading it denies). */
  eth?: { tx?: PolicyEthTx | Unreadable; eip_712?: PolicyEip712 | Unreadable; eip_7702_authorization?: PolicyEip7702 | Unreadable }
  solana?: { tx?: PolicySolanaTx | Unreadable }
  tron?: { tx?: { readonly [key: string]: PolicyDynamic } | Unreadable }
  bitcoin?: { tx?: PolicyBitcoinTx | Unreadable }
  tempo?: { tx?: { readonly [key: string]: PolicyDynamic } }
  wallet?: PolicyWallet
  wallets?: readonly PolicyWallet[]
  private_key?: PolicyPrivateKey
  wallet_account?: PolicyWalletAccount
  /**
   * `time.now`: the trusted server time of the request (one value per request). Required so that a
   * time-gated DENY is never skipped for want of a clock.
   */
  now: Date
}
