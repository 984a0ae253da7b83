#!/usr/bin/env node
// `npm start`: builds the extension (Chrome and Firefox), then runs the dev chains
// (EVM and Solana) and the local key-management service (with the relay mounted at
// /auth) in the foreground. Ctrl-C stops all of them.
import { spawn, spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { buildService } from './buildService.mjs'

for (const args of [
  ['wxt', 'build'],
  ['wxt', 'build', '-b', 'firefox'],
]) {
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
// The service and dev chains run compiled (scripts/buildService.mjs): no TypeScript loader at run time,
// and no source maps read at start (≈ 150 ms and 50 MB: NODE_OPTIONS=--enable-source-maps maps stack
// traces back to src/ when wanted; the .map files are beside the bundles).
await buildService()
// The service signs with the published development identity key, which development builds
// of the extension pin; set SIGIL_IDENTITY_KEY to use another.
const env = { ...process.env, SIGIL_IDENTITY_KEY: process.env.SIGIL_IDENTITY_KEY ?? 'dev' }
const children = ['dist/devchain.js', 'dist/service.js'].map((entry) => spawn(process.execPath, [entry], { stdio: 'inherit', env }))
let stopping = false
const stop = (signal) => {
  stopping = true
  for (const c of children) if (c.exitCode === null) c.kill(signal)
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal))
// When one stops, stop the other; exit once both are gone, with the first failure's code.
let code = 0
let left = children.length
for (const c of children) {
  c.on('exit', (exitCode) => {
    if (!stopping && exitCode !== 0) code ||= exitCode ?? 1
    if (!stopping) stop('SIGTERM')
    if (--left === 0) process.exit(code)
  })
}
