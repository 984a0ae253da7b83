/** A tiny stand-in for the page window: EventTarget + postMessage that delivers to itself. */
export class FakeWindow extends EventTarget {
  readonly location = { origin: 'http://127.0.0.1:8080' }
  readonly crypto: Crypto = globalThis.crypto
  readonly posted: Array<{ message: unknown; targetOrigin: unknown }> = []
  ethereum?: unknown

  postMessage(message: unknown, targetOrigin?: unknown): void {
    this.posted.push({ message, targetOrigin })
    queueMicrotask(() => this.deliver(structuredClone(message), this))
  }

  /** Dispatch a `message` event with the given data and source. */
  deliver(data: unknown, source: unknown): void {
    const event = new Event('message')
    Object.defineProperty(event, 'data', { value: data })
    Object.defineProperty(event, 'source', { value: source })
    this.dispatchEvent(event)
  }
}

/** Let queued microtasks and promise chains run. */
export async function flush(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve()
}
