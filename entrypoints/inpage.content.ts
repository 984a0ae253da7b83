import { installProvider } from '../src/extension/provider/install'

// MAIN-world provider, defined before the page's first script (toolchain.md P6).
export default defineContentScript({
  matches: ['http://*/*', 'https://*/*'],
  runAt: 'document_start',
  world: 'MAIN',
  main() {
    installProvider(window)
  },
})
