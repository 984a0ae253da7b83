/**
 * One Solana send's steps for the tracker: set a fresh blockhash when asked (or when the
 * transaction carries none), sign with the account key, broadcast the stored signed bytes with
 * preflight, and read the signature status.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import { type SolanaTransaction, encodeCompactU16, parseSolanaTransaction } from '../../chains/sign/solanaMessage.js'
import type { Network } from '../../chains/networks.js'
import { concatBytes, hexToBytes } from '../../crypto/encoding.js'
import { jsonRpc, jsonRpcBatch, RpcRefusedError } from '../chains/rpc.js'
import type { Finality, SendInclusion, SendRow } from '../store/sends.js'

/** What sol_send_transaction stores as the request. */
export type SolanaSendRequest = {
  unsignedTransaction: string
  signers: Array<{ accountId: string; address: string }>
  recentBlockhash?: string
}

export type SolanaFailure = {
  failed: {
    message: string
    solana: {
      source: 'preflight' | 'execution' | 'signing'
      rpcCode?: number
      rpcMessage?: string
      transactionErrorJson?: string
      logs?: string[]
      unitsConsumed?: string
    }
  }
}

const isZero = (b: Uint8Array) => b.every((x) => x === 0)

/** Byte offset of the recent blockhash inside a message. */
function blockhashOffset(tx: SolanaTransaction): number {
  const keys = tx.message.accountKeys.length
  return (tx.message.version === 0 ? 1 : 0) + 3 + encodeCompactU16(keys).length + 32 * keys
}

/** Parses the stored unsigned transaction; throws a message for the activity to name. */
export function parseUnsignedSolana(hexTx: string): SolanaTransaction {
  return parseSolanaTransaction(hexToBytes(hexTx, 'unsignedTransaction'))
}

/** Signs the send with each signer's key (address → key), the blockhash set first when needed. */
export async function buildSolanaSend(
  network: Network,
  send: SendRow,
  keys: ReadonlyMap<string, Uint8Array>,
): Promise<{ signed: { signedTx: string; txHash: string; nonce: null } } | SolanaFailure> {
  const req = JSON.parse(send.request) as SolanaSendRequest
  const tx = parseUnsignedSolana(req.unsignedTransaction)
  const message = Uint8Array.from(tx.messageBytes)
  const at = blockhashOffset(tx)
  const current = message.subarray(at, at + 32)
  const wanted =
    req.recentBlockhash ??
    (isZero(current)
      ? (await jsonRpc<{ value: { blockhash: string } }>(network, 'getLatestBlockhash', [{ commitment: 'confirmed' }])).value.blockhash
      : undefined)
  const signerKeys = tx.message.accountKeys.slice(0, tx.message.numRequiredSignatures).map((k) => base58.encode(k))
  const ours = new Set(signerKeys.flatMap((k, i) => (keys.has(k) ? [i] : [])))
  if (ours.size === 0) return { failed: { message: 'signWith is not a signer of this transaction', solana: { source: 'signing' } } }
  if (wanted !== undefined) {
    const hash = base58.decode(wanted)
    if (hash.length !== 32) return { failed: { message: 'the blockhash is not 32 bytes', solana: { source: 'signing' } } }
    const changed = !hash.every((x, i) => x === current[i])
    if (changed && tx.signatures.some((s, i) => !ours.has(i) && !isZero(s))) {
      return {
        failed: {
          message: 'setting the blockhash would void the other signers’ signatures; sign over the final blockhash',
          solana: { source: 'signing' },
        },
      }
    }
    message.set(hash, at)
  }
  const signatures = tx.signatures.map((s, i) => {
    const key = keys.get(signerKeys[i] ?? '')
    return key ? ed25519.sign(message, key) : s
  })
  if (signatures.some(isZero))
    return { failed: { message: 'a required signature of a signer outside signWith is missing', solana: { source: 'signing' } } }
  const wire = concatBytes(encodeCompactU16(signatures.length), ...signatures, message)
  return { signed: { signedTx: base64.encode(wire), txHash: base58.encode(signatures[0] as Uint8Array), nonce: null } }
}

type Status = { slot: number; err: unknown; confirmationStatus?: string | null } | null

/**
 * Where a landed transaction is and what it cost: its slot, the fee and block time of
 * getTransaction, and the slot's blockhash from getBlock (null when the node does not serve it, as
 * the dev runtime does not; null time and fee when it does not have the transaction yet). One
 * JSON-RPC batch; only a node that is down or slow throws.
 */
export async function readSolanaInclusion(network: Network, signature: string, slot: number, finality: Finality): Promise<SendInclusion> {
  const [tx, block] = await jsonRpcBatch(network, [
    { method: 'getTransaction', params: [signature, { encoding: 'json', commitment: 'confirmed', maxSupportedTransactionVersion: 0 }] },
    {
      method: 'getBlock',
      params: [
        slot,
        { encoding: 'json', transactionDetails: 'none', rewards: false, commitment: 'confirmed', maxSupportedTransactionVersion: 0 },
      ],
    },
  ])
  const found = tx?.ok ? (tx.result as { blockTime?: number | null; meta?: { fee?: number } | null } | null) : null
  const blockhash = block?.ok ? (block.result as { blockhash?: string } | null)?.blockhash : undefined
  return {
    blockNumber: slot,
    blockHash: typeof blockhash === 'string' ? blockhash : null,
    blockTime: typeof found?.blockTime === 'number' ? found.blockTime * 1000 : null,
    fee: typeof found?.meta?.fee === 'number' ? String(found.meta.fee) : null,
    finality,
  }
}

/** Where a broadcast Solana send stands; (re)broadcasts the stored bytes while it is unknown. */
export async function advanceSolanaSend(
  network: Network,
  send: SendRow,
): Promise<{ included: SendInclusion } | (SolanaFailure & { inclusion?: SendInclusion }) | 'pending'> {
  const { value } = await jsonRpc<{ value: Status[] }>(network, 'getSignatureStatuses', [
    [send.tx_hash],
    { searchTransactionHistory: true },
  ])
  const status = value[0]
  if (status && (status.confirmationStatus === 'confirmed' || status.confirmationStatus === 'finalized')) {
    const inclusion = await readSolanaInclusion(
      network,
      send.tx_hash as string,
      status.slot,
      status.confirmationStatus === 'finalized' ? 'FINALIZED' : 'CONFIRMED',
    )
    if (status.err === null || status.err === undefined) return { included: inclusion }
    return {
      failed: {
        message: `transaction failed: ${JSON.stringify(status.err)}`,
        solana: { source: 'execution', transactionErrorJson: JSON.stringify(status.err) },
      },
      inclusion,
    }
  }
  if (status) return 'pending'
  try {
    await jsonRpc<string>(network, 'sendTransaction', [send.signed_tx, { encoding: 'base64', preflightCommitment: 'confirmed' }])
  } catch (e) {
    if (!(e instanceof RpcRefusedError)) throw e
    const data = (e.rpcData ?? {}) as { err?: unknown; logs?: string[]; unitsConsumed?: number }
    if (data.err === 'AlreadyProcessed') return 'pending'
    return {
      failed: {
        message: e.rpcMessage,
        solana: {
          source: 'preflight',
          rpcCode: e.rpcCode,
          rpcMessage: e.rpcMessage,
          ...(data.err !== undefined ? { transactionErrorJson: JSON.stringify(data.err) } : {}),
          ...(Array.isArray(data.logs) ? { logs: data.logs.slice(0, 100) } : {}),
          ...(data.unitsConsumed !== undefined ? { unitsConsumed: String(data.unitsConsumed) } : {}),
        },
      },
    }
  }
  return 'pending'
}
