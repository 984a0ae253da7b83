/**
 * Once per integration run: compiles the service and dev chains (scripts/buildService.mjs), which
 * the tests that spawn them as their own processes run — the same output `npm run service` runs.
 */
import { buildService } from '../../scripts/buildService.mjs'

export default async function setup(): Promise<void> {
  await buildService()
}
