/**
 * The Gas Station on the dev EVM chain: where `npm start`'s anvil deploys SigilBatchExecutor, and
 * the account that pays the gas of sponsored sends there. Plain constants (no devchain import) so
 * the service can read them.
 */

/**
 * Account #9 of the dev mnemonic (m/44'/60'/0'/0/9), unlocked on anvil: it deploys
 * SigilBatchExecutor as its first transaction, so the contract's address never changes.
 */
export const DEV_GAS_STATION_DEPLOYER = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'

/** SigilBatchExecutor on the dev EVM chain: the CREATE address of {@link DEV_GAS_STATION_DEPLOYER} at nonce 0. */
export const DEV_GAS_STATION = '0x700b6a60ce7eaaea56f065753d8dcb9653dbad35'

/**
 * Account #8 of the dev mnemonic (m/44'/60'/0'/0/8): the dev chain's gas sponsor, funded by anvil
 * with 10,000 ETH. The service signs sponsored transactions with its key.
 */
export const DEV_SPONSOR = '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f'

/** The derivation path of {@link DEV_SPONSOR} under the dev mnemonic. */
export const DEV_SPONSOR_PATH = "m/44'/60'/0'/0/8"
