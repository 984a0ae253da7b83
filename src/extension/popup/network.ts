/** The popup's view of networks (background/chains/popupNetwork.ts): the type, and the address format each family takes. */
import type { PopupApi } from '../protocol/popupApi'

/** One network the service publishes. */
export type Network = PopupApi['networks']['result']['selected']

/** The address format each network family takes (as the service's balance query requires). */
export const FORMAT_OF_FAMILY = { evm: 'ADDRESS_FORMAT_ETHEREUM', solana: 'ADDRESS_FORMAT_SOLANA' } as const
