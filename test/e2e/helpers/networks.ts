/**
 * Networks e2e services are started with. {@link UNREACHABLE_MAINNET}: Ethereum mainnet's chain id
 * with a node nobody answers at (port 9, discard), for tests of windows and grants that must not
 * depend on a chain.
 */
export const UNREACHABLE_MAINNET = {
  caip2: 'eip155:1',
  family: 'evm',
  name: 'Ethereum',
  rpcUrl: 'http://127.0.0.1:9',
  nativeSymbol: 'ETH',
  nativeDecimals: 18,
  dev: false,
  tokens: [],
} as const
