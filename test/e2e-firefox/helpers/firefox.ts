/**
 * Launch Debian's firefox-esr headless with the built Firefox MV3 add-on, driven by puppeteer-core
 * over WebDriver BiDi (shared/notes/toolchain.md §8). Builds nothing: run `npx wxt build -b firefox` first.
 *
 * Firefox quirks handled here:
 * - `--remote-allow-system-access`: without it BiDi may not navigate a tab to `moz-extension://`.
 * - `extensions.webextensions.uuids`: pins the add-on's internal UUID, so its origin
 *   (`moz-extension://<uuid>`) is known before install (Firefox draws a random one per profile).
 * - A `moz-extension://` navigation never reports "load" to puppeteer: {@link openExtensionPage}
 *   starts it, gives up waiting after 3 s, and waits for the page's own ready marker instead.
 */
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core'
import { GECKO_ID } from '../../../src/api/identity'

/** Absolute path of the Firefox MV3 build (`SIGIL_FIREFOX_EXTENSION_DIR` to test another build, e.g. a copy). */
export const FIREFOX_EXTENSION_DIR =
  process.env['SIGIL_FIREFOX_EXTENSION_DIR'] ?? fileURLToPath(new URL('../../../.output/firefox-mv3', import.meta.url))

/** Firefox binary (apt package `firefox-esr`). */
export const FIREFOX_PATH = process.env['SIGIL_FIREFOX'] ?? '/usr/bin/firefox-esr'

/** Where screenshots go (gitignored, shared with the Chromium suite). */
export const ARTIFACTS = fileURLToPath(new URL('../../e2e/artifacts/', import.meta.url))

/** A running Firefox with the add-on installed. */
export type LaunchedFirefox = {
  browser: Browser
  /** The add-on's internal UUID (the host of its pages). */
  uuid: string
  /** `moz-extension://<uuid>`: the origin of the popup, the approval window and the background. */
  origin: string
  close: () => Promise<void>
}

/** Throw a clear error when the add-on has not been built. */
export function assertFirefoxBuilt(): void {
  if (!existsSync(join(FIREFOX_EXTENSION_DIR, 'manifest.json'))) {
    throw new Error(`Firefox build not found at ${FIREFOX_EXTENSION_DIR}. Run \`npx wxt build -b firefox\` first.`)
  }
  if (!existsSync(FIREFOX_PATH)) throw new Error(`Firefox not found at ${FIREFOX_PATH} (apt-get install firefox-esr)`)
}

/**
 * Launch headless Firefox (fresh profile) and install the add-on as a temporary add-on (BiDi `webExtension.install`).
 * `colorScheme` sets what pages see as `prefers-color-scheme` for the whole run (BiDi has no per-page
 * emulation of it, as CDP's `emulateMediaFeatures` is for Chromium).
 */
export async function launchFirefox(opts: { colorScheme?: 'light' | 'dark' } = {}): Promise<LaunchedFirefox> {
  assertFirefoxBuilt()
  const uuid = randomUUID()
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: uuid }),
      // 0 dark, 1 light (else the system's, which headless reports as light)
      ...(opts.colorScheme ? { 'layout.css.prefers-color-scheme.content-override': opts.colorScheme === 'dark' ? 0 : 1 } : {}),
    },
  })
  try {
    const id = await browser.installExtension(FIREFOX_EXTENSION_DIR)
    if (id !== GECKO_ID) throw new Error(`installed add-on id ${id}, expected ${GECKO_ID}`)
  } catch (err) {
    await browser.close()
    throw err
  }
  return { browser, uuid, origin: `moz-extension://${uuid}`, close: () => browser.close() }
}

/**
 * Open one of the add-on's pages (e.g. `/popup.html`) in a new tab and wait for `readySelector`.
 *
 * With `opener` (an add-on page already open), the add-on opens the tab itself (`tabs.create`), as
 * it opens its approval windows; BiDi shows the tab at `about:blank` and never reports its
 * navigation, so it is found as the next new tab. Without, a blank tab is navigated there; that
 * works for the first page, but once an approval window has been open, BiDi answers "no such frame"
 * for such a tab as it moves into the add-on's process.
 */
export async function openExtensionPage(ff: LaunchedFirefox, path: string, readySelector: string, opener?: Page): Promise<Page> {
  let page: Page | null
  if (opener) {
    const known = new Set(ff.browser.targets())
    const opened = ff.browser.waitForTarget((t) => t.type() === 'page' && !known.has(t), { timeout: 15_000 })
    await opener.evaluate((url) => (globalThis as any).browser.tabs.create({ url }).then(() => undefined), path)
    page = await (await opened).page()
    if (!page) throw new Error(`the tab opened for ${path} has no page`)
  } else {
    page = await ff.browser.newPage()
    await page.goto(`${ff.origin}${path}`, { timeout: 3_000 }).catch(() => {})
  }
  await page.waitForSelector(readySelector, { timeout: 15_000 })
  await page.setViewport({ width: 380, height: 600 })
  return page
}

/** Open the popup as a tab and wait for the background's status (as the Chromium suite does); see {@link openExtensionPage}. */
export function openPopup(ff: LaunchedFirefox, opener?: Page): Promise<Page> {
  return openExtensionPage(ff, '/popup.html', '#status[data-state="ready"]', opener)
}

/** Call the background's popup table from an extension page (the router's allowed sender). */
export function callBackground(page: Page, method: string, params?: unknown): Promise<any> {
  return page.evaluate(
    (m, p) => {
      const msg: Record<string, unknown> = { kind: 'popup', method: m }
      if (p !== null) msg.params = p
      return (globalThis as any).browser.runtime.sendMessage(msg)
    },
    method,
    params ?? null,
  )
}

/** Wait for the first shown element matching `css` whose trimmed text is `text`. */
export async function byText(page: Page, css: string, text: string, timeout = 15_000): Promise<ElementHandle<Element>> {
  const handle = await page.waitForFunction(
    (c, t) => [...document.querySelectorAll(c)].find((e) => e.textContent?.trim() === t && e.getClientRects().length > 0),
    { timeout, polling: 100 },
    css,
    text,
  )
  return handle as ElementHandle<Element>
}

/** Click the shown button whose text is `name`. */
export async function clickButton(page: Page, name: string): Promise<void> {
  const button = await byText(page, 'button', name)
  await page.waitForFunction((b) => !(b as HTMLButtonElement).disabled, { polling: 100 }, button)
  await button.click()
}

/** The form control of the popup's `<Field label=…>` (a `<label>` wrapping its text and the control). */
export async function byLabel(page: Page, label: string): Promise<ElementHandle<Element>> {
  const handle = await page.waitForFunction(
    (t) =>
      [...document.querySelectorAll('label')]
        .find((l) => l.querySelector('.label')?.textContent?.trim() === t && l.getClientRects().length > 0)
        ?.querySelector('input, select, textarea'),
    { timeout: 15_000, polling: 100 },
    label,
  )
  return handle as ElementHandle<Element>
}

/** Type `value` into the labelled field, replacing what it held. */
export async function fill(page: Page, label: string, value: string): Promise<void> {
  const input = await byLabel(page, label)
  await input.evaluate((el) => {
    ;(el as HTMLInputElement).select()
  })
  await input.type(value)
  const got = await input.evaluate((el) => (el as HTMLInputElement).value)
  if (got !== value) throw new Error(`field "${label}" holds ${JSON.stringify(got)} after typing ${JSON.stringify(value)}`)
}

/** Save a screenshot as `firefox-<name>.png` beside the Chromium suite's. */
export async function shot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true })
  await page.screenshot({ path: `${ARTIFACTS}firefox-${name}.png` as `${string}.png` })
}
