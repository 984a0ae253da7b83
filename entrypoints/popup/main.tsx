import { render } from 'preact'
import { App } from '../../src/extension/popup/App'
import { createPopupClient } from '../../src/extension/popup/client'
import { storageSessionWatch } from '../../src/extension/popup/sessionWatch'
import '../../src/extension/popup/popup.css'

const root = document.getElementById('app')
if (root) {
  const client = createPopupClient((message) => browser.runtime.sendMessage(message))
  render(
    <App
      client={client}
      requestHostAccess={(origins) => browser.permissions.request({ origins })}
      watchSession={storageSessionWatch(browser.storage.session)}
    />,
    root,
  )
}
