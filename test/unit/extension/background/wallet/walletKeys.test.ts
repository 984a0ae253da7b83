/** Create, import and export: phrase and key checks, sealing to the signed import bundle with the plaintext wiped, export after a recent login. */
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import type { SigilClient } from '@/src/api/client'
import { bytesToHex, hexToBytes, utf8Decode } from '@/src/crypto/encoding'
import { generateP256KeyPair } from '@/src/crypto/p256'
import { createExportBundle, createTargetBundle, decryptEnvelope, encryptToTargetBundle } from '@/src/crypto/signedBundle'
import type { ActiveSession, Core } from '@/src/extension/background/core'
import {
  REAUTH_WINDOW_MS,
  addAccountGroup,
  checkPhrase,
  exportSecret,
  importPrivateKey,
  importWallet,
  parsePrivateKey,
} from '@/src/extension/background/wallet/walletKeys'

const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'
const NOW = 1_700_000_000_000
const identity = generateP256KeyPair()
const core = {
  now: () => NOW,
  service: async () => ({ keys: { identity: bytesToHex(generateP256KeyPair().publicKey), signer: bytesToHex(identity.publicKey) } }),
} as unknown as Core
const session = (authAgoMs = 0) =>
  ({ record: { organizationId: 'org-1', userId: 'user-1', createdAt: NOW - authAgoMs, authenticatedAt: 0 } }) as unknown as ActiveSession
const done = (result: Record<string, unknown>) => ({ activity: { status: 'ACTIVITY_STATUS_COMPLETED' }, ...result })

/** A fake client whose import bundle announces `target`, signed by `signer` (the service's bundle signer unless told). */
function importClient(target: ReturnType<typeof generateP256KeyPair>, signer = identity.privateKey) {
  const sent: Array<Record<string, any>> = []
  const importBundle = createTargetBundle({
    targetPublicKey: target.publicKey,
    signerPrivateKey: signer,
    organizationId: 'org-1',
    userId: 'user-1',
  })
  const client = {
    initImportWallet: async () => done({ importBundle }),
    initImportPrivateKey: async () => done({ importBundle }),
    importWallet: async (p: Record<string, unknown>) => (
      sent.push(p), done({ walletId: 'w9', addresses: ['0x9858EfFD232B4033E47d90003D41EC34EcaEda94'] })
    ),
    importPrivateKey: async (p: Record<string, unknown>) => (
      sent.push(p), done({ privateKeyId: 'pk9', addresses: [{ format: 'ADDRESS_FORMAT_ETHEREUM', address: '0xabc' }] })
    ),
  } as unknown as SigilClient
  return { client, sent }
}

describe('seed phrase and key checks', () => {
  it('accepts 12 or 24 English words with a valid checksum, in any case and spacing', () => {
    expect(checkPhrase(`  ${ABANDON.toUpperCase().replaceAll(' ', '   ')} `)).toBe(ABANDON)
  })

  it('refuses a wrong length, an unknown word or a bad checksum, naming the field and never the words', () => {
    const cases: Array<[string, RegExp]> = [
      ['abandon '.repeat(11), /12 or 24 words \(got 11\)/],
      [ABANDON.replace('about', 'zzzzz'), /word 12 is not in the BIP-39/],
      ['abandon '.repeat(12), /checksum does not match/],
    ]
    for (const [phrase, msg] of cases) {
      let err: any
      try {
        checkPhrase(phrase)
      } catch (e) {
        err = e
      }
      expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'mnemonic' })
      expect(err.message).toMatch(msg)
      expect(err.message).not.toMatch(/abandon|zzzzz/)
    }
  })

  it('reads an EVM hex key (0x optional) and a Solana base58 secret key (64 bytes checked, or a 32-byte seed)', () => {
    const hex = '42'.repeat(32)
    expect(bytesToHex(parsePrivateKey('ADDRESS_FORMAT_ETHEREUM', `0x${hex}`))).toBe(hex)
    expect(bytesToHex(parsePrivateKey('ADDRESS_FORMAT_ETHEREUM', hex.toUpperCase()))).toBe(hex)
    expect(() => parsePrivateKey('ADDRESS_FORMAT_ETHEREUM', '0x1234')).toThrow(expect.objectContaining({ field: 'privateKey' }))
    const seed = new Uint8Array(32).fill(7)
    const full = new Uint8Array([...seed, ...ed25519.getPublicKey(seed)])
    expect(parsePrivateKey('ADDRESS_FORMAT_SOLANA', base58.encode(full))).toEqual(seed)
    expect(parsePrivateKey('ADDRESS_FORMAT_SOLANA', base58.encode(seed))).toEqual(seed)
    const wrong = full.slice()
    wrong[40] = (wrong[40] ?? 0) ^ 1
    expect(() => parsePrivateKey('ADDRESS_FORMAT_SOLANA', base58.encode(wrong))).toThrow(/public half does not match/)
    expect(() => parsePrivateKey('ADDRESS_FORMAT_SOLANA', '0OIl')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
  })
})

describe('import', () => {
  it('encrypts the phrase to the signed import bundle (only its target key opens it) and zeroes the plaintext', async () => {
    const target = generateP256KeyPair()
    const { client, sent } = importClient(target)
    const seen: Uint8Array[] = []
    const seal: typeof encryptToTargetBundle = async (o) => {
      seen.push(o.plaintext)
      return encryptToTargetBundle(o)
    }
    const r = await importWallet(core, client, session(), { walletName: ' Cold ', mnemonic: ABANDON }, seal)
    expect(r).toEqual({ walletId: 'w9', addresses: ['0x9858EfFD232B4033E47d90003D41EC34EcaEda94'] })
    expect(sent[0]).toMatchObject({ organizationId: 'org-1', userId: 'user-1', walletName: 'Cold' })
    expect(sent[0]?.accounts.map((a: { path: string }) => a.path)).toEqual(["m/44'/60'/0'/0/0", "m/44'/501'/0'/0'"])
    expect(JSON.stringify(sent[0])).not.toContain('abandon')
    const opened = await decryptEnvelope({ envelope: sent[0]?.encryptedBundle, privateKey: target.privateKey })
    expect(opened.ok && utf8Decode(opened.plaintext)).toBe(ABANDON)
    expect(seen).toHaveLength(1)
    expect(seen[0]?.every((b) => b === 0)).toBe(true)
  })

  it('sends nothing when the import bundle is not signed by the service bundle signer, and still zeroes the plaintext', async () => {
    const { client, sent } = importClient(generateP256KeyPair(), generateP256KeyPair().privateKey)
    const seen: Uint8Array[] = []
    const seal: typeof encryptToTargetBundle = async (o) => (seen.push(o.plaintext), encryptToTargetBundle(o))
    await expect(importWallet(core, client, session(), { walletName: 'x', mnemonic: ABANDON }, seal)).rejects.toMatchObject({
      code: 'SERVICE_UNVERIFIED',
    })
    await expect(
      importPrivateKey(core, client, session(), { name: 'k', addressFormat: 'ADDRESS_FORMAT_ETHEREUM', privateKey: '11'.repeat(32) }, seal),
    ).rejects.toMatchObject({ code: 'SERVICE_UNVERIFIED' })
    expect(sent).toEqual([])
    expect(seen.map((b) => b.every((x) => x === 0))).toEqual([true, true])
  })

  it('imports a private key as its raw 32 bytes with the curve of its chain', async () => {
    const target = generateP256KeyPair()
    const { client, sent } = importClient(target)
    const r = await importPrivateKey(core, client, session(), {
      name: 'Old',
      addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
      privateKey: `0x${'11'.repeat(32)}`,
    })
    expect(r).toEqual({ privateKeyId: 'pk9', address: '0xabc' })
    expect(sent[0]).toMatchObject({ privateKeyName: 'Old', curve: 'CURVE_SECP256K1', addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] })
    const opened = await decryptEnvelope({ envelope: sent[0]?.encryptedBundle, privateKey: target.privateKey })
    expect(opened.ok && bytesToHex(opened.plaintext)).toBe('11'.repeat(32))
  })
})

describe('add account', () => {
  it('adds the Ethereum and Solana addresses at the next index past either family', async () => {
    const created: any[] = []
    const client = {
      listWallets: async () => ({ wallets: [{ walletId: 'w1', walletName: 'W' }] }),
      listWalletAccounts: async () => ({
        accounts: [
          {
            walletAccountId: 'a',
            address: '0x1',
            addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
            path: "m/44'/60'/0'/0/0",
            curve: 'CURVE_SECP256K1',
          },
          { walletAccountId: 'b', address: 'S', addressFormat: 'ADDRESS_FORMAT_SOLANA', path: "m/44'/501'/2'/0'", curve: 'CURVE_ED25519' },
          {
            walletAccountId: 'c',
            address: 'bc1',
            addressFormat: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH',
            path: "m/84'/0'/0'/0/7",
            curve: 'CURVE_SECP256K1',
          },
        ],
      }),
      createWalletAccounts: async (p: any) => (created.push(p), done({ addresses: ['0x2', 'S2'] })),
    } as unknown as SigilClient
    expect(await addAccountGroup(client, session(), { walletId: 'w1' })).toEqual({ index: 3, addresses: ['0x2', 'S2'] })
    expect(created[0].accounts.map((a: any) => [a.addressFormat, a.path])).toEqual([
      ['ADDRESS_FORMAT_ETHEREUM', "m/44'/60'/0'/0/3"],
      ['ADDRESS_FORMAT_SOLANA', "m/44'/501'/3'/0'"],
    ])
    await expect(addAccountGroup(client, session(), { walletId: 'nope' })).rejects.toMatchObject({ field: 'walletId' })
  })
})

describe('export', () => {
  function exportClient(plaintext: Uint8Array, signer = identity.privateKey) {
    const asked: string[] = []
    const bundle = async (p: { targetPublicKey: string }) =>
      createExportBundle({ plaintext, targetPublicKeyHex: p.targetPublicKey, organizationId: 'org-1', signerPrivateKey: signer })
    return {
      asked,
      client: {
        exportWallet: async (p: any) => (asked.push('wallet'), done({ exportBundle: await bundle(p) })),
        exportWalletAccount: async (p: any) => (asked.push('account'), done({ exportBundle: await bundle(p) })),
      } as unknown as SigilClient,
    }
  }

  it('needs a login within the last five minutes, and asks the service nothing before', async () => {
    const { client, asked } = exportClient(new TextEncoder().encode(ABANDON))
    await expect(exportSecret(core, client, session(REAUTH_WINDOW_MS + 1), { kind: 'wallet', walletId: 'w1' })).rejects.toMatchObject({
      code: 'REAUTH_REQUIRED',
    })
    expect(asked).toEqual([])
    const fresh = {
      record: { organizationId: 'org-1', userId: 'user-1', createdAt: 0, authenticatedAt: NOW - 1000 },
    } as unknown as ActiveSession
    expect(await exportSecret(core, client, fresh, { kind: 'wallet', walletId: 'w1' })).toEqual({ secret: ABANDON, kind: 'mnemonic' })
  })

  it('decrypts an account key to 0x hex (EVM) or the base58 64-byte secret (Solana)', async () => {
    const key = hexToBytes('42'.repeat(32))
    const { client } = exportClient(key)
    expect(await exportSecret(core, client, session(), { kind: 'account', address: '0xabc' })).toEqual({
      secret: `0x${'42'.repeat(32)}`,
      kind: 'privateKey',
    })
    const sol = await exportSecret(core, client, session(), { kind: 'account', address: 'Sol111' })
    expect(base58.decode(sol.secret)).toEqual(new Uint8Array([...key, ...ed25519.getPublicKey(key)]))
  })

  it('refuses an export bundle not signed by the service bundle signer', async () => {
    const { client } = exportClient(new TextEncoder().encode(ABANDON), generateP256KeyPair().privateKey)
    await expect(exportSecret(core, client, session(), { kind: 'wallet', walletId: 'w1' })).rejects.toMatchObject({
      code: 'SERVICE_UNVERIFIED',
    })
  })
})
