import { createBackground } from '../src/extension/background'
import { installBenchHooks } from '../src/extension/background/benchHooks'
import { createIdbBlobStore } from '../src/extension/background/session/idbKeyStore'
import { createSealedKeyStore } from '../src/extension/background/session/sealedKeyStore'
import { createIdbStorageArea } from '../src/extension/background/storage/idbStorageArea'
import { setUpStorage } from '../src/extension/background/storage/storageAccess'
import { deferredArea } from '../src/extension/background/storage/storageArea'

export default defineBackground(() => {
  // Content scripts must not read or write settings, grants, the chain or the sealed key store's
  // wrapping key in storage.session. Where storage.local cannot be restricted (Firefox),
  // the persistent state lives in the extension's IndexedDB instead (storage/storageAccess.ts).
  const local = deferredArea(
    setUpStorage({ local: browser.storage.local, session: browser.storage.session, openIdb: () => createIdbStorageArea() }),
  )
  const background = createBackground(
    { extensionId: browser.runtime.id, extensionBaseUrl: browser.runtime.getURL('/') },
    {
      keyStore: createSealedKeyStore(createIdbBlobStore(), browser.storage.session),
      local,
      session: browser.storage.session,
      alarms: browser.alarms,
      openTab: async (url) => {
        await browser.tabs.create({ url })
      },
      // "Continue with …": the browser's own sign-in window; its redirect never loads.
      webAuthFlow: async (url) => {
        const back = await browser.identity.launchWebAuthFlow({ url, interactive: true })
        if (!back) throw new Error('the sign-in window returned nothing')
        return back
      },
      authRedirectUrl: () => browser.identity.getRedirectURL('oidc'),
    },
    {
      openApprovalWindow: async (id) => {
        const url = `${browser.runtime.getURL('/approval.html')}?id=${encodeURIComponent(id)}`
        const win = await browser.windows.create({ type: 'popup', url, width: 420, height: 640, focused: true })
        if (win?.id === undefined) throw new Error('approval window has no id')
        return win.id
      },
      openLoginWindow: async () => {
        const win = await browser.windows.create({
          type: 'popup',
          url: browser.runtime.getURL('/popup.html'),
          width: 400,
          height: 640,
          focused: true,
        })
        if (win?.id === undefined) throw new Error('login window has no id')
        return win.id
      },
      closeWindow: async (windowId) => {
        await browser.windows.remove(windowId)
      },
      sendToTab: async (tabId, message, documentId) => {
        await (documentId === undefined
          ? browser.tabs.sendMessage(tabId, message)
          : browser.tabs.sendMessage(tabId, message, { documentId }))
      },
    },
  )
  browser.runtime.onMessage.addListener(background.onMessage)
  browser.alarms.onAlarm.addListener((alarm) => void background.onAlarm(alarm))
  browser.windows.onRemoved.addListener(background.onWindowRemoved)
  browser.tabs.onRemoved.addListener((tabId) => background.onTabRemoved(tabId))
  // Only in `wxt build --mode bench` (bench/extension.ts); tree-shaken from normal builds.
  if (import.meta.env.MODE === 'bench') installBenchHooks()
})
