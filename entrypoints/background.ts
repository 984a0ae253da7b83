import { createBackground } from '../src/extension/background'

export default defineBackground(() => {
  const background = createBackground({
    extensionId: browser.runtime.id,
    extensionBaseUrl: browser.runtime.getURL('/'),
  })
  browser.runtime.onMessage.addListener(background.onMessage)
})
