/**
 * Launch Debian Chromium with the built extension (shared/notes/toolchain.md §4, P3, P4).
 * Builds nothing: run `npx wxt build` first.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type BrowserContext, type Worker } from 'playwright-core'

/** Absolute path of the Chrome MV3 build (`SIGIL_EXTENSION_DIR` to test another build, e.g. an older one). */
export const EXTENSION_DIR = process.env['SIGIL_EXTENSION_DIR'] ?? fileURLToPath(new URL('../../../.output/chrome-mv3', import.meta.url))

/** Chromium binary (apt package `chromium`). */
export const CHROMIUM_PATH = process.env['SIGIL_CHROMIUM'] ?? '/usr/bin/chromium'

/** Flags for Debian Chromium on this closed network (shared/notes/toolchain.md §4, P4). */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** A running browser with the extension loaded. */
export type LaunchedExtension = {
  context: BrowserContext
  extensionId: string
  serviceWorker: Worker
  /** The profile directory (deleted by `close`). */
  userDataDir: string
  /** Close the browser and delete the profile. */
  close: () => Promise<void>
  /** Close the browser, keeping the profile for {@link relaunchExtension}. */
  closeKeepingProfile: () => Promise<void>
}

/** Throw a clear error when the extension has not been built. */
export function assertExtensionBuilt(dir: string = EXTENSION_DIR): void {
  if (!existsSync(join(dir, 'manifest.json'))) {
    throw new Error(`Extension build not found at ${dir}/manifest.json. Run \`npx wxt build\` before the e2e tests.`)
  }
}

/**
 * Launch a fresh persistent context (temporary profile) and wait for the extension's service worker.
 * `extensionDir` defaults to the Chrome MV3 build (bench/extension.ts passes its bench build).
 */
export async function launchExtension(extensionDir: string = EXTENSION_DIR, extraArgs: readonly string[] = []): Promise<LaunchedExtension> {
  return launchWithProfile(await mkdtemp(join(tmpdir(), 'sigil-e2e-')), extensionDir, extraArgs)
}

/** A browser restart: launch again on the profile of a browser closed with `closeKeepingProfile`. */
export async function relaunchExtension(closed: LaunchedExtension, extensionDir: string = EXTENSION_DIR): Promise<LaunchedExtension> {
  return launchWithProfile(closed.userDataDir, extensionDir)
}

async function launchWithProfile(userDataDir: string, extensionDir: string, extraArgs: readonly string[] = []): Promise<LaunchedExtension> {
  assertExtensionBuilt(extensionDir)
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH} (apt-get install chromium)`)
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    ignoreDefaultArgs: ['--disable-extensions'],
    args: [`--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`, ...CHROMIUM_FLAGS, ...extraArgs],
  })
  const close = async () => {
    await context.close()
    await rm(userDataDir, { recursive: true, force: true })
  }
  try {
    const isExtensionWorker = (w: Worker) => w.url().startsWith('chrome-extension://')
    const serviceWorker =
      context.serviceWorkers().find(isExtensionWorker) ??
      (await context.waitForEvent('serviceworker', { predicate: isExtensionWorker, timeout: 20_000 }))
    const closeKeepingProfile = async () => {
      await context.close()
    }
    return { context, extensionId: new URL(serviceWorker.url()).host, serviceWorker, userDataDir, close, closeKeepingProfile }
  } catch (err) {
    await close()
    throw err
  }
}
