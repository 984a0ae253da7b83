import { defineConfig } from 'vitest/config'
import { WxtVitest } from 'wxt/testing/vitest-plugin'

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [WxtVitest()],
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          // Unit tests run beside the integration suite in CI, on 2 cores: generous but bounded.
          testTimeout: 20_000,
          setupFiles: ['test/unit/setup.ts'],
          mockReset: true,
          restoreMocks: true,
          // One retry for a test that failed on a loaded 2-core CI machine; `npm test` lists failures at its end.
          retry: 1,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // Compiles the service the spawning tests run (dist/).
          globalSetup: ['test/integration/globalSetup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // One retry for a test that failed on a loaded 2-core CI machine; `npm test` lists failures at its end.
          retry: 1,
        },
      },
      {
        test: {
          name: 'fuzz',
          include: ['test/fuzz/**/*.test.ts'],
          environment: 'node',
          // The suite bounds itself (FUZZ_BUDGET_MS); the test sets its own timeout from it.
          testTimeout: 240_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // One retry for a test that failed on a loaded 2-core CI machine; `npm test` lists failures at its end.
          retry: 1,
        },
      },
      {
        test: {
          // Firefox ESR driven by puppeteer-core over WebDriver BiDi (test/e2e-firefox/helpers/firefox.ts).
          name: 'e2e-firefox',
          include: ['test/e2e-firefox/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // One retry for a test that failed on a loaded 2-core CI machine; `npm test` lists failures at its end.
          retry: 1,
        },
      },
    ],
  },
})
