/**
 * NFTs on the home screen (issue 36, item 5), in Chromium against the real service and a dev EVM
 * node: the OpenZeppelin ERC-721 and ERC-1155 fixtures (test/fixtures/contracts/TestNfts.json)
 * mint to the wallet's account, and the popup's "NFTs" section lists both (collection and #id;
 * the ERC-1155, which has no name, by its short contract address with "×5"). Sending the ERC-721
 * to another address (after a wrong recipient is refused at the field) makes the chain's
 * `ownerOf` the recipient and the row disappear; sending 2 of the ERC-1155 leaves `balanceOf` 3 on
 * chain and "×3" on screen. "Import NFT" (for one received before the newest 10,000 blocks, which
 * discovery does not read) adds one by contract and token id, refusing a non-contract and an id
 * the account does not hold at their fields. (The >10,000-blocks case itself is not mined here:
 * anvil_mine of 10,001 blocks takes minutes on a loaded machine.) Light and dark, axe clean.
 */
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { type Abi, createPublicClient, encodeFunctionData, getAddress, type Hex, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveNetworks } from '../../src/chains/networks'
import { type RunningEvmNode, startEvmNode } from '../../src/devchain/evm'
import { sendFromDevFunder } from '../integration/helpers/devchain'
import { freePort } from '../integration/helpers/process'
import { startTestService, type TestService } from '../integration/helpers/service'
import { axeViolations } from './helpers/axe'
import { type LaunchedExtension, launchExtension } from './helpers/browser'
import { callBackground, configureService, loginByEmailOtp, openPopup, shot } from './helpers/wallet'

const NFTS = JSON.parse(readFileSync(new URL('../fixtures/contracts/TestNfts.json', import.meta.url), 'utf8')) as Record<
  'TestNft721' | 'TestNft1155',
  { abi: Abi; bytecode: Hex }
>
const RECIPIENT = getAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')
const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`

describe('NFTs on the home screen, shown and sendable (Chromium, real service, dev EVM node)', () => {
  let node: RunningEvmNode
  let svc: TestService
  let ext: LaunchedExtension
  let popup: Page
  let eth: Hex
  let nft721: Hex
  let nft1155: Hex
  const chain = () => createPublicClient({ transport: http(node.url) })
  const nftRow = (contract: string, id: string) => popup.locator(`li.nft[data-contract="${contract.toLowerCase()}"][data-token-id="${id}"]`)

  async function deploy(artifact: { bytecode: Hex }): Promise<Hex> {
    const r = await sendFromDevFunder(node.url, { gas: '0x500000', data: artifact.bytecode })
    if (r.status !== 'success' || !r.contractAddress) throw new Error('the NFT fixture did not deploy')
    return getAddress(r.contractAddress)
  }
  async function mint(contract: Hex, abi: Abi, args: unknown[]) {
    const r = await sendFromDevFunder(node.url, {
      to: contract,
      gas: '0x200000',
      data: encodeFunctionData({ abi, functionName: 'mint', args }),
    })
    expect(r.status).toBe('success')
  }

  beforeAll(async () => {
    node = await startEvmNode({ port: await freePort() })
    svc = await startTestService({ networks: resolveNetworks(`eip155:31337=${node.url}`) })
    ext = await launchExtension()
    popup = await openPopup(ext)
    await configureService(popup, svc.url)
    await loginByEmailOtp(popup, svc.url, `nfts-${Date.now()}@example.test`)
    const { result } = await callBackground(popup, 'listAccounts')
    const accounts = result.wallets.flatMap((w: { accounts: Array<{ address: string; addressFormat: string }> }) => w.accounts)
    eth = accounts.find((a: { addressFormat: string }) => a.addressFormat === 'ADDRESS_FORMAT_ETHEREUM').address
    await sendFromDevFunder(node.url, { to: eth, value: `0x${parseEther('1').toString(16)}` })
    nft721 = await deploy(NFTS.TestNft721)
    nft1155 = await deploy(NFTS.TestNft1155)
    await mint(nft721, NFTS.TestNft721.abi, [eth, 7n])
    await mint(nft721, NFTS.TestNft721.abi, [RECIPIENT, 8n]) // someone else's: never listed
    await mint(nft1155, NFTS.TestNft1155.abi, [eth, 1n, 5n])
  }, 180_000)

  afterAll(async () => {
    await ext?.close()
    await svc?.stop()
    await node?.close()
  })

  it('lists the ERC-721 and the ERC-1155 the account holds, light and dark, axe clean', async () => {
    await popup.getByRole('button', { name: 'Refresh', exact: true }).click()
    await nftRow(nft721, '7').waitFor({ timeout: 30_000 })
    await nftRow(nft1155, '1').waitFor({ timeout: 30_000 })
    const section = popup.getByRole('region', { name: 'NFTs' })
    expect(await section.locator('li.nft').count()).toBe(2)
    expect((await nftRow(nft721, '7').locator('.nft-name').textContent())?.trim()).toBe('Sigil Test NFT #7')
    expect((await nftRow(nft1155, '1').locator('.nft-name').textContent())?.trim()).toBe(`${short(nft1155.toLowerCase())} #1 ×5`)
    expect(await popup.locator(`li.nft[data-token-id="8"]`).count()).toBe(0)
    await section.scrollIntoViewIfNeeded()
    for (const scheme of ['light', 'dark'] as const) {
      await popup.emulateMedia({ colorScheme: scheme })
      expect(await axeViolations(popup)).toEqual([])
      await shot(popup, scheme === 'light' ? 'popup-nfts' : 'popup-nfts-dark')
    }
    await popup.emulateMedia({ colorScheme: 'light' })
  }, 90_000)

  it('sends the ERC-721 after a review in words: the chain’s ownerOf is the recipient and the row disappears', async () => {
    await popup.getByRole('button', { name: 'Send Sigil Test NFT #7' }).click()
    await popup.getByRole('heading', { name: 'Send NFT' }).waitFor()
    const to = popup.getByLabel('Recipient address')
    await to.fill('0x1234')
    await popup.getByRole('button', { name: 'Review' }).click()
    const fieldError = popup.locator('.field-with-error .field-error')
    await fieldError.waitFor({ timeout: 10_000 })
    expect(await popup.locator('.field-with-error').getByLabel('Recipient address').count()).toBe(1)
    await to.fill(RECIPIENT)
    await popup.getByRole('button', { name: 'Review' }).click()
    const summary = popup.locator('#send-nft-summary')
    await summary.waitFor({ timeout: 20_000 })
    expect((await summary.textContent())?.trim()).toBe(`Send NFT Sigil Test NFT #7 to ${short(RECIPIENT)}`)
    expect(await popup.locator('dd[data-field="fee"]').textContent()).toMatch(/^\d[\d.]* ETH/)
    expect(await axeViolations(popup)).toEqual([])
    await shot(popup, 'popup-send-nft')
    await popup.getByRole('button', { name: 'Confirm' }).click()
    await popup.locator('#send-status[data-state="confirmed"]').waitFor({ timeout: 30_000 })
    const owner = await chain().readContract({ address: nft721, abi: NFTS.TestNft721.abi, functionName: 'ownerOf', args: [7n] })
    expect(getAddress(owner as string)).toBe(RECIPIENT)
    await popup.getByRole('button', { name: 'Done' }).click()
    await nftRow(nft1155, '1').waitFor({ timeout: 30_000 })
    await expect.poll(() => nftRow(nft721, '7').count(), { timeout: 20_000 }).toBe(0)
  }, 120_000)

  it('sends 2 of the ERC-1155 (at most what is held): 3 are left on chain and on screen', async () => {
    await popup.getByRole('button', { name: `Send ${short(nft1155.toLowerCase())} #1` }).click()
    await popup.getByLabel('Recipient address').fill(RECIPIENT)
    const amount = popup.getByLabel(/^How many/)
    await amount.fill('6')
    await popup.getByRole('button', { name: 'Review' }).click()
    await popup
      .locator('.field-with-error')
      .getByLabel(/^How many/)
      .waitFor({ timeout: 20_000 })
    expect(await popup.locator('.field-with-error .field-error').textContent()).toContain('You hold 5')
    await amount.fill('2')
    await popup.getByRole('button', { name: 'Review' }).click()
    const summary = popup.locator('#send-nft-summary')
    await summary.waitFor({ timeout: 20_000 })
    expect((await summary.textContent())?.trim()).toBe(`Send NFT 2 × ${short(nft1155.toLowerCase())} #1 to ${short(RECIPIENT)}`)
    await popup.getByRole('button', { name: 'Confirm' }).click()
    await popup.locator('#send-status[data-state="confirmed"]').waitFor({ timeout: 30_000 })
    const balanceOf = (who: Hex) =>
      chain().readContract({ address: nft1155, abi: NFTS.TestNft1155.abi, functionName: 'balanceOf', args: [who, 1n] })
    expect(await balanceOf(eth)).toBe(3n)
    expect(await balanceOf(RECIPIENT)).toBe(2n)
    await popup.getByRole('button', { name: 'Done' }).click()
    await expect.poll(() => nftRow(nft1155, '1').getAttribute('data-amount'), { timeout: 20_000 }).toBe('3')
    expect(await popup.getByRole('region', { name: 'NFTs' }).getByText('No NFTs on this network').count()).toBe(0)
  }, 120_000)

  it('imports an NFT by contract and token id, checked on chain, refusing a non-contract and an id not held', async () => {
    await mint(nft721, NFTS.TestNft721.abi, [eth, 9n])
    const section = popup.getByRole('region', { name: 'NFTs' })
    await section.getByRole('button', { name: 'Import NFT' }).click()
    const form = popup.getByRole('form', { name: 'Import NFT' })
    const contract = form.getByLabel('NFT contract address')
    const tokenId = form.getByLabel('Token ID')
    await contract.fill(RECIPIENT)
    await tokenId.fill('9')
    await form.getByRole('button', { name: 'Import' }).click()
    await form.locator('.field-with-error').getByLabel('NFT contract address').waitFor({ timeout: 20_000 })
    expect(await form.locator('.field-error').textContent()).toContain('is not a contract')
    await contract.fill(nft721)
    await tokenId.fill('8')
    await form.getByRole('button', { name: 'Import' }).click()
    await form.locator('.field-with-error').getByLabel('Token ID').waitFor({ timeout: 20_000 })
    expect(await form.locator('.field-error').textContent()).toContain('does not hold #8')
    expect(await axeViolations(popup)).toEqual([])
    await shot(popup, 'popup-import-nft')
    await tokenId.fill('9')
    await form.getByRole('button', { name: 'Import' }).click()
    await nftRow(nft721, '9').waitFor({ timeout: 30_000 })
    expect(await section.getByText('Imported Sigil Test NFT #9').count()).toBe(1)
    expect((await nftRow(nft721, '9').locator('.nft-name').textContent())?.trim()).toBe('Sigil Test NFT #9')
  }, 120_000)
})
