// Vite's build mode (`wxt build --mode <m>`), replaced at build time; WXT's generated
// ImportMetaEnv leaves it out. Used by entrypoints/background.ts for the bench build.
interface ImportMetaEnv {
  readonly MODE: string
}

// Distribution options, read by src/extension/background/service/buildConfig.ts.
interface ImportMetaEnv {
  readonly WXT_SIGIL_SERVICE_URL?: string
  readonly WXT_SIGIL_RELAY_URL?: string
  readonly WXT_SIGIL_SERVICE_KEY?: string
  readonly WXT_SIGIL_LOCK_SETTINGS?: string
}
