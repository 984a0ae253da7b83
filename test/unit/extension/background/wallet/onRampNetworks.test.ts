/** The Buy screen's networks: only the on-ramp networks the pinned service serves, each landing on one of its networks. */
import { describe, expect, it } from 'vitest'
import { generateP256KeyPair } from '@/src/crypto/p256'
import type { NetworkInfo } from '@/src/extension/background/chains/networks'
import { DEFAULT_SETTINGS } from '@/src/extension/background/service/settings'
import { setup } from '../../approvalFixture'
import { fakeIdentity } from '../../fakeDeps'

const net = (over: Partial<NetworkInfo>): NetworkInfo => ({
  caip2: 'eip155:31337',
  family: 'evm',
  name: 'Sigil dev EVM',
  rpcUrl: 'http://127.0.0.1:8545',
  nativeSymbol: 'ETH',
  nativeDecimals: 18,
  dev: true,
  tokens: [],
  ...over,
})

async function networksOf(served: NetworkInfo[]) {
  const t = setup({ identity: fakeIdentity(DEFAULT_SETTINGS.apiBaseUrl, generateP256KeyPair(), served) })
  await t.login()
  const r = await t.popup('onRampNetworks')
  expect(r.ok).toBe(true)
  return r.result.networks
}

describe('onRampNetworks', () => {
  it('dev chains stand in for Ethereum and Solana; no Base, no Bitcoin when the service serves none', async () => {
    const sol = net({
      caip2: 'solana:devdevdevdevdevdevdevdevdevdevde',
      family: 'solana',
      name: 'Sigil dev Solana',
      nativeSymbol: 'SOL',
      nativeDecimals: 9,
    })
    expect(await networksOf([net({}), sol])).toEqual([
      { network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM', caip2: 'eip155:31337', name: 'Sigil dev EVM', dev: true },
      { network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA', caip2: sol.caip2, name: 'Sigil dev Solana', dev: true },
    ])
  })

  it('mainnets are preferred to dev stand-ins; Base only where eip155:8453 is served', async () => {
    const served = [
      net({}),
      net({ caip2: 'eip155:1', name: 'Ethereum', dev: false }),
      net({ caip2: 'eip155:8453', name: 'Base', dev: false }),
    ]
    expect(await networksOf(served)).toEqual([
      { network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM', caip2: 'eip155:1', name: 'Ethereum', dev: false },
      { network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE', caip2: 'eip155:8453', name: 'Base', dev: false },
    ])
  })

  it('a network that is neither a mainnet nor a dev stand-in offers nothing', async () => {
    expect(await networksOf([net({ caip2: 'eip155:11155111', name: 'Sepolia', dev: false })])).toEqual([])
  })
})
