import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Database } from './sql.js'
import { advisoryTransactionLock } from './transactions.js'

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations')
/** Advisory-lock key so that concurrent instances on one PostgreSQL migrate one at a time. */
const MIGRATION_LOCK = 7_146_113

/** The versioned SQL files, in order: `NNN_name.sql`. */
export function listMigrations(): Array<{ version: number; name: string; sql: string }> {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 3)), name: f, sql: readFileSync(join(MIGRATIONS_DIR, f), 'utf8') }))
}

/** Applies every migration not yet applied, each in its own transaction. Returns the versions applied. */
export async function migrate(db: Database): Promise<number[]> {
  const applied: number[] = []
  await db.transaction(async (tx) => {
    if (db.kind === 'postgres') await advisoryTransactionLock(tx, MIGRATION_LOCK)
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)',
    )
    const done = new Set((await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => Number(r.version)))
    for (const m of listMigrations()) {
      if (done.has(m.version)) continue
      for (const statement of splitStatements(m.sql)) await tx.query(statement)
      await tx.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, Date.now()])
      applied.push(m.version)
    }
  })
  return applied
}

/** Splits a migration on `;` at line ends, dropping `--` comments. Our SQL has no procedural bodies. */
function splitStatements(sql: string): string[] {
  return sql
    .split('\n')
    .map((l) => l.replace(/--.*$/, ''))
    .join('\n')
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
}
