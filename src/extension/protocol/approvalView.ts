/**
 * What the approval window shows, as the background sends it (popup router row `approvalGet`):
 * plain, human-readable data built in the background (the page renders text only, never HTML
 * from a dApp). The background's builders (background/approval, background/dapp) and the
 * window's views (src/extension/approval) both import these types from here.
 */

/** One `[label or path, text]` row of the window. */
export type FieldRow = [label: string, text: string]

/** A chain as shown to the user. */
export type ChainLabel = { chainId: `0x${string}`; name: string }

/** A decoded token call: its signature, readable rows and the warnings to show above them (background/dapp/evm/calldata.ts). */
export type DecodedCall = { method: string; rows: FieldRow[]; warnings: string[] }

/** A readable summary of typed data that moves tokens (background/dapp/evm/typedDataSummary.ts). */
export type TypedDataSummary = { title: string; rows: FieldRow[] }

/** One instruction as shown: a title and its rows. */
export type InstructionView = { title: string; rows: FieldRow[] }

/** The approval window's view of a Solana transaction. */
export type SolanaTransactionView = {
  kind: 'solanaTransaction'
  address: string
  /** The network's name and Wallet Standard id, or that the dApp named none. */
  network: string
  feePayer: string
  version: 'legacy' | '0'
  instructions: InstructionView[]
  warnings: string[]
  /** True when Sigil broadcasts it (signAndSendTransaction). */
  send: boolean
  /** What the user sends and receives, simulated against the network's node (dapp/solana/assetChanges.ts); absent when not simulated. */
  balanceChanges?: BalanceChangesView
}

/** One of the user's accounts a site may be given: its address and the name the user knows it by. */
export type AccountOption = { address: string; name: string }

/** One asset whose balance the transaction changes for the user, netted (dapp/evm/assetChanges.ts). */
export type AssetChangeView = {
  direction: 'send' | 'receive'
  /** The amount in the asset's units with its symbol, e.g. "10 TKA", "1 NFT #7 of CATS", or the raw integer when the decimals are unknown. */
  amount: string
  /** The symbol the monogram is drawn from ("ETH", "TKA"). */
  symbol: string
  /** The asset's identity (network and contract, or network and "native") the monogram's colour comes from. */
  assetId: string
  /** The token contract; null for the network's coin. */
  token: string | null
}

/** A spending right the transaction grants, seen as an Approval / ApprovalForAll event with the user as owner. */
export type ApprovalGrantView = {
  /** Who may spend. */
  spender: string
  /** What: "10 TKA", "Unlimited TKA", "NFT #7 of CATS", "All your NFTs of CATS". */
  what: string
  symbol: string
  assetId: string
  token: string
  /** True when the event revokes (amount 0 or approved = false). */
  revoke: boolean
}

/** The simulated balance changes, or why they could not be known ("Could not simulate: <reason>"). */
export type BalanceChangesView =
  | { status: 'simulated'; changes: AssetChangeView[]; approvals: ApprovalGrantView[] }
  | { status: 'unknown'; reason: string }

/** One call of an EIP-5792 batch as shown (dapp/evm/calls.ts). */
export type BatchCallView = {
  /** Null: the call deploys a contract (its data is the creation code). */
  to: string | null
  valueWei: string
  /** The value in the network's native unit, e.g. "0.1 ETH". */
  value: string
  data: string
  /** The decoded token call, or null. */
  call: DecodedCall | null
  /** The 4-byte selector when the call is not decoded (null for a plain transfer). */
  selector: string | null
  /** The call simulated alone fails (it may still pass after the calls before it): the reason. */
  failure: string | null
}

/** The approval window's view of an EIP-5792 `wallet_sendCalls` batch: every call, the total, who pays the gas. */
export type SendCallsView = {
  kind: 'sendCalls'
  address: string
  chain: ChainLabel
  calls: BatchCallView[]
  /** The calls' values added up, in the native unit. */
  total: string
  /** All calls in one transaction through Sigil's batch executor (all or nothing), or one transaction per call. */
  atomic: boolean
  /** Who pays the network fee: Sigil's sponsor (the site asked for it and the service sponsors you) or the user. */
  gasPayer: 'sponsor' | 'you'
  /** Fee rows when the user pays (estimated, the service fills the final values); empty when sponsored. */
  fees: FieldRow[]
  /** The account is not yet delegated: approving upgrades it to Sigil's batch executor (EIP-7702). */
  upgrade: boolean
  warnings: string[]
  /** The batch's calls simulated in order together: what the user sends and receives; absent when not simulated. */
  balanceChanges?: BalanceChangesView
}

/** A sign-in message's domain or URI that does not belong to the requesting site (dapp/signInOrigin.ts). */
export type SignInMismatch = {
  field: 'domain' | 'uri'
  /** What the message states. */
  stated: string
  /** The requesting site, as the browser reported it. */
  site: string
}

/**
 * A sign-in request (EIP-4361 "Sign-In with Ethereum" through personal_sign, or Sign In With Solana
 * through `solana:signIn`): shown as "Sign in to <domain> as <address>" rather than as raw text.
 */
export type SignInView = {
  kind: 'signIn'
  chain: 'ethereum' | 'solana'
  /** The account that signs. */
  address: string
  /** The site the message says the user signs in to (its `domain`). */
  domain: string
  statement: string | null
  /** The message's other fields, in message order: URI, Version, Chain ID, Nonce, Issued At, Expiration Time, Not Before, Request ID. */
  rows: FieldRow[]
  resources: string[]
  /** Non-empty: a red, blocking warning; the window's Approve needs the user's explicit override (`acknowledged`). */
  mismatches: SignInMismatch[]
  /** The exact text that is signed. */
  text: string
  /** Set when approving also connects the site (Solana connect-and-sign-in): the account the site is given. */
  connects?: AccountOption
}

/** The approval window's content, by kind. */
export type ApprovalView =
  | {
      /** Connecting a site: the user's Ethereum accounts to choose from (checkboxes, at least one) and those checked at first. */
      kind: 'connect'
      accounts: AccountOption[]
      selected: string[]
      chain: ChainLabel
    }
  | { kind: 'message'; address: string; text: string | null; hex: string; byteLength: number }
  | {
      kind: 'typedData'
      address: string
      primaryType: string
      /** Warnings shown first (domain without chainId / verifyingContract, unlimited approvals, foreign recipients). */
      warnings: string[]
      /** A readable summary for permits, Permit2 and Seaport orders; null otherwise. */
      summary: TypedDataSummary | null
      /** Every domain and message row, in `types` order, never truncated (dapp/evm/typedData.ts). */
      domain: FieldRow[]
      message: FieldRow[]
    }
  | {
      /** eth_signTransaction: Sigil signs, the site broadcasts. */
      kind: 'transaction'
      address: string
      to: string | null
      valueWei: string
      /** The value in the network's native unit, e.g. "1.5 ETH". */
      value: string
      data: string
      /** The decoded token call (approve, transfer, transferFrom, setApprovalForAll), or null. */
      call: DecodedCall | null
      chain: ChainLabel
      nonce: string
      /** Fee rows: per-gas prices in gwei, gas limit, max network fee and total in the native unit (feeRows). */
      fees: FieldRow[]
      /** The fields the dApp left out and Sigil filled from the network (dapp/evm/ethFill.ts). */
      filled: string[]
      /** The simulation's verdict when Sigil estimated the gas: "This transaction will fail: <reason>". */
      warnings: string[]
    }
  | { kind: 'switchChain'; from: ChainLabel; to: ChainLabel }
  | {
      /** Connecting a site through the Wallet Standard: the user's Solana accounts to choose from and those checked at first. */
      kind: 'solanaConnect'
      accounts: AccountOption[]
      selected: string[]
      networks: string[]
    }
  | SolanaTransactionView
  | SendCallsView
  | SignInView
  | {
      /** eth_sendTransaction: simulated before the window opened; Sigil's service signs and broadcasts. */
      kind: 'sendTransaction'
      address: string
      to: string
      valueWei: string
      /** The value in the network's native unit, e.g. "1.5 ETH". */
      value: string
      data: string
      /** The decoded token call, or null. */
      call: DecodedCall | null
      /** The 4-byte selector when the call is not decoded (null for a plain transfer). */
      selector: string | null
      chain: ChainLabel
      /** Fee rows: per-gas prices in gwei, gas limit, estimated and max fee, total in the native unit (feeRows). */
      fees: FieldRow[]
      /** The simulation's verdict: "This transaction will fail: <reason>", shown as a warning. */
      warnings: string[]
      /** What the user sends and receives, and the approvals granted, simulated against the node; absent when not simulated. */
      balanceChanges?: BalanceChangesView
    }
  | {
      /** eth_sendTransaction / wallet_sendTransaction without `to`: a contract creation, simulated before the window opened; Sigil's service signs and broadcasts. */
      kind: 'deploy'
      address: string
      /** Size of the creation code (the transaction's data), in bytes. */
      codeBytes: number
      /** The contract's address: CREATE of `address` at `nonce`. */
      predictedAddress: string
      /** The account's nonce the creation is sent with (its pending transaction count). */
      nonce: string
      valueWei: string
      /** The value in the network's native unit, e.g. "0 ETH". */
      value: string
      /** The creation code. */
      data: string
      chain: ChainLabel
      /** Fee rows, as for a send (feeRows). */
      fees: FieldRow[]
      /** The simulation's verdict: "This transaction will fail: <reason>", shown as a warning. */
      warnings: string[]
    }
  | {
      /** wallet_addEthereumChain (EIP-3085): the chain id was checked against the RPC before the window opened. */
      kind: 'addChain'
      chain: ChainLabel
      rpcUrl: string
      nativeSymbol: string
      nativeDecimals: number
      explorerUrl: string | null
    }
  | {
      /** wallet_watchAsset (EIP-747), ERC-20. */
      kind: 'watchAsset'
      address: string
      token: string
      symbol: string
      decimals: number
      chain: ChainLabel
    }

/**
 * What the approval page shows: one pending request, named by its id; `names` maps the user's
 * own addresses the view shows to their account names ("Account 2"), when the names could be read.
 */
export type ApprovalDetails = {
  id: string
  origin: string
  method: string
  view: ApprovalView
  expiresAt: number
  names?: Record<string, string>
  /** Set when the origin is a known or likely phishing site: the window shows a full-page warning first (approval/PhishingWarning.tsx). */
  phishing?: PhishingFlag
}

/** Why the requesting site looks deceptive (dapp/phishing.ts): on MetaMask's phishing list, or imitating `match`. */
export type PhishingFlag = { reason: 'blocklist' | 'fuzzy' | 'lookalike'; match?: string }
