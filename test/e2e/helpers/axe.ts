/**
 * Accessibility check with axe-core: inject node_modules/axe-core/axe.min.js
 * into the page, run it on the whole document, and list the serious and critical violations.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

/** One violation, short enough to read in a failed assertion. */
export type AxeFinding = { id: string; impact: string; help: string; targets: string[] }

/** Serious and critical axe violations on `page` (an empty list is a pass). */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) {
    await page.addScriptTag({ path: AXE_PATH }).catch(() => undefined)
    // An extension page's CSP (script-src 'self') blocks the inline tag: evaluate the same source instead.
    if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(await readFile(AXE_PATH, 'utf8'))
  }
  return page.evaluate(async () => {
    const axe = (globalThis as any).axe
    const result = await axe.run(document, { resultTypes: ['violations'] })
    return (result.violations as any[])
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n: any) => String(n.target)) }))
  })
}
