/** A minimal typed listener registry for the provider's EIP-1193 events. */
import type { ProviderEventName } from '../protocol/page'

/** A provider event listener. */
export type ProviderListener = (data: unknown) => void

/** on / removeListener / emit over {@link ProviderEventName}s. */
export type EventHub = {
  on(event: ProviderEventName, listener: ProviderListener): void
  off(event: ProviderEventName, listener: ProviderListener): void
  emit(event: ProviderEventName, data: unknown): void
}

/** Create an {@link EventHub}; a throwing listener does not stop the others. */
export function createEventHub(): EventHub {
  const listeners = new Map<ProviderEventName, Set<ProviderListener>>()
  return {
    on(event, listener) {
      let set = listeners.get(event)
      if (!set) listeners.set(event, (set = new Set()))
      set.add(listener)
    },
    off(event, listener) {
      listeners.get(event)?.delete(listener)
    },
    emit(event, data) {
      for (const listener of [...(listeners.get(event) ?? [])]) {
        try {
          listener(data)
        } catch (err) {
          queueMicrotask(() => {
            throw err
          })
        }
      }
    },
  }
}
