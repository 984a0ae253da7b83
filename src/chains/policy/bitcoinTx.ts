/**
 * `bitcoin.tx` of the policy language (tkhq/docs features/policies/language, struct
 * "BitcoinTransaction"; examples features/policies/examples/bitcoin): the inputs, outputs, lock time
 * and fee of the PSBT sign_transaction TRANSACTION_TYPE_BITCOIN signs, read by the same parse the
 * signer uses (chains/sign/bitcoinTransaction.ts), so what a policy evaluates is what is signed.
 *
 * - `outputs[]`: `value` (satoshis), `script_pubkey` (hex), `address` (in the network's encoding;
 *   `''` for a script with no address: OP_RETURN, bare public keys or multisig) and `address_type`
 *   (`p2pkh`, `p2sh`, `p2wpkh`, `p2wsh`, `p2tr`: the names rust-bitcoin's `AddressType` prints, as the
 *   hosted engine's; `''` with no address).
 * - `inputs[]`: `tx_id` (the spent transaction's id, as explorers show it), `vout`, `sequence`.
 * - `locktime`: `amount` and `type` (`Blocks` below 500000000, else `Seconds`: the docs' two values).
 * - `version`: the transaction version, as a decimal string (the struct types it as a string).
 * - `fee`: the sum of the spent outputs minus the sum of the outputs, present only when the PSBT
 *   gives the amount of every input; a policy reading it otherwise meets a missing field (which
 *   denies: decide.ts).
 * Pure: no database, no network.
 */
import { Address, OutScript } from '@scure/btc-signer'
import { bytesToHex } from '../../crypto/encoding.js'
import { BITCOIN_NETWORK_PARAMS } from '../formats/bitcoin.js'
import { parsePsbt, spentOutput } from '../sign/bitcoinTransaction.js'
import type { BitcoinNetwork } from '../types.js'

export type BitcoinTxInputFacts = { tx_id: string; vout: bigint; sequence: bigint }
export type BitcoinTxOutputFacts = { value: bigint; script_pubkey: string; address: string; address_type: string }
/** The `bitcoin.tx` namespace. */
export type BitcoinTxFacts = {
  version: string
  inputs: readonly BitcoinTxInputFacts[]
  outputs: readonly BitcoinTxOutputFacts[]
  locktime: { amount: bigint; type: 'Blocks' | 'Seconds' }
  fee?: bigint
}

/** Lock times from this value on are UNIX times (BIP-65 / consensus `LOCKTIME_THRESHOLD`). */
const LOCKTIME_THRESHOLD = 500_000_000

/** btc-signer's script types that have an address, by the name the policy language gives them. */
const ADDRESS_TYPES: Readonly<Record<string, string>> = { pkh: 'p2pkh', sh: 'p2sh', wpkh: 'p2wpkh', wsh: 'p2wsh', tr: 'p2tr' }

/** The address and address type of an output script on `network`, both `''` when the script has no address. */
function addressOf(script: Uint8Array, network: BitcoinNetwork): { address: string; address_type: string } {
  try {
    const decoded = OutScript.decode(script)
    const type = ADDRESS_TYPES[decoded.type]
    if (!type) return { address: '', address_type: '' }
    return { address: Address(BITCOIN_NETWORK_PARAMS[network]).encode(decoded), address_type: type }
  } catch {
    return { address: '', address_type: '' }
  }
}

/**
 * `bitcoin.tx` of a PSBT (hex or base64), output addresses in `network`'s encoding.
 * @throws INVALID_ARGUMENT naming unsignedTransaction when it is not a PSBT (the caller makes it `Unreadable`)
 */
export function bitcoinTxFromPsbt(psbt: string, network: BitcoinNetwork): BitcoinTxFacts {
  const tx = parsePsbt(psbt)
  const inputs: BitcoinTxInputFacts[] = []
  let inTotal: bigint | undefined = 0n
  for (let i = 0; i < tx.inputsLength; i++) {
    const input = tx.getInput(i)
    if (input.txid === undefined || input.index === undefined) throw new Error(`input ${i} names no outpoint`)
    inputs.push({ tx_id: bytesToHex(input.txid), vout: BigInt(input.index), sequence: BigInt(input.sequence ?? 0xffffffff) })
    const spent = spentOutput(tx, i)
    inTotal = inTotal !== undefined && spent ? inTotal + spent.amount : undefined
  }
  const outputs: BitcoinTxOutputFacts[] = []
  let outTotal = 0n
  for (let i = 0; i < tx.outputsLength; i++) {
    const o = tx.getOutput(i)
    if (o.script === undefined || o.amount === undefined) throw new Error(`output ${i} has no script or amount`)
    outputs.push({ value: o.amount, script_pubkey: bytesToHex(o.script), ...addressOf(o.script, network) })
    outTotal += o.amount
  }
  const lockTime = tx.lockTime
  return {
    version: String(tx.version),
    inputs,
    outputs,
    locktime: { amount: BigInt(lockTime), type: lockTime < LOCKTIME_THRESHOLD ? 'Blocks' : 'Seconds' },
    ...(inTotal !== undefined && inputs.length > 0 ? { fee: inTotal - outTotal } : {}),
  }
}
