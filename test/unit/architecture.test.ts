/**
 * The shape of the tree, from its imports (read with TypeScript's `preProcessFile`, relative and `@/`
 * imports resolved to files):
 * - the top-level areas of `src/` form no cycle, and every import between them goes down {@link AREA_ORDER};
 * - inside `src/service`, its folders and root files form no cycle either, and every import between
 *   them goes down {@link SERVICE_ORDER} (the layers `src/service/README.md` describes);
 * - every package imported is declared in package.json: `dependencies` for what runs in production
 *   (`src/` and `entrypoints/`, except the development tools of `src/devchain/` that no production
 *   code imports), `devDependencies` too for the rest (tests, benchmarks, scripts, configuration, dev
 *   chains); `node:` built-ins need no declaration.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, extname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(__dirname, '../..')

/**
 * The allowed order of the areas of `src/`, top first: an area imports only areas after it.
 * `api` is the bottom vocabulary (wire schemas, errors, enums) everyone may import, and imports
 * nothing of ours outside itself. `server` is the composition root: it wires the service, the relay
 * and the development tools (faucet, identity provider) together.
 */
const AREA_ORDER = ['server', 'relay', 'devchain', 'service', 'extension', 'chains', 'crypto', 'api'] as const

/**
 * The allowed order of the top-level entries of `src/service` (folders, and root files by their name
 * without extension), top first: an entry imports only entries after it. A request reads downwards:
 * the service's composition (`server`, `bootstrap`), the routes (`http`), the operations (`queries`,
 * which may reuse the lookups in `activities/shared`, then `activities`), what the operations act
 * through (sends sign with `signing` and announce through `webhooks`; `otp` sends its codes through
 * `mail`), the activity context, authentication, then the runtime and what it is built from, down
 * to `store` (all SQL), which imports nothing of the service.
 */
const SERVICE_ORDER = [
  'server',
  'database',
  'bootstrap',
  'http',
  'queries',
  'activities',
  'history',
  'sends',
  'sponsorship',
  'velocity',
  'signing',
  'webhooks',
  'otp',
  'mail',
  'oauth2',
  'onramp',
  'policy',
  'activityContext',
  'auth',
  'runtime',
  'config',
  'keys',
  'devIdentity',
  'oidc',
  'chains',
  'logger',
  'fieldNames',
  'net',
  'store',
] as const

/** Folders whose code runs in production: their packages must be `dependencies`. */
const PRODUCTION = ['src', 'entrypoints']
/**
 * Development tools inside `src/`: the dev chains (`npm start`, `npm run chain`). What production code
 * imports of them (the dev faucet, the dev identity provider) is production code.
 */
const DEVELOPMENT_TOOLS = 'src/devchain/'
/** Everything else that imports packages: tests, benchmarks, scripts, configuration. */
const DEVELOPMENT = ['test', 'bench', 'scripts']
const ROOT_FILES = ['wxt.config.ts', 'vitest.config.ts']
const CODE = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.jsx'])
const SKIP_DIRS = new Set(['node_modules', 'artifacts', '.output', '.wxt'])

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      if (!SKIP_DIRS.has(name)) walk(path, out)
    } else if (CODE.has(extname(name)) && !name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

/** The module specifiers a file imports, re-exports, dynamically imports or requires. */
function specifiers(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
  return info.importedFiles.map((f) => f.fileName)
}

const ALIAS = /^(@|~|@@|~~)\//

function isRelative(spec: string): boolean {
  return spec.startsWith('.') || ALIAS.test(spec)
}

/** The file a relative or `@/` import names (TypeScript's bundler resolution: `.js` may stand for `.ts`). */
function resolveImport(from: string, spec: string): string | undefined {
  const bare = spec.replace(/[?#].*$/, '')
  const base = ALIAS.test(bare) ? join(ROOT, bare.replace(ALIAS, '')) : resolve(dirname(from), bare)
  const stem = base.replace(/\.(m|c)?jsx?$/, '')
  const candidates = [
    base,
    ...['.ts', '.tsx', '.mts', '.js', '.mjs', '.jsx'].map((e) => stem + e),
    ...['.ts', '.tsx', '.js'].map((e) => join(base, `index${e}`)),
  ]
  return candidates.find((c) => {
    try {
      return statSync(c).isFile()
    } catch {
      return false
    }
  })
}

/** The package a bare specifier names (`@scope/name` or `name`), undefined for a Node built-in. */
function packageOf(spec: string): string | undefined {
  if (spec.startsWith('node:') || builtinModules.includes(spec)) return undefined
  const parts = spec.split('/')
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

/** `roots` and every file they import, directly or not. */
function closure(roots: string[]): string[] {
  const seen = new Set(roots)
  const queue = [...roots]
  while (queue.length) {
    const file = queue.pop() as string
    for (const spec of specifiers(file)) {
      const target = isRelative(spec) ? resolveImport(file, spec) : undefined
      if (target && CODE.has(extname(target)) && !seen.has(target)) {
        seen.add(target)
        queue.push(target)
      }
    }
  }
  return [...seen]
}

type Edge = { from: string; spec: string }
type Graph = Map<string, Map<string, Edge>>

/** The graph between groups of files: one example import per edge. */
function groupGraph(files: string[], group: (file: string) => string | undefined): Graph {
  const graph: Graph = new Map()
  for (const file of files) {
    const a = group(file)
    if (a === undefined) continue
    if (!graph.has(a)) graph.set(a, new Map())
    for (const spec of specifiers(file)) {
      if (!isRelative(spec)) continue
      const target = resolveImport(file, spec)
      const b = target && group(target)
      if (b === undefined || b === a) continue
      const edges = graph.get(a) as Map<string, Edge>
      if (!edges.has(b)) edges.set(b, { from: relative(ROOT, file), spec })
    }
  }
  return graph
}

/** Every cycle's strongly connected component (Tarjan), each given as one cycle through it. */
function cycles(graph: Graph): string[][] {
  let index = 0
  const idx = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const components: string[][] = []
  const visit = (v: string) => {
    idx.set(v, index)
    low.set(v, index)
    index++
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!idx.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, idx.get(w) as number))
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop() as string
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1) components.push(component)
    }
  }
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v)
  // One cycle through each component: the shortest path back to its first node.
  return components.map((component) => {
    const inside = new Set(component)
    const start = [...component].sort()[0] as string
    const previous = new Map<string, string>()
    const queue = [start]
    while (queue.length) {
      const v = queue.shift() as string
      for (const w of graph.get(v)?.keys() ?? []) {
        if (!inside.has(w) || previous.has(w)) continue
        previous.set(w, v)
        if (w === start) queue.length = 0
        else queue.push(w)
      }
    }
    const path = [start]
    for (let v = previous.get(start) as string; v !== start; v = previous.get(v) as string) path.unshift(v)
    return [start, ...path]
  })
}

/** A cycle as lines `a → b (file imports 'spec')`. */
function describeCycle(graph: Graph, cycle: string[]): string {
  return cycle
    .slice(1)
    .map((b, i) => {
      const a = cycle[i] as string
      const e = graph.get(a)?.get(b) as Edge
      return `${a} → ${b} (${e.from} imports '${e.spec}')`
    })
    .join('\n')
}

/** `a → b (file imports 'spec')` for each edge of `graph` that does not go down `order`. */
function againstOrder(graph: Graph, order: readonly string[]): string[] {
  const upward: string[] = []
  for (const [a, edges] of graph) {
    for (const [b, e] of edges) {
      if (order.indexOf(b) <= order.indexOf(a)) upward.push(`${a} → ${b} (${e.from} imports '${e.spec}')`)
    }
  }
  return upward
}

const srcFiles = walk(join(ROOT, 'src'))
const areaOf = (file: string) => {
  const [top, area] = relative(ROOT, file).split('/')
  return top === 'src' && area && !extname(area) ? area : undefined
}
describe('architecture', () => {
  it('the top-level areas of src/ form no cycle', () => {
    const graph = groupGraph(srcFiles, areaOf)
    expect(cycles(graph).map((c) => describeCycle(graph, c))).toEqual([])
  })

  it(`imports between areas go down the order ${AREA_ORDER.join(' → ')}`, () => {
    const graph = groupGraph(srcFiles, areaOf)
    const order: readonly string[] = AREA_ORDER
    expect(
      [...graph.keys()].filter((a) => !order.includes(a)),
      'every area has its place in AREA_ORDER',
    ).toEqual([])
    expect(againstOrder(graph, order)).toEqual([])
  })

  describe('src/service', () => {
    const SERVICE = join(ROOT, 'src/service')
    const serviceFiles = walk(SERVICE)
    /** A file's top-level entry of src/service: its folder, or its own name without extension for a root file. */
    const entryOf = (file: string) => {
      const path = relative(SERVICE, file)
      if (path.startsWith('..')) return undefined
      const first = path.split('/')[0] as string
      return first.slice(0, first.length - extname(first).length)
    }

    it('its folders and root files form no cycle', () => {
      const graph = groupGraph(serviceFiles, entryOf)
      expect(cycles(graph).map((c) => describeCycle(graph, c))).toEqual([])
    })

    it(`imports between its folders and root files go down the order ${SERVICE_ORDER.join(' → ')}`, () => {
      const graph = groupGraph(serviceFiles, entryOf)
      const order: readonly string[] = SERVICE_ORDER
      const entries = new Set(serviceFiles.map(entryOf))
      expect(
        [...entries].filter((e) => e !== undefined && !order.includes(e)),
        'every folder and root file has its place in SERVICE_ORDER',
      ).toEqual([])
      expect(
        order.filter((e) => !entries.has(e)),
        'every entry of SERVICE_ORDER names a folder or root file of src/service',
      ).toEqual([])
      expect(againstOrder(graph, order)).toEqual([])
    })
  })

  describe('packages', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>
      devDependencies?: Record<string, string>
    }
    const production = new Set(Object.keys(manifest.dependencies ?? {}))
    const development = new Set([...production, ...Object.keys(manifest.devDependencies ?? {})])
    const shipped = PRODUCTION.flatMap((d) => walk(join(ROOT, d)))
    const isTool = (file: string) => relative(ROOT, file).startsWith(DEVELOPMENT_TOOLS)
    const productionFiles = closure(shipped.filter((f) => !isTool(f)))
    const developmentFiles = [
      ...shipped.filter((f) => !productionFiles.includes(f)),
      ...DEVELOPMENT.flatMap((d) => walk(join(ROOT, d))),
      ...ROOT_FILES.map((f) => join(ROOT, f)),
    ]

    /** `file imports 'spec'` for each bare import whose package is not in `declared`. */
    const undeclared = (files: string[], declared: Set<string>) =>
      files.flatMap((file) =>
        specifiers(file)
          .filter((spec) => !isRelative(spec))
          .filter((spec) => {
            const name = packageOf(spec)
            return name !== undefined && !declared.has(name)
          })
          .map((spec) => `${relative(ROOT, file)} imports '${spec}'`),
      )

    it('production code (src/, entrypoints/) imports only packages in dependencies', () => {
      expect(undeclared(productionFiles, production)).toEqual([])
    })

    it('tests, benchmarks, scripts and configuration import only declared packages', () => {
      expect(undeclared(developmentFiles, development)).toEqual([])
    })
  })
})

/**
 * The browser extension carries what an address format IS (src/chains/formats/facts.ts) but never
 * how its address is MADE: the builders load libraries that need Node (`@ton/core` reads `Buffer`
 * at load, which kills the background service worker) or are too heavy for a browser bundle.
 */
describe('the extension bundle', () => {
  const ENTRYPOINTS = ['background.ts', 'popup', 'approval', 'content.ts', 'inpage.content.ts']
  const HEAVY_PACKAGES = ['@ton/core', '@scure/btc-signer', 'tiny-secp256k1']
  const FORMATS_DIR = join(ROOT, 'src/chains/formats')
  /** The address builders: every module of src/chains/formats except the data-only facts. */
  const isBuilder = (file: string) => dirname(file) === FORMATS_DIR && !file.endsWith('/facts.ts')

  it('loads no address builder and none of their libraries', () => {
    const roots = ENTRYPOINTS.flatMap((e) => {
      const path = join(ROOT, 'entrypoints', e)
      return statSync(path).isDirectory() ? walk(path) : [path]
    })
    const reachable = closure(roots)
    expect(reachable.length).toBeGreaterThan(roots.length)
    const offending = reachable.flatMap((file) =>
      specifiers(file)
        .filter((spec) => {
          if (!isRelative(spec)) return HEAVY_PACKAGES.includes(packageOf(spec) ?? '')
          const target = resolveImport(file, spec)
          return target !== undefined && isBuilder(target)
        })
        .map((spec) => `${relative(ROOT, file)} imports '${spec}'`),
    )
    expect(offending).toEqual([])
  })
})
