/** Shapes of the router's method tables (style.md habit 6: closed, allow-listed tables). */
import type { z } from 'zod'
import type { RpcErrorObject } from '../protocol/rpcErrors'
import type { Core } from './core'
import type { DappServices } from './dapp/services'
import type { BackgroundState } from './state'

/** Per-call context of a dApp method: the origin comes from `sender`, never the message. */
export type DappContext = { origin: string; state: BackgroundState; core: Core; dapp: DappServices }

/** What a dApp handler returns: EIP-1193 result or error, as a value. */
export type DappOutcome = { result: unknown } | { error: RpcErrorObject }

/** One dApp RPC table row. Method syntax keeps rows assignable to `DappMethod<z.ZodType>`. */
export type DappMethod<S extends z.ZodType> = {
  params: S
  /**
   * The request needs the session: when it is gone and the site holds a grant of this chain
   * family, the login window opens and the request goes on after the login (dapp/sessionGate.ts).
   */
  session?: 'evm' | 'solana'
  /**
   * The request may ask the user in the approval window: the router admits it only while its site
   * has fewer than MAX_PENDING_PER_ORIGIN such requests in flight (being prepared or waiting), so a
   * flood is refused with -32002 before any handler work (dapp/services.ts `admit`).
   */
  asks?: true
  handler(params: z.output<S>, ctx: DappContext): DappOutcome | Promise<DappOutcome>
}

/** Typed constructor for a {@link DappMethod} row. */
export function dappMethod<S extends z.ZodType>(row: DappMethod<S>): DappMethod<S> {
  return row
}

/** Per-call context of a popup method. */
export type PopupContext = { state: BackgroundState; extensionId: string; core: Core; dapp?: DappServices }

/** One popup table row. */
export type PopupMethod<S extends z.ZodType, R> = {
  params: S
  handler(params: z.output<S>, ctx: PopupContext): R | Promise<R>
}

/** Typed constructor for a {@link PopupMethod} row. */
export function popupMethod<S extends z.ZodType, R>(row: PopupMethod<S, R>): PopupMethod<S, R> {
  return row
}
