import { createBackground } from '../src/extension/background'
import { createIdbKeyStore } from '../src/extension/background/idbKeyStore'

export default defineBackground(() => {
  const background = createBackground(
    { extensionId: browser.runtime.id, extensionBaseUrl: browser.runtime.getURL('/') },
    {
      keyStore: createIdbKeyStore(),
      local: browser.storage.local,
      session: browser.storage.session,
      alarms: browser.alarms,
      openTab: async (url) => {
        await browser.tabs.create({ url })
      },
    },
  )
  browser.runtime.onMessage.addListener(background.onMessage)
  browser.alarms.onAlarm.addListener((alarm) => void background.onAlarm(alarm))
})
