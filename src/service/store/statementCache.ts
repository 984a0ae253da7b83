/**
 * Names for the PGlite fast path's prepared statements, keyed by the exact SQL text, least
 * recently used first; bounded, an evicted statement waits in `takeCloses` to be closed.
 * Protocol-level named statements are session state, not transactional: one parsed inside a
 * transaction that rolls back stays prepared (checked against PGlite 0.5.16), so an entry is
 * kept exactly when the server answered its Parse with ParseComplete. Schema changes happen
 * only in migrations, before the first cached statement; PostgreSQL re-plans after any later one.
 */
export class StatementCache {
  readonly #names = new Map<string, string>()
  readonly #toClose: string[] = []
  #next = 0

  constructor(readonly capacity = 256) {}

  /** The statement for `text`: its name, and whether it still has to be parsed. */
  lookup(text: string): { name: string; parse: boolean } {
    const name = this.#names.get(text)
    if (name === undefined) return { name: `sigil_s${++this.#next}`, parse: true }
    this.#names.delete(text)
    this.#names.set(text, name)
    return { name, parse: false }
  }

  /** Records that the server prepared `name` for `text`; evicts the least recently used past capacity. */
  prepared(text: string, name: string): void {
    const old = this.#names.get(text)
    if (old !== undefined && old !== name) this.#toClose.push(old)
    this.#names.delete(text)
    this.#names.set(text, name)
    while (this.#names.size > this.capacity) {
      const [oldestText, oldestName] = this.#names.entries().next().value as [string, string]
      this.#names.delete(oldestText)
      this.#toClose.push(oldestName)
    }
  }

  /** Drops the entry for `text` when it is still `name` (the server no longer knows the statement). */
  forget(text: string, name: string): void {
    if (this.#names.get(text) === name) this.#names.delete(text)
  }

  /** The evicted statements to close, handed over once. */
  takeCloses(): string[] {
    return this.#toClose.splice(0)
  }

  /** Gives back evicted statements whose Close was not confirmed, to close with the next batch. */
  requeue(names: string[]): void {
    this.#toClose.unshift(...names)
  }

  /** How many texts are prepared. */
  get size(): number {
    return this.#names.size
  }
}
