import type { DappRpcMessage } from '../src/extension/protocol/runtime'
import { parseProviderEvent, postProviderEvent, startRelay } from '../src/extension/content/relay'

// ISOLATED-world relay between the page's provider (inpage.content.ts) and the background.
export default defineContentScript({
  matches: ['http://*/*', 'https://*/*'],
  runAt: 'document_start',
  main() {
    startRelay({ win: window, sendMessage: (message: DappRpcMessage) => browser.runtime.sendMessage(message) })
    browser.runtime.onMessage.addListener((message: unknown, sender) => {
      const event = parseProviderEvent(message, sender, browser.runtime.id)
      if (event) postProviderEvent(window, event)
    })
  },
})
