/** EVM revert decoding lives in src/chains/revert.ts (pure, shared with the extension's simulation). */
export * from '../../chains/revert.js'
