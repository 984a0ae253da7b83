#!/usr/bin/env node
// `npm start`: builds the extension (Chrome and Firefox), then runs the local
// key-management service (with the relay mounted at /auth) in the foreground.
import { spawn, spawnSync } from 'node:child_process'
import { resolve } from 'node:path'

for (const args of [['wxt', 'build'], ['wxt', 'build', '-b', 'firefox']]) {
  const r = spawnSync('npx', args, { stdio: ['ignore', 'ignore', 'inherit'] })
  if (r.status !== 0) {
    console.error(`npx ${args.join(' ')} failed`)
    process.exit(r.status ?? 1)
  }
}
console.error(`Extension built:
  Chrome:  chrome://extensions → Developer mode → Load unpacked → ${resolve('.output/chrome-mv3')}
  Firefox: about:debugging#/runtime/this-firefox → Load Temporary Add-on → ${resolve('.output/firefox-mv3/manifest.json')}
`)
const service = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => service.kill(signal))
service.on('exit', (code) => process.exit(code ?? 0))
