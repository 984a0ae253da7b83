import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Encryption at rest for private keys, mnemonics, provider secrets: AES-256-GCM under
 * the master key, with the record's purpose as associated data so that a ciphertext
 * cannot be moved to another row. Format: `v1:` + base64(iv12 || ciphertext || tag16).
 */
export interface SecretBox {
  seal(plaintext: Uint8Array, purpose: string): string
  open(sealed: string, purpose: string): Uint8Array
}

/** Reads the master key from config, else from `<dataDir>/master.key` (created 0600 on first start). */
export function loadMasterKey(masterKeyHex: string | undefined, dataDir: string): Uint8Array {
  if (masterKeyHex) return Uint8Array.from(Buffer.from(masterKeyHex, 'hex'))
  mkdirSync(dataDir, { recursive: true })
  const file = join(dataDir, 'master.key')
  if (!existsSync(file)) {
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' })
  }
  chmodSync(file, 0o600)
  const hex = readFileSync(file, 'utf8').trim()
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`master key file ${file} is malformed`)
  return Uint8Array.from(Buffer.from(hex, 'hex'))
}

export function createSecretBox(masterKey: Uint8Array): SecretBox {
  if (masterKey.length !== 32) throw new Error('master key must be 32 bytes')
  const key = Buffer.from(masterKey)
  return {
    seal(plaintext, purpose) {
      const iv = randomBytes(12)
      const c = createCipheriv('aes-256-gcm', key, iv)
      c.setAAD(Buffer.from(purpose, 'utf8'))
      const ct = Buffer.concat([c.update(plaintext), c.final()])
      return `v1:${Buffer.concat([iv, ct, c.getAuthTag()]).toString('base64')}`
    },
    open(sealed, purpose) {
      if (!sealed.startsWith('v1:')) throw new Error('unknown sealed-secret version')
      const raw = Buffer.from(sealed.slice(3), 'base64')
      const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12))
      d.setAAD(Buffer.from(purpose, 'utf8'))
      d.setAuthTag(raw.subarray(raw.length - 16))
      return new Uint8Array(Buffer.concat([d.update(raw.subarray(12, raw.length - 16)), d.final()]))
    },
  }
}
