/**
 * The committed Gas Station artifact is what the pinned compiler makes of the committed source:
 * recompiling contracts/SigilBatchExecutor.sol gives the same ABI and bytecode, so the code the dev
 * chain deploys (and that accounts delegate to) is the reviewed Solidity and nothing else.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { compileBatchExecutor } from '../../../scripts/contractsCompiler.js'
import packageJson from '../../../package.json' with { type: 'json' }
import {
  BATCH_EXECUTOR_ABI,
  BATCH_EXECUTOR_COMPILER,
  BATCH_EXECUTOR_CREATION_CODE,
  BATCH_EXECUTOR_RUNTIME_CODE,
} from '../../../src/chains/gasStation/artifact.js'

const ROOT = resolve(__dirname, '../../..')

describe('SigilBatchExecutor artifact', () => {
  it('recompiles from contracts/SigilBatchExecutor.sol to exactly the exported ABI and bytecode', () => {
    const source = readFileSync(resolve(ROOT, 'contracts/SigilBatchExecutor.sol'), 'utf8')
    const build = compileBatchExecutor(source)
    expect(build.compiler).toBe(BATCH_EXECUTOR_COMPILER)
    expect(build.abi).toEqual(BATCH_EXECUTOR_ABI)
    expect(build.creationCode).toBe(BATCH_EXECUTOR_CREATION_CODE)
    expect(build.runtimeCode).toBe(BATCH_EXECUTOR_RUNTIME_CODE)
    // The runtime code sits inside the creation code (the constructor copies it out) and has no metadata trailer.
    expect(BATCH_EXECUTOR_CREATION_CODE).toContain(BATCH_EXECUTOR_RUNTIME_CODE.slice(2))
    expect(BATCH_EXECUTOR_RUNTIME_CODE.length).toBeGreaterThan(1000)
  }, 30_000)

  it('was made by the compiler package.json pins, and the source pins the same version', () => {
    const pinned = packageJson.devDependencies.solc
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/)
    expect(BATCH_EXECUTOR_COMPILER.startsWith(`${pinned}+commit.`)).toBe(true)
    const source = readFileSync(resolve(ROOT, 'contracts/SigilBatchExecutor.sol'), 'utf8')
    expect(source).toMatch(new RegExp(`^pragma solidity ${pinned.replaceAll('.', '\\.')};$`, 'm'))
  })

  it('exposes the entry points the wallet uses', () => {
    const names = new Set<string>(BATCH_EXECUTOR_ABI.map((item) => ('name' in item ? item.name : item.type)))
    for (const name of ['execute', 'nonce', 'batchDigest', 'domainSeparator', 'Expired', 'BadSignature', 'CallFailed'])
      expect(names.has(name), name).toBe(true)
  })
})
