/**
 * `npm run contracts`: compiles `contracts/*.sol` with the pinned solc-js (the `solc` package,
 * the Solidity team's own compiler build) and writes each contract's ABI and runtime/creation
 * bytecode to `src/chains/gasStation/artifact.ts`. Reproducible: fixed compiler version, fixed
 * settings, no metadata hash, so the same source gives the same bytes; a unit test recompiles and
 * compares (test/unit/chains/gasStation.artifact.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { compileBatchExecutor } from './contractsCompiler.js'

const out = compileBatchExecutor(readFileSync(new URL('../contracts/SigilBatchExecutor.sol', import.meta.url), 'utf8'))
writeFileSync(new URL('../src/chains/gasStation/artifact.ts', import.meta.url), out.module)
console.log(`SigilBatchExecutor: ${out.runtimeBytes} bytes of runtime code, solc ${out.compiler}`)
