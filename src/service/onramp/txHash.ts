/** Simulated on-chain transaction hashes for the sandbox provider. */
import { randomBytes } from 'node:crypto'
import { base58 } from '@scure/base'
import { bytesToHex } from '../../crypto/encoding.js'

/** EVM: 0x + 64 hex; Solana: base58 of a 64-byte signature; Bitcoin: 64 hex txid. */
export function simulatedTxHash(network: string): string {
  if (network === 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA') return base58.encode(new Uint8Array(randomBytes(64)))
  const hex = bytesToHex(new Uint8Array(randomBytes(32)))
  return network === 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BITCOIN' ? hex : `0x${hex}`
}
