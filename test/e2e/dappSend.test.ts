/**
 * A viem dApp page (EIP-6963 discovery) against the built extension, the real service and a
 * real dev EVM node: eth_requestAccounts, eth_getBalance and the receipt go
 * through the wallet's read-only passthrough; eth_sendTransaction is simulated, approved in our
 * window and sent by the service; a rejected send is 4001; a reverting call shows the
 * simulation's warning before anything is signed.
 */
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import {
  createPublicClient,
  encodeDeployData,
  encodeFunctionData,
  formatGwei,
  getAddress,
  type Hex,
  http,
  parseEther,
  parseTransaction,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveNetworks } from '../../src/chains/networks'
import { type RunningEvmNode, startEvmNode } from '../../src/devchain/evm'
import { sendFromDevFunder } from '../integration/helpers/devchain'
import { freePort } from '../integration/helpers/process'
import { startTestService, type TestService } from '../integration/helpers/service'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { startPageServer, type PageServer } from './helpers/pageServer'
import { configureService, loginByEmailOtp, openPopup, shot } from './helpers/wallet'
import { axeViolations } from './helpers/axe'
import { awaitApproval, overflowing, viemDappScript } from './helpers/viemDapp'

const TEST_TOKEN = JSON.parse(readFileSync(new URL('../fixtures/contracts/TestToken.json', import.meta.url), 'utf8')) as {
  TestToken: { abi: readonly unknown[]; bytecode: Hex }
}
const DENIER = JSON.parse(readFileSync(new URL('../fixtures/contracts/Denier.json', import.meta.url), 'utf8')) as {
  abi: readonly unknown[]
  bytecode: Hex
}

type Outcome<T = unknown> = { ok: T } | { code: number; message: string }

describe('a viem dApp sends a transaction through Sigil (Chromium, real service, dev EVM node)', () => {
  let node: RunningEvmNode
  let svc: TestService
  let ext: LaunchedExtension
  let pages: PageServer
  let dapp: Page
  let popup: Page
  let address: `0x${string}`
  const chain = () => createPublicClient({ transport: http(node.url) })

  const withApproval = <T>(fn: () => Promise<T>) => awaitApproval(ext, fn)

  beforeAll(async () => {
    node = await startEvmNode({ port: await freePort() })
    svc = await startTestService({ networks: resolveNetworks(`eip155:31337=${node.url}`) })
    const script = await viemDappScript()
    pages = await startPageServer({
      '/': `<!doctype html><html><head><title>viem dApp</title></head><body><h1>viem dApp</h1><script>${script}</script></body></html>`,
    })
    ext = await launchExtension()
    popup = await openPopup(ext)
    await configureService(popup, svc.url)
    await loginByEmailOtp(popup, svc.url, `dapp-send-${Date.now()}@example.test`)
    dapp = await ext.context.newPage()
    await dapp.goto(pages.url('/'))
    await dapp.waitForFunction(() => typeof (window as any).dapp?.ready() === 'string')
  }, 120_000)

  afterAll(async () => {
    await ext?.close()
    await pages?.close()
    await svc?.stop()
    await node?.close()
  })

  const page = <T>(fn: (...a: any[]) => Promise<T>, ...args: unknown[]) => dapp.evaluate(fn as any, args) as Promise<T>

  it('eth_requestAccounts (approved), then eth_chainId and eth_getBalance through the passthrough', async () => {
    const { outcome, approval } = await withApproval(() => page(() => (window as any).dapp.requestAccounts()))
    await approval.getByRole('button', { name: 'Approve' }).click()
    const accounts = (await outcome) as Outcome<string[]>
    expect(accounts).toMatchObject({ ok: [expect.stringMatching(/^0x[0-9a-fA-F]{40}$/)] })
    address = getAddress((accounts as { ok: string[] }).ok[0] as string)
    expect(await page(() => (window as any).dapp.chainId())).toEqual({ ok: 31337 })
    expect(await page(([a]) => (window as any).dapp.balance(a), address)).toEqual({ ok: '0' })
    expect((await svc.post('/dev/faucet', { caip2: 'eip155:31337', address, amount: '10' }, null)).status).toBe(200)
    expect(await page(([a]) => (window as any).dapp.balance(a), address)).toEqual({ ok: parseEther('10').toString() })
  })

  it('eth_sendTransaction: the window shows the simulated send; approved, the hash comes back and the receipt is on chain', async () => {
    const to = getAddress(`0x${'5e'.repeat(20)}`)
    const value = parseEther('0.5')
    const { outcome, approval, shownMs, interactiveMs } = await withApproval(() =>
      page(([a, t, v]) => (window as any).dapp.send(a, t, v, undefined), address, to, value.toString()),
    )
    console.log(`eth_sendTransaction request → approval window shown ${shownMs} ms, interactive (Approve enabled) ${interactiveMs} ms`)
    expect(await approval.getByRole('heading', { level: 1 }).textContent()).toBe('Send this transaction?')
    const text = (await approval.locator('[aria-label="Transaction"]').textContent()) ?? ''
    expect(text).toContain(to)
    expect(text).toContain('0.5 ETH')
    expect(text).toContain('Sigil dev EVM (chain 31337)')
    const fees = (await approval.getByTestId('approval-fees').textContent()) ?? ''
    expect(fees).toMatch(/Max fee per gas[0-9.]+ gwei/)
    expect(fees).toMatch(/Estimated fee≈ [0-9.]+ ETH/)
    expect(fees).toMatch(/Total \(at most\)0\.5[0-9]* ETH/)
    expect(await approval.locator('[data-testid="approval-simulation"]').textContent()).toContain('the transaction succeeds')
    await shot(approval, 'approval-send-transaction')
    await approval.getByRole('button', { name: 'Approve' }).click()
    const sent = (await outcome) as Outcome<Hex>
    expect(sent).toMatchObject({ ok: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
    const hash = (sent as { ok: Hex }).ok
    expect(await page(([h]) => (window as any).dapp.receipt(h), hash)).toMatchObject({ ok: { status: 'success' } })
    const onChain = await chain().getTransaction({ hash })
    expect({ from: getAddress(onChain.from), to: onChain.to && getAddress(onChain.to), value: onChain.value }).toEqual({
      from: address,
      to,
      value,
    })
    expect(await chain().getBalance({ address: to })).toBe(value)
  })

  it('eth_signTransaction without nonce, gas or fees: Sigil fills them from the node, the window shows them in gwei / ETH, wraps the long data and passes axe; the signed transaction mines', async () => {
    const to = getAddress(`0x${'7e'.repeat(20)}`)
    const value = parseEther('0.25')
    const data = `0x${'c0ffee'.repeat(100)}` as Hex
    const nonce = await chain().getTransactionCount({ address, blockTag: 'pending' })
    const { outcome, approval } = await withApproval(() =>
      page(([a, t, v, d]) => (window as any).dapp.signTx(a, t, v, d), address, to, value.toString(), data),
    )
    await approval.setViewportSize({ width: 420, height: 640 })
    expect(await approval.getByRole('heading', { level: 1 }).textContent()).toBe('Sign this transaction?')
    const tx = (await approval.locator('[aria-label="Transaction"]').textContent()) ?? ''
    expect(tx).toContain(`Nonce${nonce}`)
    expect(tx).toContain('0.25 ETH')
    expect(await approval.getByTestId('approval-filled').textContent()).toBe(
      'The site left out the nonce, gas limit, fees: Sigil filled them in from Sigil dev EVM.',
    )
    const fees = (await approval.getByTestId('approval-fees').textContent()) ?? ''
    expect(fees).toMatch(/Max fee per gas[0-9.]+ gwei/)
    expect(fees).toMatch(/Priority fee per gas[0-9.]+ gwei/)
    expect(fees).toMatch(/Gas limit\d+/)
    expect(fees).toMatch(/Max network feeat most 0\.[0-9]+ ETH/)
    // Rounded to 4 significant digits, never 18 decimals.
    const maxFee = /Max network feeat most 0\.(0*)([0-9]+) ETH/.exec(fees)
    expect(maxFee?.[2]?.length).toBeLessThanOrEqual(4)
    expect(fees).toMatch(/Total \(at most\)0\.25[0-9]* ETH \(value \+ max network fee\)/)
    expect(await overflowing(approval)).toEqual([])
    // the check itself sees an overflow when the window's wrapping is switched off
    const unwrapped = await approval.addStyleTag({
      content: '.approval .app-main, .approval .app-main * { overflow-wrap: normal !important; word-break: normal !important; }',
    })
    expect((await overflowing(approval)).length).toBeGreaterThan(0)
    await unwrapped.evaluate((e) => (e as Element).remove())
    expect(await axeViolations(approval)).toEqual([])
    await shot(approval, 'approval-sign-transaction-filled')
    await approval.getByRole('button', { name: 'Approve' }).click()
    const signed = (await outcome) as Outcome<Hex>
    expect(signed).toMatchObject({ ok: expect.stringMatching(/^0x02[0-9a-f]+$/) })
    const raw = (signed as { ok: Hex }).ok
    const parsed = parseTransaction(raw)
    expect({
      nonce: parsed.nonce,
      to: parsed.to && getAddress(parsed.to),
      value: parsed.value,
      data: parsed.data,
      chainId: parsed.chainId,
    }).toEqual({
      nonce,
      to,
      value,
      data,
      chainId: 31337,
    })
    expect(fees).toContain(`Gas limit${parsed.gas}`)
    // In gwei to 4 significant digits: within 0.05% of what was signed.
    const shownGwei = /Max fee per gas([0-9.]+) gwei/.exec(fees)?.[1] ?? ''
    expect(shownGwei.replace(/^0\.0*|\./g, '').length).toBeLessThanOrEqual(4)
    const signedGwei = Number(formatGwei(parsed.maxFeePerGas ?? 0n))
    expect(Math.abs(Number(shownGwei) - signedGwei) / signedGwei).toBeLessThan(0.0005)
    // the site broadcasts it (Sigil only signed): it is valid on the chain, from the account
    const hash = await chain().sendRawTransaction({ serializedTransaction: raw })
    const receipt = await chain().waitForTransactionReceipt({ hash, timeout: 30_000 })
    expect({ status: receipt.status, from: getAddress(receipt.from) }).toEqual({ status: 'success', from: address })
    expect(await chain().getBalance({ address: to })).toBe(value)
  })

  it('an ERC-20 transfer of a 6-decimal USDC shows "Amount 10 USDC" (read from the token), light and dark, axe clean; approved, 10 USDC move', async () => {
    const deployed = await sendFromDevFunder(node.url, {
      gas: '0x300000',
      data: encodeDeployData({
        abi: TEST_TOKEN.TestToken.abi,
        bytecode: TEST_TOKEN.TestToken.bytecode,
        args: ['USD Coin (test)', 'USDC', 6, 1_000_000_000n, address],
      }),
    })
    const usdc = getAddress(deployed.contractAddress as string)
    const to = getAddress(`0x${'7a'.repeat(20)}`)
    const data = encodeFunctionData({ abi: TEST_TOKEN.TestToken.abi as any, functionName: 'transfer', args: [to, 10_000_000n] })
    const { outcome, approval } = await withApproval(() =>
      page(([a, t, d]) => (window as any).dapp.send(a, t, '0', d), address, usdc, data),
    )
    const call = approval.getByTestId('approval-call')
    await call.waitFor()
    const text = (await call.textContent()) ?? ''
    expect(text).toContain('Amount10 USDC')
    expect(text).not.toContain('10000000')
    expect(text).toContain(to)
    expect(await approval.getByTestId('approval-fees').textContent()).toMatch(/Max network feeat most [0-9.]+ ETH/)
    expect(await axeViolations(approval)).toEqual([])
    await shot(approval, 'approval-erc20-transfer-usdc')
    await approval.emulateMedia({ colorScheme: 'dark' })
    expect(await axeViolations(approval)).toEqual([])
    await shot(approval, 'approval-erc20-transfer-usdc-dark')
    await approval.getByRole('button', { name: 'Approve' }).click()
    const sent = (await outcome) as Outcome<Hex>
    expect(sent).toMatchObject({ ok: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
    const receipt = await chain().waitForTransactionReceipt({ hash: (sent as { ok: Hex }).ok, timeout: 30_000 })
    expect(receipt.status).toBe('success')
    const balance = await chain().readContract({
      address: usdc,
      abi: TEST_TOKEN.TestToken.abi as any,
      functionName: 'balanceOf',
      args: [to],
    })
    expect(balance).toBe(10_000_000n)
  })

  it('a rejected send answers 4001 and nothing reaches the chain', async () => {
    const nonce = await chain().getTransactionCount({ address })
    const { outcome, approval } = await withApproval(() =>
      page(([a]) => (window as any).dapp.send(a, `0x${'6e'.repeat(20)}`, '1', undefined), address),
    )
    await approval.getByRole('button', { name: 'Reject' }).click()
    expect(await outcome).toMatchObject({ code: 4001 })
    expect(await chain().getTransactionCount({ address })).toBe(nonce)
  })

  it('a call that reverts (Denier) shows "This transaction will fail" before anything is signed', async () => {
    const deployed = await sendFromDevFunder(node.url, { data: DENIER.bytecode, gas: '0x100000' })
    const denier = getAddress(deployed.contractAddress as string)
    const data = encodeFunctionData({ abi: DENIER.abi as any, functionName: 'f', args: [42n] })
    await new Promise((r) => setTimeout(r, 1_200)) // the 1 s approval back-off after the rejection above
    const { outcome, approval } = await withApproval(() =>
      page(([a, t, d]) => (window as any).dapp.send(a, t, '0', d), address, denier, data),
    )
    const warning = (await approval.locator('[data-testid="approval-warnings"]').first().textContent()) ?? ''
    expect(warning).toMatch(/^This transaction will fail: execution reverted with unknown error 0x[0-9a-f]{8}$/)
    // The selector and calldata are folded behind "Show data", closed until the user opens them.
    const raw = approval.getByTestId('approval-raw-data')
    expect(await raw.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false)
    expect(await raw.textContent()).toContain('Function selector0x')
    await raw.locator('summary').click()
    expect(await raw.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true)
    await shot(approval, 'approval-send-transaction-reverts')
    await approval.getByRole('button', { name: 'Reject' }).click()
    expect(await outcome).toMatchObject({ code: 4001 })
  })

  it('switch → 4902 → add: a chain Sigil does not know is added with approval, which also moves the site to it (reads go through it); switching back asks', async () => {
    const other = await startEvmNode({ port: await freePort(), chainId: 1337 })
    try {
      await sendFromDevFunder(other.url, { to: address, value: `0x${parseEther('2').toString(16)}` })
      await new Promise((r) => setTimeout(r, 2_200)) // the 2 s approval back-off after the two rejections above
      expect(await page(([id]) => (window as any).dapp.switchChain(id), '0x539')).toMatchObject({ code: 4902 })
      const params = {
        chainId: '0x539',
        chainName: 'Second dev EVM',
        rpcUrls: [other.url],
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      }
      const add = await withApproval(() => page(([p]) => (window as any).dapp.addChain(p), params))
      expect(await add.approval.getByRole('heading', { level: 1 }).textContent()).toBe('Add this network?')
      expect(await add.approval.locator('[aria-label="Network"]').textContent()).toContain(other.url)
      expect(await axeViolations(add.approval)).toEqual([])
      await shot(add.approval, 'approval-add-chain')
      await add.approval.getByRole('button', { name: 'Approve' }).click()
      expect(await add.outcome).toEqual({ ok: null })
      // as MetaMask: the approved add also switched the site (no second window)
      expect(await page(() => (window as any).dapp.chainId())).toEqual({ ok: 1337 })
      expect(await page(() => (window as any).dapp.events())).toContainEqual(['chainChanged', '0x539'])
      expect(await page(([a]) => (window as any).dapp.balance(a), address)).toEqual({ ok: parseEther('2').toString() })
      expect(await page(([id]) => (window as any).dapp.switchChain(id), '0x539')).toEqual({ ok: null })
      const sw = await withApproval(() => page(([id]) => (window as any).dapp.switchChain(id), '0x7a69'))
      expect(await sw.approval.locator('[aria-label="Network change"]').textContent()).toContain('Second dev EVM')
      expect(await axeViolations(sw.approval)).toEqual([])
      await sw.approval.getByRole('button', { name: 'Approve' }).click()
      expect(await sw.outcome).toEqual({ ok: null })
      expect(await page(() => (window as any).dapp.chainId())).toEqual({ ok: 31337 })
      expect(await page(() => (window as any).dapp.events())).toContainEqual(['chainChanged', '0x7a69'])
    } finally {
      await other.close()
    }
  })

  it("the popup's Activity rows name the site that asked: the send and the signature are 'for <site>', the account by its name", async () => {
    const site = new URL(pages.url('/')).host
    await popup.bringToFront()
    await popup.getByRole('button', { name: 'Activity', exact: true }).click()
    const rows = popup.locator('.history li')
    await rows.first().waitFor({ timeout: 20_000 })
    const texts = (await rows.allTextContents()).join('\n')
    const to = getAddress(`0x${'5e'.repeat(20)}`)
    expect(texts).toContain(`Sent 0.5 ETH to ${to.slice(0, 6)}…${to.slice(-4)} for ${site}`)
    // The signing account is named as everywhere else ("Account 1"), not by its short address.
    expect(texts).toContain(`Signed a transaction for ${site} with Account 1`)
    expect(texts).not.toContain(`with ${address.slice(0, 6)}…${address.slice(-4)}`)
    expect(texts).toContain('Logged in')
    expect(texts).not.toContain(`Logged in for ${site}`)
    await shot(popup, 'popup-activity-site')
  })
})
