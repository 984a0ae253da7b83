import { bytesToHex } from '../../../src/crypto/encoding.js'
import { generateP256KeyPair } from '../../../src/crypto/p256.js'
import { createApiKeyStamper } from '../../../src/crypto/stamp.js'

/** A fresh P-256 API key: its stamper and the `apiKeys[]` parameter that registers it. */
export function newApiKey(name = 'test key', expirationSeconds?: string) {
  const kp = generateP256KeyPair()
  const publicKey = bytesToHex(kp.publicKey)
  const stamper = createApiKeyStamper({ privateKeyHex: bytesToHex(kp.privateKey) })
  const param = {
    apiKeyName: name,
    publicKey,
    curveType: 'API_KEY_CURVE_P256' as const,
    ...(expirationSeconds ? { expirationSeconds } : {}),
  }
  return { publicKey, privateKeyHex: bytesToHex(kp.privateKey), stamper, param }
}

/** A root user parameter of create_sub_organization with the given API keys. */
export function rootUser(userName: string, apiKeys: Array<ReturnType<typeof newApiKey>['param']> = []) {
  return { userName, userEmail: `${userName}@example.com`, apiKeys, authenticators: [], oauthProviders: [] }
}
