/**
 * Names for `pg`'s protocol-level prepared statements: a statement text the service runs again
 * gets a stable name, so each connection parses and plans it once instead of on every request
 * (the credential lookup alone spent ≈ 0.5 ms of the server's CPU re-planning its sub-queries).
 *
 * `pg` sends Parse for a name only the first time on each connection and keeps the name → text map
 * itself; the name is a hash of the text, so one name never stands for two texts. Texts built with
 * a varying shape (`IN ($1, …, $n)`) could grow the set without end: a text is named from its
 * second run on, and at most {@link PreparedNames.capacity} texts are named per process; past that
 * a text runs unnamed, as every text did before.
 */
import { createHash } from 'node:crypto'

/** SQLSTATE 0A000 with this message: a prepared plan whose result columns a schema change altered. */
const STALE_PLAN = /cached plan must not change result type/

/** True when `e` is PostgreSQL refusing a prepared statement because the schema changed under it (a migration by another instance). */
export function isStalePlanError(e: unknown): boolean {
  const { code, message } = (e ?? {}) as { code?: unknown; message?: unknown }
  return code === '0A000' && typeof message === 'string' && STALE_PLAN.test(message)
}

export class PreparedNames {
  readonly #names = new Map<string, string>()
  readonly #seen = new Set<string>()

  constructor(
    readonly capacity = 512,
    readonly seenCapacity = 4096,
  ) {}

  /** The name to run `text` under, or undefined to run it unnamed (first run, or the set is full). */
  name(text: string): string | undefined {
    const known = this.#names.get(text)
    if (known !== undefined) return known
    if (this.#names.size >= this.capacity) return undefined
    if (!this.#seen.has(text)) {
      if (this.#seen.size >= this.seenCapacity) this.#seen.clear()
      this.#seen.add(text)
      return undefined
    }
    this.#seen.delete(text)
    const name = `sigil_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`
    this.#names.set(text, name)
    return name
  }

  /** How many texts are named. */
  get size(): number {
    return this.#names.size
  }
}
