/**
 * The extension's pinned identity. The manifest `key` (base64 DER SPKI of an RSA
 * public key) fixes the unpacked extension id, so WebAuthn credentials (whose RP is
 * `chrome-extension://<id>`, see the toolchain notes §5) survive rebuilds and
 * path changes. The id is sha256(DER)[0:16] written with the letters a–p.
 */
export const EXTENSION_MANIFEST_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAsrvTL9u9EeZwK72ElupkQe05QfqHmzqo6WahqsVsT9ex6VT6gI2UnuF+gcOdRgBsNn0n1Z92u0zYIFRY3FXHWH7uef1HB4spVluRshNL4uuGmmiOwZ5/YnIw5+6nMJ3Sfe61gws7kEZlFKWdm4aMJ3eXGKoAGX3xgQyYov1l98jiIA4uJIgq2EdMTIvwvqebniaTwInij7g+nQOc2TisjSp118V/aqinARzIolZErO0ONcfhBi4Ni953fPr7XynMJh7WP88F3SGS0gYqxQLM1Chj24mv91nKRuUeRfu0yFDj7jnSsLsrFjcgV0gB1rVd6InpBxq84OKcGElW4m+70QIDAQAB'

/** Chrome extension id derived from {@link EXTENSION_MANIFEST_KEY}. */
export const EXTENSION_ID = 'enibeleniamgnfhbmpkkldfacbjikdfa'

/** The extension's origin in Chromium: allowed by default by the service and relay. */
export const EXTENSION_ORIGIN = `chrome-extension://${EXTENSION_ID}`

/** Gecko id of the Firefox build. */
export const GECKO_ID = 'sigil@sigil.local'
