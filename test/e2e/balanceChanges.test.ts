/**
 * Balance changes before signing (issue 36 item 3), in Chromium from a viem dApp page against the
 * built extension, the real service and a real dev EVM node (anvil, eth_simulateV1): an ERC-20
 * approve shows the approval granted; a swap-like call (TestSwap: 10 TKA in, 20 TKB out) shows
 * "You send −10 TKA" and "You receive +20 TKB" exactly before anything is signed, and approved the
 * chain agrees; a swap that would fail says "Could not simulate" and claims nothing. Light and
 * dark, axe clean.
 */
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { type Abi, createPublicClient, encodeDeployData, encodeFunctionData, getAddress, type Hex, http, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveNetworks } from '../../src/chains/networks'
import { type RunningEvmNode, startEvmNode } from '../../src/devchain/evm'
import { sendFromDevFunder } from '../integration/helpers/devchain'
import { freePort } from '../integration/helpers/process'
import { startTestService, type TestService } from '../integration/helpers/service'
import { axeViolations } from './helpers/axe'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { startPageServer, type PageServer } from './helpers/pageServer'
import { awaitApproval, viemDappScript } from './helpers/viemDapp'
import { configureService, loginByEmailOtp, openPopup, shot } from './helpers/wallet'

const TOKEN = JSON.parse(readFileSync(new URL('../fixtures/contracts/TestToken.json', import.meta.url), 'utf8')) as {
  TestToken: { abi: Abi; bytecode: Hex }
}
const SWAP = JSON.parse(readFileSync(new URL('../fixtures/contracts/TestSwap.json', import.meta.url), 'utf8')) as {
  TestSwap: { abi: Abi; bytecode: Hex }
}

type Outcome<T = unknown> = { ok: T } | { code: number; message: string }

describe('balance changes before signing (Chromium, real service, dev EVM node)', () => {
  let node: RunningEvmNode
  let svc: TestService
  let ext: LaunchedExtension
  let pages: PageServer
  let dapp: Page
  let address: `0x${string}`
  let swap: `0x${string}`
  let tka: `0x${string}`
  let tkb: `0x${string}`
  const chain = () => createPublicClient({ transport: http(node.url) })
  const page = <T>(fn: (...a: any[]) => Promise<T>, ...args: unknown[]) => dapp.evaluate(fn as any, args) as Promise<T>
  const send = (to: string, data: Hex) =>
    awaitApproval(ext, () => page(([a, t, d]) => (window as any).dapp.send(a, t, '0', d), address, to, data))
  const balanceOf = (token: `0x${string}`, who: `0x${string}`) =>
    chain().readContract({ address: token, abi: TOKEN.TestToken.abi, functionName: 'balanceOf', args: [who] }) as Promise<bigint>
  const mined = async (outcome: Promise<unknown>) => {
    const sent = (await outcome) as Outcome<Hex>
    expect(sent).toMatchObject({ ok: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
    expect((await chain().waitForTransactionReceipt({ hash: (sent as { ok: Hex }).ok, timeout: 30_000 })).status).toBe('success')
  }

  beforeAll(async () => {
    node = await startEvmNode({ port: await freePort() })
    svc = await startTestService({ networks: resolveNetworks(`eip155:31337=${node.url}`) })
    const script = await viemDappScript()
    pages = await startPageServer({
      '/': `<!doctype html><html><head><title>Swap dApp</title></head><body><h1>Swap dApp</h1><script>${script}</script></body></html>`,
    })
    ext = await launchExtension()
    const popup = await openPopup(ext)
    await configureService(popup, svc.url)
    await loginByEmailOtp(popup, svc.url, `balance-changes-${Date.now()}@example.test`)
    dapp = await ext.context.newPage()
    await dapp.goto(pages.url('/'))
    await dapp.waitForFunction(() => typeof (window as any).dapp?.ready() === 'string')
    const { outcome, approval } = await awaitApproval(ext, () => page(() => (window as any).dapp.requestAccounts()))
    await approval.getByRole('button', { name: 'Approve' }).click()
    address = getAddress(((await outcome) as { ok: string[] }).ok[0] as string)
    expect((await svc.post('/dev/faucet', { caip2: 'eip155:31337', address, amount: '10' }, null)).status).toBe(200)
    const deploy = async (data: Hex) =>
      getAddress((await sendFromDevFunder(node.url, { data, gas: '0x300000' })).contractAddress as string) as `0x${string}`
    swap = await deploy(encodeDeployData({ abi: SWAP.TestSwap.abi, bytecode: SWAP.TestSwap.bytecode, args: [] }))
    const token = (name: string, symbol: string, owner: string) =>
      deploy(
        encodeDeployData({
          abi: TOKEN.TestToken.abi,
          bytecode: TOKEN.TestToken.bytecode,
          args: [name, symbol, 18, parseUnits('1000', 18), owner],
        }),
      )
    tka = await token('Token A', 'TKA', address)
    tkb = await token('Token B', 'TKB', swap)
  }, 180_000)

  afterAll(async () => {
    await ext?.close()
    await pages?.close()
    await svc?.stop()
    await node?.close()
  })

  it('an ERC-20 approve shows the approval granted (10 TKA to the swap) and no balance change', async () => {
    const data = encodeFunctionData({ abi: TOKEN.TestToken.abi, functionName: 'approve', args: [swap, parseUnits('10', 18)] })
    const { outcome, approval } = await send(tka, data)
    const block = approval.getByTestId('balance-changes')
    await block.waitFor()
    expect(await approval.getByTestId('balance-change').count()).toBe(0)
    expect(await approval.getByTestId('balance-changes-none').textContent()).toContain('No change to your balances')
    const grants = approval.getByTestId('balance-approval')
    expect(await grants.count()).toBe(1)
    expect(await grants.getByTestId('balance-approval-what').textContent()).toBe('10 TKA')
    expect(await grants.locator('code').getAttribute('title')).toBe(swap)
    expect(await axeViolations(approval)).toEqual([])
    await shot(approval, 'approval-balance-changes-approve')
    await approval.getByRole('button', { name: 'Approve' }).click()
    await mined(outcome)
    expect(await chain().readContract({ address: tka, abi: TOKEN.TestToken.abi, functionName: 'allowance', args: [address, swap] })).toBe(
      parseUnits('10', 18),
    )
  })

  it('a swap-like call shows exactly "You send −10 TKA" and "You receive +20 TKB" (light and dark, axe clean); approved, the chain agrees', async () => {
    const data = encodeFunctionData({ abi: SWAP.TestSwap.abi, functionName: 'swap', args: [tka, tkb, parseUnits('10', 18)] })
    const { outcome, approval } = await send(swap, data)
    const rows = approval.getByTestId('balance-change')
    await approval.getByTestId('balance-changes').waitFor()
    const shown = await rows.evaluateAll((els) =>
      els.map(
        (e) =>
          `${e.querySelector('.balance-change-label')?.textContent} ${e.querySelector('[data-testid="balance-change-amount"]')?.textContent}`,
      ),
    )
    expect(shown).toEqual(['You send −10 TKA', 'You receive +20 TKB'])
    expect(await approval.getByTestId('balance-approval').count()).toBe(0)
    // The block sits above the call's details, and the amounts read in colour in both themes.
    const order = await approval.evaluate(() => {
      const b = document.querySelector('[data-testid="balance-changes"]')
      const t = document.querySelector('[aria-label="Transaction"]')
      return b !== null && t !== null && (b.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0
    })
    expect(order).toBe(true)
    for (const colorScheme of ['light', 'dark'] as const) {
      await approval.emulateMedia({ colorScheme })
      expect(await axeViolations(approval), colorScheme).toEqual([])
      const [out, inn] = await rows.getByTestId('balance-change-amount').evaluateAll((els) => els.map((e) => getComputedStyle(e).color))
      expect(out).not.toBe(inn)
      await shot(approval, colorScheme === 'light' ? 'approval-balance-changes' : 'approval-balance-changes-dark')
    }
    await approval.emulateMedia({ colorScheme: 'light' })
    const before = { a: await balanceOf(tka, address), b: await balanceOf(tkb, address) }
    await approval.getByRole('button', { name: 'Approve' }).click()
    await mined(outcome)
    expect({ a: await balanceOf(tka, address), b: await balanceOf(tkb, address) }).toEqual({
      a: before.a - parseUnits('10', 18),
      b: before.b + parseUnits('20', 18),
    })
  })

  it('a swap that would fail (no allowance left) says "Could not simulate" and claims no amounts', async () => {
    const data = encodeFunctionData({ abi: SWAP.TestSwap.abi, functionName: 'swap', args: [tka, tkb, parseUnits('1', 18)] })
    const { outcome, approval } = await send(swap, data)
    const unknown = approval.getByTestId('balance-changes-unknown')
    await unknown.waitFor()
    expect(await unknown.textContent()).toContain('Could not simulate: the transaction fails.')
    expect(await approval.getByTestId('balance-change').count()).toBe(0)
    expect(await axeViolations(approval)).toEqual([])
    await shot(approval, 'approval-balance-changes-unknown')
    await approval.getByRole('button', { name: 'Reject' }).click()
    expect(await outcome).toMatchObject({ code: 4001 })
  })
})
