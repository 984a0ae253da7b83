import { defineConfig } from 'wxt'
import preact from '@preact/preset-vite'
import { EXTENSION_MANIFEST_KEY, GECKO_ID } from './src/api/identity'

// See shared/notes/toolchain.md §3 (layout), §7 P6 (MAIN-world provider), P9 (Firefox MV3).
export default defineConfig({
  manifestVersion: 3,
  vite: () => ({ plugins: [preact()] }),
  zip: { excludeSources: ['.sigil/**', 'test/e2e/artifacts/**', '.output/**', 'node_modules/**'] },
  manifest: ({ browser }) => ({
    name: 'Sigil',
    description: 'A wallet whose keys never live in the browser.',
    permissions: ['storage', 'alarms', 'identity'],
    host_permissions: ['http://127.0.0.1/*', 'http://localhost/*'],
    // A service elsewhere is reached only after the user allows its host (popup Settings, issue 13 item 9).
    optional_host_permissions: ['https://*/*'],
    content_security_policy: {
      extension_pages: "script-src 'self'; object-src 'self'; frame-ancestors 'none'",
    },
    icons: { 16: 'icon-16.png', 48: 'icon-48.png', 128: 'icon-128.png' },
    ...(browser === 'firefox'
      ? {
          // 140 (the ESR Debian ships): data_collection_permissions, which AMO requires of new
          // add-ons, needs Firefox 140 on desktop and 142 on Android; MAIN-world content scripts need 128.
          browser_specific_settings: {
            gecko: {
              id: GECKO_ID,
              strict_min_version: '140.0',
              data_collection_permissions: { required: ['none'] },
            },
            gecko_android: { strict_min_version: '142.0' },
          },
        }
      : { key: EXTENSION_MANIFEST_KEY }),
  }),
})
