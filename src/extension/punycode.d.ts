/** punycode.js (Mathias Bynens), the userland RFC 3492 codec: only what Sigil uses. */
declare module 'punycode.js' {
  /** A domain's `xn--` labels decoded to Unicode; other labels unchanged. */
  export function toUnicode(domain: string): string
}
