/** Types for MetaMask's phishing list package (CommonJS, untyped): the detector class and its bundled list. */
declare module 'eth-phishing-detect/src/detector.js' {
  /** The package's legacy list shape (its src/config.json). */
  export type LegacyPhishingConfig = {
    whitelist?: string[]
    blacklist?: string[]
    fuzzylist?: string[]
    tolerance?: number | undefined
  }
  export type PhishingCheckResult = {
    result: boolean
    type: 'all' | 'fuzzy' | 'whitelist' | 'blacklist' | 'allowlist' | 'blocklist'
    match?: string
  }
  export default class PhishingDetector {
    constructor(config: LegacyPhishingConfig)
    check(domain: string): PhishingCheckResult
  }
}
