import { render } from 'preact'
import { App } from '../../src/extension/popup/App'
import { createPopupClient } from '../../src/extension/popup/client'
import '../../src/extension/popup/popup.css'

const root = document.getElementById('app')
if (root) {
  const client = createPopupClient((message) => browser.runtime.sendMessage(message))
  render(<App client={client} requestHostAccess={(origins) => browser.permissions.request({ origins })} />, root)
}
