import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { decryptExportBundle } from '@turnkey/crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deriveAccount, deriveKey } from '../../src/chains/derive.js'
import { mnemonicToSeed } from '../../src/chains/mnemonic.js'
import type { AddressFormat, Curve } from '../../src/chains/types.js'
import { bytesToHex, utf8Decode, utf8Encode } from '../../src/crypto/encoding.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { encryptToTargetBundle, openExportBundle } from '../../src/crypto/signedBundle.js'
import type { Stamper } from '../../src/api/stamper.js'
import { newApiKey, rootUser } from './helpers/keys.js'
import { startTestService, submitBody, type TestService } from './helpers/service.js'

const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'
const HARDHAT = 'test test test test test test test test test test test junk'
const vectors = JSON.parse(readFileSync(join(import.meta.dirname, '../vectors/derivation-vectors.json'), 'utf8')) as {
  addresses: Array<{ mnemonic: string; curve: Curve; path: string; addressFormat: AddressFormat; address: string }>
}

type Account = { curve: Curve; pathFormat: 'PATH_FORMAT_BIP32'; path: string; addressFormat: AddressFormat; name?: string }
const acct = (curve: Curve, path: string, addressFormat: AddressFormat): Account => ({
  curve,
  pathFormat: 'PATH_FORMAT_BIP32',
  path,
  addressFormat,
})
const S: Curve = 'CURVE_SECP256K1'
const E: Curve = 'CURVE_ED25519'
const P: Curve = 'CURVE_P256'

/** One account of (nearly) every format of the interface, on its default path. */
const MANY: Account[] = [
  acct(S, "m/44'/60'/0'/0/0", 'ADDRESS_FORMAT_ETHEREUM'),
  acct(E, "m/44'/501'/0'/0'", 'ADDRESS_FORMAT_SOLANA'),
  acct(S, "m/44'/118'/0'/0/0", 'ADDRESS_FORMAT_COSMOS'),
  acct(S, "m/44'/195'/0'", 'ADDRESS_FORMAT_TRON'),
  acct(E, "m/44'/784'/0'/0'/0'", 'ADDRESS_FORMAT_SUI'),
  acct(E, "m/44'/637'/0'/0'/0'", 'ADDRESS_FORMAT_APTOS'),
  acct(S, "m/44'/118'/0'/0'/0'", 'ADDRESS_FORMAT_SEI'),
  acct(E, "m/44'/148'/0'", 'ADDRESS_FORMAT_XLM'),
  acct(S, "m/44'/144'/0'/0'/0'", 'ADDRESS_FORMAT_XRP'),
  acct(S, "m/44'/0'/0'/0/0", 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH'),
  acct(S, "m/49'/0'/0'/0/0", 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH'),
  acct(S, "m/84'/0'/0'/0/0", 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH'),
  acct(S, "m/48'/0'/0'/2'/0/0", 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH'),
  acct(S, "m/86'/0'/0'/0/0", 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR'),
  acct(S, "m/84'/1'/0'/0/0", 'ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH'),
  acct(S, "m/86'/1'/0'/0/0", 'ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR'),
  acct(S, "m/44'/1'/0'/0/0", 'ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH'),
  acct(S, "m/44'/3'/0'/0/0", 'ADDRESS_FORMAT_DOGE_MAINNET'),
  acct(S, "m/44'/3'/0'/0/0", 'ADDRESS_FORMAT_DOGE_TESTNET'),
  acct(E, "m/44'/607'/0'/0'/0'", 'ADDRESS_FORMAT_TON_V3R2'),
  acct(E, "m/44'/607'/0'/0'/0'", 'ADDRESS_FORMAT_TON_V4R2'),
  acct(E, "m/44'/607'/0'/0'/0'", 'ADDRESS_FORMAT_TON_V5R1'),
  acct(S, "m/44'/60'/0'/0/0", 'ADDRESS_FORMAT_UNCOMPRESSED'),
  acct(P, "m/44'/0'/0'/0/0", 'ADDRESS_FORMAT_COMPRESSED'),
  acct(P, "m/44'/0'/0'/0/1", 'ADDRESS_FORMAT_UNCOMPRESSED'),
  acct(E, "m/44'/0'/0'", 'ADDRESS_FORMAT_COMPRESSED'),
]

const ADDRESS_SHAPES: Partial<Record<AddressFormat, RegExp>> = {
  ADDRESS_FORMAT_ETHEREUM: /^0x[0-9a-fA-F]{40}$/,
  ADDRESS_FORMAT_SOLANA: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
  ADDRESS_FORMAT_COSMOS: /^cosmos1[02-9ac-hj-np-z]{38}$/,
  ADDRESS_FORMAT_TRON: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  ADDRESS_FORMAT_SUI: /^0x[0-9a-f]{64}$/,
  ADDRESS_FORMAT_APTOS: /^0x[0-9a-f]{64}$/,
  ADDRESS_FORMAT_SEI: /^sei1[02-9ac-hj-np-z]{38}$/,
  ADDRESS_FORMAT_XLM: /^G[A-Z2-7]{55}$/,
  ADDRESS_FORMAT_XRP: /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/,
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH: /^1/,
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH: /^3/,
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH: /^bc1q[02-9ac-hj-np-z]{38}$/,
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH: /^bc1q[02-9ac-hj-np-z]{58}$/,
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR: /^bc1p[02-9ac-hj-np-z]{58}$/,
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH: /^tb1q/,
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR: /^tb1p/,
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH: /^[mn]/,
  ADDRESS_FORMAT_DOGE_MAINNET: /^D/,
  ADDRESS_FORMAT_DOGE_TESTNET: /^n/,
  ADDRESS_FORMAT_TON_V3R2: /^UQ[A-Za-z0-9_-]{46}$/,
  ADDRESS_FORMAT_TON_V4R2: /^UQ[A-Za-z0-9_-]{46}$/,
  ADDRESS_FORMAT_TON_V5R1: /^UQ[A-Za-z0-9_-]{46}$/,
}

let svc: TestService
let org: string
let signerPublicKey: string

beforeAll(async () => {
  svc = await startTestService()
  org = svc.admin.organizationId
  signerPublicKey = (await (await fetch(`${svc.url}/healthz`)).json()).signerPublicKey
})
afterAll(async () => {
  await svc?.stop()
})

async function submit(op: string, type: string, parameters: unknown, organizationId = org, stamper?: Stamper) {
  return svc.post(`/public/v1/submit/${op}`, submitBody(type, organizationId, parameters), stamper)
}
async function ok(op: string, type: string, resultKey: string, parameters: unknown, organizationId = org, stamper?: Stamper) {
  const r = await submit(op, type, parameters, organizationId, stamper)
  expect(r.status, JSON.stringify(r.json)).toBe(200)
  expect(r.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  return r.json.activity.result[resultKey]
}
async function query(op: string, body: Record<string, unknown>) {
  const r = await svc.post(`/public/v1/query/${op}`, { organizationId: org, ...body })
  return r
}
const createWallet = (walletName: string, accounts: Account[], organizationId = org) =>
  ok('create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', 'createWalletResult', { walletName, accounts }, organizationId)

async function importMnemonic(mnemonic: string, walletName: string, accounts: Account[], organizationId = org, userId = svc.admin.userId) {
  const { importBundle } = await ok(
    'init_import_wallet',
    'ACTIVITY_TYPE_INIT_IMPORT_WALLET',
    'initImportWalletResult',
    { userId },
    organizationId,
  )
  const enc = await encryptToTargetBundle({
    targetBundle: importBundle,
    plaintext: utf8Encode(mnemonic),
    signerPublicKeyHex: signerPublicKey,
    organizationId,
    userId,
  })
  if (!enc.ok) throw new Error(enc.reason)
  return ok(
    'import_wallet',
    'ACTIVITY_TYPE_IMPORT_WALLET',
    'importWalletResult',
    { userId, walletName, encryptedBundle: enc.envelope, accounts },
    organizationId,
  ) as Promise<{ walletId: string; addresses: string[] }>
}

/** Exports with the admin key in its own organization, or with `stamper`, a user's key of `organizationId` (custody). */
async function exportMnemonic(walletId: string, organizationId = org, stamper?: Stamper): Promise<string> {
  const target = generateP256KeyPair()
  const { exportBundle } = await ok(
    'export_wallet',
    'ACTIVITY_TYPE_EXPORT_WALLET',
    'exportWalletResult',
    { walletId, targetPublicKey: bytesToHex(target.publicKeyUncompressed) },
    organizationId,
    stamper,
  )
  const opened = await openExportBundle({
    exportBundle,
    privateKey: target.privateKey,
    organizationId,
    signerPublicKeyHex: signerPublicKey,
  })
  if (!opened.ok) throw new Error(opened.reason)
  return utf8Decode(opened.plaintext)
}

async function allAccounts(walletId?: string, organizationId = org) {
  const r = await svc.post('/public/v1/query/list_wallet_accounts', {
    organizationId,
    ...(walletId ? { walletId } : {}),
    paginationOptions: { limit: '100' },
  })
  expect(r.status).toBe(200)
  return r.json.accounts as Array<Record<string, any>>
}

describe('create_wallet and the wallet queries', () => {
  let walletId: string
  let addresses: string[]

  beforeAll(async () => {
    const res = await createWallet(
      'many formats',
      MANY.map((a, i) => (i === 0 ? { ...a, name: 'main eth' } : a)),
    )
    walletId = res.walletId
    addresses = res.addresses
  })

  it('returns one well-formed address per account, in order', () => {
    expect(walletId).toMatch(/^[0-9a-f-]{36}$/)
    expect(addresses).toHaveLength(MANY.length)
    MANY.forEach((a, i) => {
      const shape = ADDRESS_SHAPES[a.addressFormat]
      if (shape) expect(addresses[i], a.addressFormat).toMatch(shape)
    })
    expect(addresses[22]).toMatch(/^04[0-9a-f]{128}$/) // secp256k1 UNCOMPRESSED
    expect(addresses[23]).toMatch(/^0[23][0-9a-f]{64}$/) // P-256 COMPRESSED
    expect(addresses[24]).toMatch(/^04[0-9a-f]{128}$/) // P-256 UNCOMPRESSED
    expect(addresses[25]).toMatch(/^[0-9a-f]{64}$/) // ed25519 COMPRESSED
    expect(new Set(addresses).size).toBe(addresses.length)
  })

  it('list_wallets, get_wallet and list_wallet_accounts agree', async () => {
    const wallets = (await query('list_wallets', {})).json.wallets as Array<Record<string, any>>
    const listed = wallets.find((w) => w.walletId === walletId)
    expect(listed).toMatchObject({ walletName: 'many formats', exported: false, imported: false })
    expect(listed?.createdAt).toEqual({ seconds: expect.stringMatching(/^\d+$/), nanos: expect.stringMatching(/^\d+$/) })
    const got = await query('get_wallet', { walletId })
    expect(got.status).toBe(200)
    expect(got.json.wallet).toEqual(listed)

    const accounts = await allAccounts(walletId)
    expect(accounts.map((a) => a.address)).toEqual(addresses)
    accounts.forEach((a, i) => {
      expect(a).toMatchObject({
        organizationId: org,
        walletId,
        curve: MANY[i]?.curve,
        pathFormat: 'PATH_FORMAT_BIP32',
        path: MANY[i]?.path,
        addressFormat: MANY[i]?.addressFormat,
      })
      expect(a.walletAccountId).toMatch(/^[0-9a-f-]{36}$/)
      expect(a.publicKey).toMatch(/^[0-9a-f]{64,66}$/)
      expect(a.walletDetails).toBeUndefined()
    })
    expect(accounts[0]?.name).toBe('main eth')
    const detailed = await svc.post('/public/v1/query/list_wallet_accounts', {
      organizationId: org,
      walletId,
      includeWalletDetails: true,
      paginationOptions: { limit: '2' },
    })
    expect(detailed.json.accounts).toHaveLength(2)
    expect(detailed.json.accounts[0].walletDetails).toEqual(listed)
  })

  it('derives exactly what src/chains derives from the wallet mnemonic', async () => {
    const mnemonic = await exportMnemonic(walletId)
    expect(mnemonic.split(' ')).toHaveLength(12)
    const seed = mnemonicToSeed(mnemonic)
    const accounts = await allAccounts(walletId)
    MANY.forEach((a, i) => {
      const d = deriveAccount({ seed, curve: a.curve, path: a.path, addressFormat: a.addressFormat })
      expect(addresses[i], a.addressFormat).toBe(d.address)
      expect(accounts[i]?.publicKey).toBe(d.publicKey)
    })
    const wallet = (await query('get_wallet', { walletId })).json.wallet
    expect(wallet.exported).toBe(true)
  })

  it('honours mnemonicLength', async () => {
    const r = await ok('create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', 'createWalletResult', {
      walletName: 'long',
      accounts: [],
      mnemonicLength: 24,
    })
    expect(r.addresses).toEqual([])
    expect((await exportMnemonic(r.walletId)).split(' ')).toHaveLength(24)
  })

  it('paginates list_wallet_accounts by walletAccountId (after and before)', async () => {
    const all = await allAccounts(walletId)
    const ids = all.map((a) => a.walletAccountId)
    const seen: string[] = []
    let after: string | undefined
    for (;;) {
      const r = await svc.post('/public/v1/query/list_wallet_accounts', {
        organizationId: org,
        walletId,
        paginationOptions: { limit: '7', ...(after ? { after } : {}) },
      })
      expect(r.status).toBe(200)
      const page = r.json.accounts.map((a: any) => a.walletAccountId)
      expect(page.length).toBeLessThanOrEqual(7)
      if (page.length === 0) break
      seen.push(...page)
      after = page[page.length - 1]
    }
    expect(seen).toEqual(ids)
    const before = await svc.post('/public/v1/query/list_wallet_accounts', {
      organizationId: org,
      walletId,
      paginationOptions: { limit: '3', before: ids[10] },
    })
    expect(before.json.accounts.map((a: any) => a.walletAccountId)).toEqual(ids.slice(7, 10))
    const between = await svc.post('/public/v1/query/list_wallet_accounts', {
      organizationId: org,
      walletId,
      paginationOptions: { limit: '100', after: ids[2], before: ids[6] },
    })
    expect(between.json.accounts.map((a: any) => a.walletAccountId)).toEqual(ids.slice(3, 6))
    const dflt = await svc.post('/public/v1/query/list_wallet_accounts', { organizationId: org, walletId })
    expect(dflt.json.accounts).toHaveLength(10)
  })

  it('create_wallet_accounts with persist:false derives but stores nothing; persisted ones appear', async () => {
    const before = await allAccounts(walletId)
    const extra = [acct(S, "m/44'/60'/0'/0/1", 'ADDRESS_FORMAT_ETHEREUM'), acct(E, "m/44'/501'/1'/0'", 'ADDRESS_FORMAT_SOLANA')]
    const preview = await ok('create_wallet_accounts', 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', 'createWalletAccountsResult', {
      walletId,
      accounts: extra,
      persist: false,
    })
    expect(preview.addresses).toHaveLength(2)
    expect(await allAccounts(walletId)).toEqual(before)

    const stored = await ok('create_wallet_accounts', 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', 'createWalletAccountsResult', {
      walletId,
      accounts: extra,
    })
    expect(stored.addresses).toEqual(preview.addresses)
    const after = await allAccounts(walletId)
    expect(after.slice(0, before.length)).toEqual(before)
    expect(after.slice(before.length).map((a) => a.address)).toEqual(preview.addresses)
    const seed = mnemonicToSeed(await exportMnemonic(walletId))
    expect(preview.addresses[0]).toBe(deriveAccount({ seed, ...extra[0]! }).address)
  })

  it('delete_wallets refuses an unexported wallet unless deleteWithoutExport, then removes it with its accounts', async () => {
    const w = await createWallet('doomed', [acct(S, "m/44'/60'/0'/0/0", 'ADDRESS_FORMAT_ETHEREUM')])
    const refused = await submit('delete_wallets', 'ACTIVITY_TYPE_DELETE_WALLETS', { walletIds: [w.walletId] })
    expect(refused.status).toBe(412)
    expect(refused.json.message).toContain('parameters.deleteWithoutExport')
    expect((await query('get_wallet', { walletId: w.walletId })).status).toBe(200)

    const done = await ok('delete_wallets', 'ACTIVITY_TYPE_DELETE_WALLETS', 'deleteWalletsResult', {
      walletIds: [w.walletId],
      deleteWithoutExport: true,
    })
    expect(done.walletIds).toEqual([w.walletId])
    const gone = await query('get_wallet', { walletId: w.walletId })
    expect(gone.status).toBe(404)
    expect(gone.json.message).toContain('walletId')
    expect((await allAccounts()).some((a) => a.walletId === w.walletId)).toBe(false)
    // an exported wallet needs no flag
    const x = await createWallet('exported', [])
    await exportMnemonic(x.walletId)
    expect(
      (await ok('delete_wallets', 'ACTIVITY_TYPE_DELETE_WALLETS', 'deleteWalletsResult', { walletIds: [x.walletId] })).walletIds,
    ).toEqual([x.walletId])
  })
})

describe('create_sub_organization with a wallet', () => {
  it('creates the wallet inside the new sub-organization', async () => {
    const accounts = [acct(S, "m/44'/60'/0'/0/0", 'ADDRESS_FORMAT_ETHEREUM'), acct(E, "m/44'/501'/0'/0'", 'ADDRESS_FORMAT_SOLANA')]
    const alice = newApiKey('alice')
    const res = await ok('create_sub_organization', 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', 'createSubOrganizationResultV8', {
      subOrganizationName: 'with wallet',
      rootUsers: [rootUser('alice', [alice.param])],
      rootQuorumThreshold: 1,
      wallet: { walletName: 'alice wallet', accounts, mnemonicLength: 12 },
    })
    const sub = res.subOrganizationId as string
    expect(res.wallet.walletId).toMatch(/^[0-9a-f-]{36}$/)
    expect(res.wallet.addresses).toHaveLength(2)
    const wallets = (await svc.post('/public/v1/query/list_wallets', { organizationId: sub })).json.wallets
    expect(wallets).toHaveLength(1)
    expect(wallets[0]).toMatchObject({ walletId: res.wallet.walletId, walletName: 'alice wallet', imported: false })
    const listed = await allAccounts(undefined, sub)
    expect(listed.map((a) => a.address)).toEqual(res.wallet.addresses)
    expect(listed.every((a) => a.organizationId === sub)).toBe(true)
    // not visible from the parent organization itself
    expect((await query('get_wallet', { walletId: res.wallet.walletId })).status).toBe(404)
    // and derived like src/chains derives them (exported by the sub-organization's own user: custody)
    const seed = mnemonicToSeed(await exportMnemonic(res.wallet.walletId, sub, alice.stamper))
    expect(res.wallet.addresses).toEqual(accounts.map((a) => deriveAccount({ seed, ...a }).address))
  })
})

describe('import and export', () => {
  let imported: { walletId: string; addresses: string[] }
  const abandonVectors = vectors.addresses.filter((v) => v.mnemonic === ABANDON)

  beforeAll(async () => {
    imported = await importMnemonic(
      ABANDON,
      'abandon',
      abandonVectors.map((v) => acct(v.curve, v.path, v.addressFormat)),
    )
  })

  it('derives the published addresses of the imported mnemonic', async () => {
    expect(abandonVectors.length).toBeGreaterThan(20)
    expect(imported.addresses).toEqual(abandonVectors.map((v) => v.address))
    expect(imported.addresses).toContain('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu')
    const sol = await importMnemonic(ABANDON, 'abandon sol', [acct(E, "m/44'/501'/0'/0'", 'ADDRESS_FORMAT_SOLANA')])
    expect(sol.addresses).toEqual(['HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk'])
    const hh = await importMnemonic(HARDHAT, 'hardhat', [acct(S, "m/44'/60'/0'/0/0", 'ADDRESS_FORMAT_ETHEREUM')])
    expect(hh.addresses).toEqual(['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'])
    const w = (await query('get_wallet', { walletId: imported.walletId })).json.wallet
    expect(w).toMatchObject({ walletName: 'abandon', imported: true, exported: false })
  })

  it('uses the import key once: a second import_wallet needs a new init_import_wallet', async () => {
    const { importBundle } = await ok('init_import_wallet', 'ACTIVITY_TYPE_INIT_IMPORT_WALLET', 'initImportWalletResult', {
      userId: svc.admin.userId,
    })
    const outer = JSON.parse(importBundle)
    expect(outer.enclaveQuorumPublic).toBe(signerPublicKey)
    const data = JSON.parse(utf8Decode(Uint8Array.from(Buffer.from(outer.data, 'hex'))))
    expect(data).toMatchObject({ organizationId: org, userId: svc.admin.userId, targetPublic: expect.stringMatching(/^04[0-9a-f]{128}$/) })
    const enc = await encryptToTargetBundle({
      targetBundle: importBundle,
      plaintext: utf8Encode(HARDHAT),
      signerPublicKeyHex: signerPublicKey,
    })
    if (!enc.ok) throw new Error(enc.reason)
    const params = { userId: svc.admin.userId, walletName: 'once', encryptedBundle: enc.envelope, accounts: [] }
    await ok('import_wallet', 'ACTIVITY_TYPE_IMPORT_WALLET', 'importWalletResult', params)
    const again = await submit('import_wallet', 'ACTIVITY_TYPE_IMPORT_WALLET', { ...params, walletName: 'twice' })
    expect(again.status).toBe(412)
    expect(again.json.message).toContain('parameters.userId')
  })

  it('export_wallet decrypts to the mnemonic with openExportBundle and with @turnkey/crypto', async () => {
    expect(await exportMnemonic(imported.walletId)).toBe(ABANDON)
    const target = generateP256KeyPair()
    // compressed target key accepted too
    const { exportBundle, walletId } = await ok('export_wallet', 'ACTIVITY_TYPE_EXPORT_WALLET', 'exportWalletResult', {
      walletId: imported.walletId,
      targetPublicKey: bytesToHex(target.publicKey),
    })
    expect(walletId).toBe(imported.walletId)
    const viaTurnkey = await decryptExportBundle({
      exportBundle,
      embeddedKey: bytesToHex(target.privateKey),
      organizationId: org,
      dangerouslyOverrideSignerPublicKey: signerPublicKey,
      returnMnemonic: true,
    })
    expect(viaTurnkey).toBe(ABANDON)
    expect((await query('get_wallet', { walletId: imported.walletId })).json.wallet.exported).toBe(true)
  })

  it('export_wallet_account returns the account private key', async () => {
    const seed = mnemonicToSeed(ABANDON)
    const eth = abandonVectors.find((v) => v.addressFormat === 'ADDRESS_FORMAT_ETHEREUM')!
    const target = generateP256KeyPair()
    const { exportBundle, address } = await ok(
      'export_wallet_account',
      'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT',
      'exportWalletAccountResult',
      {
        address: eth.address.toLowerCase(),
        targetPublicKey: bytesToHex(target.publicKeyUncompressed),
      },
    )
    expect(address).toBe(eth.address)
    const privHex = await decryptExportBundle({
      exportBundle,
      embeddedKey: bytesToHex(target.privateKey),
      organizationId: org,
      dangerouslyOverrideSignerPublicKey: signerPublicKey,
      returnMnemonic: false,
    })
    expect(privHex).toMatch(/^[0-9a-f]{64}$/)
    const account = (await allAccounts(imported.walletId)).find((a) => a.address === eth.address)!
    expect(bytesToHex(secp256k1.getPublicKey(Uint8Array.from(Buffer.from(privHex, 'hex')), true))).toBe(account.publicKey)
    expect(privHex).toBe(bytesToHex(deriveKey({ seed, curve: S, path: eth.path }).privateKey))

    const sol = abandonVectors.find((v) => v.addressFormat === 'ADDRESS_FORMAT_SOLANA')!
    const t2 = generateP256KeyPair()
    const solExport = await ok('export_wallet_account', 'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT', 'exportWalletAccountResult', {
      address: sol.address,
      targetPublicKey: bytesToHex(t2.publicKeyUncompressed),
    })
    const solKey = await decryptExportBundle({
      exportBundle: solExport.exportBundle,
      embeddedKey: bytesToHex(t2.privateKey),
      organizationId: org,
      dangerouslyOverrideSignerPublicKey: signerPublicKey,
      keyFormat: 'SOLANA',
      returnMnemonic: false,
    })
    const { base58 } = await import('@scure/base')
    expect(base58.encode(base58.decode(solKey).subarray(32))).toBe(sol.address)
  })

  it('leaves no mnemonic or private key in any database row or data-dir file', async () => {
    const seed = mnemonicToSeed(ABANDON)
    const keys = abandonVectors.map((v) => deriveKey({ seed, curve: v.curve, path: v.path }).privateKey)
    const needles = [ABANDON, HARDHAT, ...keys.map(bytesToHex)]
    const tables = await svc.rt.db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    )
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(['wallets', 'wallet_accounts', 'wallet_import_keys', 'activities']),
    )
    let rows = 0
    for (const { table_name } of tables) {
      const all = await svc.rt.db.query(`SELECT * FROM "${table_name}"`)
      rows += all.length
      const text = JSON.stringify(all)
      for (const n of needles) expect(text.includes(n), `${table_name} contains a secret`).toBe(false)
    }
    expect(rows).toBeGreaterThan(50)

    const files: string[] = []
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name)
        if (statSync(p).isDirectory()) walk(p)
        else files.push(p)
      }
    }
    walk(svc.dataDir)
    expect(files.length).toBeGreaterThan(1)
    const byteNeedles = [...needles.map((n) => Buffer.from(n, 'utf8')), ...keys.map((k) => Buffer.from(k))]
    for (const f of files) {
      const bytes = readFileSync(f)
      for (const n of byteNeedles) expect(bytes.includes(n), `${f} contains a secret`).toBe(false)
    }
  })
})
