import type { WalletAccountParams } from './common.js'

/**
 * The wallet a sign-up creates: what the extension asks for (and signs, so nobody in between can
 * change it) and what the relay creates when a client sends none: Ethereum
 * m/44'/60'/0'/0/0, Solana m/44'/501'/0'/0', Bitcoin P2WPKH m/84'/0'/0'/0/0.
 */
export const DEFAULT_WALLET_ACCOUNTS: WalletAccountParams[] = [
  { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
  { curve: 'CURVE_ED25519', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' },
  {
    curve: 'CURVE_SECP256K1',
    pathFormat: 'PATH_FORMAT_BIP32',
    path: "m/84'/0'/0'/0/0",
    addressFormat: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH',
  },
]

export const DEFAULT_WALLET = { walletName: 'Default Wallet', accounts: DEFAULT_WALLET_ACCOUNTS }
