import { render } from 'preact'
import { ApprovalApp } from '../../src/extension/approval/ApprovalApp'
import { createPopupClient } from '../../src/extension/popup/client'
import '../../src/extension/popup/popup.css'
import '../../src/extension/approval/approval.css'

// The approval window: one pending request, named by `?id=` (background/approval/approvals.ts).
const root = document.getElementById('app')
const id = new URLSearchParams(location.search).get('id')
if (root) {
  render(
    <ApprovalApp
      client={createPopupClient((message) => browser.runtime.sendMessage(message))}
      id={id}
      closeWindow={() => window.close()}
    />,
    root,
  )
}
