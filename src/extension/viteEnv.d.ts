// Vite's build mode (`wxt build --mode <m>`), replaced at build time; WXT's generated
// ImportMetaEnv leaves it out. Used by entrypoints/background.ts for the bench build.
interface ImportMetaEnv {
  readonly MODE: string
}
