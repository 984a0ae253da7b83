/**
 * EIP-5792 from a wagmi dApp (@wagmi/core, Sigil found through EIP-6963) against the built
 * extension, the real service and a real dev EVM node with the Gas Station deployed:
 * `getCapabilities` says atomic batches are supported; `sendCalls` of two ETH transfers and an
 * ERC-20 transfer of the fixture token opens ONE approval window showing the three decoded calls
 * and the upgrade to Sigil's batch executor; approved, `waitForCallsStatus` ends in success,
 * the balances moved and the account is delegated to the Gas Station (`ready`). Then:
 * `experimental_fallback`; `paymasterService` (Sigil's sponsor pays the gas); a batch with a
 * failing call (400, nothing moved); one call without `to` (a deployment); the home screen's
 * delegation and Undelegate (code `0x` on the node); and an account Sigil cannot batch for
 * (delegated to another contract, atomic unsupported): `forceAtomic` is 5760, without it one send
 * per call after one approval. Windows: light and dark, axe clean.
 */
import type { Page } from 'playwright-core'
import { createPublicClient, encodeDeployData, encodeFunctionData, getAddress, http, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEV_GAS_STATION } from '../../src/chains/gasStation/dev'
import { resolveNetworks } from '../../src/chains/networks'
import { type RunningEvmNode, startEvmNode } from '../../src/devchain/evm'
import { ERC20_ARTIFACT, ERC20_BALANCE_OF_ABI } from '../fixtures/contracts/erc20'
import { deployTestToken, sendFromDevFunder } from '../integration/helpers/devchain'
import { freePort } from '../integration/helpers/process'
import { startTestService, type TestService } from '../integration/helpers/service'
import { axeViolations } from './helpers/axe'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { startPageServer, type PageServer } from './helpers/pageServer'

import { awaitApproval, dappPage, overflowing } from './helpers/viemDapp'
import { configureService, loginByEmailOtp, openPopup, shot } from './helpers/wallet'

/** A wagmi dApp on the dev chain: reads over HTTP to the node, the wallet through the EIP-6963 connector. */
const WAGMI_SOURCE = `
import { connect, createConfig, getCapabilities, getCallsStatus, http, sendCalls, showCallsStatus, waitForCallsStatus } from '@wagmi/core'
import { defineChain } from 'viem'
const { id, url } = window.__chain
const dev = defineChain({ id, name: 'Sigil dev EVM', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [url] } } })
const config = createConfig({ chains: [dev], transports: { [dev.id]: http(url) } })
const sigil = () => config.connectors.find((c) => c.name === 'Sigil')
const outcome = (p) => p.then((ok) => ({ ok }), (e) => ({ code: e.code ?? e.cause?.code, name: e.name, message: e.shortMessage ?? e.message }))
const plain = (v) => JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)))
const asCalls = (calls) => calls.map((c) => ({ to: c.to, ...(c.value ? { value: BigInt(c.value) } : {}), ...(c.data ? { data: c.data } : {}) }))
window.wagmiDapp = {
  found: () => sigil()?.id ?? null,
  connect: () => outcome(connect(config, { connector: sigil() }).then((r) => r.accounts)),
  capabilities: () => outcome(getCapabilities(config).then(plain)),
  send: (calls, opts) => outcome(sendCalls(config, { calls: asCalls(calls), ...opts }).then(plain)),
  wait: (id) => outcome(waitForCallsStatus(config, { id, timeout: 30000, pollingInterval: 300 }).then(plain)),
  status: (id) => outcome(getCallsStatus(config, { id }).then(plain)),
  show: (id) => outcome(showCallsStatus(config, { id }).then(() => 'shown')),
}
`

const pageHtml = (chain: { id: number; url: string }) => dappPage(WAGMI_SOURCE, 'wagmi batch dApp', { __chain: chain })

type Outcome<T = unknown> = { ok: T } | { code?: number; name?: string; message: string }
const ok = <T>(o: Outcome<T>): T => {
  if (!('ok' in o)) throw new Error(`expected success, got ${JSON.stringify(o)}`)
  return o.ok
}

const BOB = '0x000000000000000000000000000000000000b0b0'
const CAROL = '0x000000000000000000000000000000000000ca01'
const DAVE = '0x000000000000000000000000000000000000da7e'

describe('a wagmi dApp sends batched calls through Sigil (EIP-5792, Chromium, real service, dev EVM node)', () => {
  let node: RunningEvmNode
  let svc: TestService
  let ext: LaunchedExtension
  let pages: PageServer
  let dapp: Page
  let address: `0x${string}`
  let token: `0x${string}`
  let reader: ReturnType<typeof createPublicClient>

  const page = <T>(fn: (...a: any[]) => Promise<T>, ...args: unknown[]) => dapp.evaluate(fn as any, args) as Promise<T>
  const tokenBalance = async (who: string) =>
    (await reader.readContract({
      address: token,
      abi: ERC20_BALANCE_OF_ABI,
      functionName: 'balanceOf',
      args: [who as `0x${string}`],
    })) as bigint

  /** Screenshot `p` light and dark, each axe clean and without horizontal overflow. */
  async function bothThemes(p: Page, name: string) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await p.emulateMedia({ colorScheme })
      expect(await axeViolations(p), `${name} ${colorScheme}`).toEqual([])
      expect(await overflowing(p), `${name} ${colorScheme}`).toEqual([])
      await shot(p, `${name}-${colorScheme}`)
    }
    await p.emulateMedia({ colorScheme: 'light' })
  }

  beforeAll(async () => {
    node = await startEvmNode({ port: await freePort() })
    reader = createPublicClient({ transport: http(node.url) })
    svc = await startTestService({ networks: resolveNetworks(`eip155:31337=${node.url}`) })
    pages = await startPageServer({ '/': await pageHtml({ id: 31337, url: node.url }) })
    ext = await launchExtension()
    const popup = await openPopup(ext)
    await configureService(popup, svc.url)
    await loginByEmailOtp(popup, svc.url, `batch-${Date.now()}@example.test`)
    await popup.close()
    dapp = await ext.context.newPage()
    await dapp.goto(pages.url('/'))
    await dapp.waitForFunction(() => (window as any).wagmiDapp.found() !== null, undefined, { timeout: 15_000 })
    const { outcome, approval } = await awaitApproval(ext, () => page(() => (window as any).wagmiDapp.connect()))
    await approval.getByRole('button', { name: 'Approve' }).click()
    address = getAddress(ok((await outcome) as Outcome<string[]>)[0] as string)
    expect((await svc.post('/dev/faucet', { caip2: 'eip155:31337', address, amount: '10' }, null)).status).toBe(200)
    token = await deployTestToken(node.url)
    const funded = await sendFromDevFunder(node.url, {
      to: token,
      data: encodeFunctionData({ abi: ERC20_ARTIFACT.abi, functionName: 'transfer', args: [address, parseUnits('100', 18)] }),
    })
    expect(funded.status).toBe('success')
  }, 180_000)

  afterAll(async () => {
    await ext?.close()
    await pages?.close()
    await svc?.stop()
    await node?.close()
  })

  it('getCapabilities: atomic batches are supported on the dev chain', async () => {
    const caps = ok((await page(() => (window as any).wagmiDapp.capabilities())) as Outcome<Record<string, any>>)
    expect(caps['31337']).toMatchObject({ atomic: { status: 'supported' } })
  })

  it('sendCalls (2 ETH transfers + 1 ERC-20 transfer): one window with the three calls and the upgrade; success, balances moved, account delegated', async () => {
    const before = {
      bob: await reader.getBalance({ address: BOB }),
      carol: await reader.getBalance({ address: CAROL }),
      tokens: await tokenBalance(DAVE),
    }
    const calls = [
      { to: BOB, value: parseEther('0.25').toString() },
      { to: CAROL, value: parseEther('0.5').toString() },
      { to: token, data: encodeFunctionData({ abi: ERC20_ARTIFACT.abi, functionName: 'transfer', args: [DAVE, parseUnits('3', 18)] }) },
    ]
    const { outcome, approval } = await awaitApproval(ext, () => page(([c]) => (window as any).wagmiDapp.send(c, {}), calls))
    expect(await approval.getByRole('heading', { level: 1 }).textContent()).toBe('Send these calls?')
    const shown = approval.getByTestId('approval-batch-call')
    expect(await shown.count()).toBe(3)
    expect(await shown.nth(0).textContent()).toContain(`To${BOB}`)
    expect(await shown.nth(0).textContent()).toContain('0.25 ETH')
    expect(await shown.nth(1).textContent()).toContain('0.5 ETH')
    expect(await shown.nth(2).textContent()).toContain('transfer(address,uint256)')
    expect(await shown.nth(2).textContent()).toContain(getAddress(DAVE))
    expect(await approval.getByTestId('approval-batch').textContent()).toContain('Total value0.75 ETH')
    expect(await approval.getByTestId('approval-batch-how').textContent()).toContain('all succeed or none does')
    expect(await approval.getByTestId('approval-upgrade').textContent()).toBe(
      "This upgrades your account to Sigil's batch executor (EIP-7702). You can undo it from the wallet's home screen.",
    )
    await bothThemes(approval, 'approval-send-calls')
    await approval.getByRole('button', { name: 'Approve' }).click()

    const { id } = ok((await outcome) as Outcome<{ id: string }>)
    const status = ok((await page(([i]) => (window as any).wagmiDapp.wait(i), id)) as Outcome<any>)
    expect(status).toMatchObject({ status: 'success', statusCode: 200, atomic: true, chainId: 31337 })
    expect(status.receipts).toHaveLength(1)
    expect(status.receipts[0]).toMatchObject({ status: 'success', transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
    expect(await reader.getBalance({ address: BOB })).toBe(before.bob + parseEther('0.25'))
    expect(await reader.getBalance({ address: CAROL })).toBe(before.carol + parseEther('0.5'))
    expect(await tokenBalance(DAVE)).toBe(before.tokens + parseUnits('3', 18))
    expect((await reader.getCode({ address }))?.toLowerCase()).toBe(`0xef0100${DEV_GAS_STATION.slice(2).toLowerCase()}`)
    const caps = ok((await page(() => (window as any).wagmiDapp.capabilities())) as Outcome<Record<string, any>>)
    expect(caps['31337']).toMatchObject({ atomic: { status: 'ready' } })
  })

  it('sendCalls with experimental_fallback goes through the batch (no upgrade sentence once delegated)', async () => {
    const before = await reader.getBalance({ address: BOB })
    const calls = [
      { to: BOB, value: parseEther('0.01').toString() },
      { to: BOB, value: parseEther('0.02').toString() },
    ]
    const { outcome, approval } = await awaitApproval(ext, () =>
      page(([c]) => (window as any).wagmiDapp.send(c, { experimental_fallback: true }), calls),
    )
    expect(await approval.getByTestId('approval-batch-call').count()).toBe(2)
    expect(await approval.getByTestId('approval-upgrade').count()).toBe(0)
    await approval.getByRole('button', { name: 'Approve' }).click()
    const { id } = ok((await outcome) as Outcome<{ id: string }>)
    expect(ok((await page(([i]) => (window as any).wagmiDapp.wait(i), id)) as Outcome<any>)).toMatchObject({
      status: 'success',
      atomic: true,
    })
    expect(await reader.getBalance({ address: BOB })).toBe(before + parseEther('0.03'))
  })

  it("paymasterService: the window says Sigil's sponsor pays and the account pays exactly the values", async () => {
    const caps = ok((await page(() => (window as any).wagmiDapp.capabilities())) as Outcome<Record<string, any>>)
    expect(caps['31337']).toMatchObject({ atomic: { status: 'ready' }, paymasterService: { supported: true } })
    const mine = await reader.getBalance({ address })
    const calls = [
      { to: BOB, value: parseEther('0.05').toString() },
      { to: CAROL, value: parseEther('0.05').toString() },
    ]
    const { outcome, approval } = await awaitApproval(ext, () =>
      page(([c]) => (window as any).wagmiDapp.send(c, { capabilities: { paymasterService: { url: 'https://paymaster.invalid' } } }), calls),
    )
    expect(await approval.getByTestId('approval-batch').textContent()).toContain("Gas paid bySigil's sponsor")
    expect(await approval.getByTestId('approval-fees').count()).toBe(0)
    await bothThemes(approval, 'approval-send-calls-sponsored')
    await approval.getByRole('button', { name: 'Approve' }).click()
    const { id } = ok((await outcome) as Outcome<{ id: string }>)
    expect(ok((await page(([i]) => (window as any).wagmiDapp.wait(i), id)) as Outcome<any>)).toMatchObject({ status: 'success' })
    expect(await reader.getBalance({ address })).toBe(mine - parseEther('0.1'))
  })

  it('a batch with a failing call: the window warns, the status is 400 (failed before the chain) and nothing moved', async () => {
    const bob = await reader.getBalance({ address: BOB })
    const tooMany = parseUnits('1000000', 18)
    const calls = [
      { to: BOB, value: parseEther('0.01').toString() },
      { to: token, data: encodeFunctionData({ abi: ERC20_ARTIFACT.abi, functionName: 'transfer', args: [DAVE, tooMany] }) },
    ]
    const { outcome, approval } = await awaitApproval(ext, () => page(([c]) => (window as any).wagmiDapp.send(c, {}), calls))
    expect(await approval.getByTestId('approval-warnings').textContent()).toContain('Call 2 fails when simulated alone')
    await approval.getByRole('button', { name: 'Approve' }).click()
    const { id } = ok((await outcome) as Outcome<{ id: string }>)
    const status = ok((await page(([i]) => (window as any).wagmiDapp.wait(i), id)) as Outcome<any>)
    // The service's gas estimate of the batch reverts: it fails before the chain (400), nothing is broadcast.
    expect(status).toMatchObject({ status: 'failure', statusCode: 400, atomic: true, receipts: [] })
    expect(await reader.getBalance({ address: BOB })).toBe(bob)
  })

  it('sendCalls with one call without to deploys the contract (shown as a new contract)', async () => {
    const data = encodeDeployData({
      abi: ERC20_ARTIFACT.abi,
      bytecode: ERC20_ARTIFACT.bytecode,
      args: ['Batch Token', 'BTK', parseUnits('5', 18), address],
    })
    const { outcome, approval } = await awaitApproval(ext, () => page(([c]) => (window as any).wagmiDapp.send(c, {}), [{ data }]))
    expect(await approval.getByTestId('approval-batch-call').textContent()).toContain('To(a new contract: this call deploys it)')
    await approval.getByRole('button', { name: 'Approve' }).click()
    const { id } = ok((await outcome) as Outcome<{ id: string }>)
    const status = ok((await page(([i]) => (window as any).wagmiDapp.wait(i), id)) as Outcome<any>)
    expect(status).toMatchObject({ status: 'success', statusCode: 200 })
    const receipt = await reader.getTransactionReceipt({ hash: status.receipts[0].transactionHash })
    expect(receipt.contractAddress).toMatch(/^0x[0-9a-f]{40}$/)
    const minted = await reader.readContract({
      address: receipt.contractAddress as `0x${string}`,
      abi: ERC20_BALANCE_OF_ABI,
      functionName: 'balanceOf',
      args: [address],
    })
    expect(minted).toBe(parseUnits('5', 18))
  })

  it('the home screen shows the delegation; Undelegate (confirmed) clears it on the node', async () => {
    const popup = await openPopup(ext)
    const line = popup.getByTestId('delegation')
    await line.waitFor({ timeout: 20_000 })
    expect(await popup.getByTestId('delegation-text').textContent()).toBe("Upgraded to Sigil's batch executor")
    await bothThemes(popup, 'home-delegation')
    await popup.getByRole('button', { name: `Undelegate ${address}` }).click()
    await popup.getByRole('button', { name: 'Confirm undelegate' }).click()
    await line.waitFor({ state: 'detached', timeout: 60_000 })
    expect(await reader.getCode({ address })).toBeUndefined()
    await popup.close()
  })

  it('an account delegated elsewhere: atomic unsupported; with forceAtomic false the calls go one by one after one approval', async () => {
    // Another contract as delegate (set directly on the node, as a site Sigil refused could not have done).
    const foreign = `0x${'42'.repeat(20)}`
    await fetch(node.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setCode', params: [address, `0xef0100${foreign.slice(2)}`] }),
    })
    const caps = ok((await page(() => (window as any).wagmiDapp.capabilities())) as Outcome<Record<string, any>>)
    expect(caps['31337']).toMatchObject({ atomic: { status: 'unsupported' } })

    const refused = (await page(
      ([c]) => (window as any).wagmiDapp.send(c, { forceAtomic: true }),
      [
        { to: BOB, value: '1' },
        { to: CAROL, value: '1' },
      ],
    )) as Outcome
    expect(refused).toMatchObject({ code: 5760 })

    const before = { bob: await reader.getBalance({ address: BOB }), carol: await reader.getBalance({ address: CAROL }) }
    const calls = [
      { to: BOB, value: parseEther('0.1').toString() },
      { to: CAROL, value: parseEther('0.2').toString() },
    ]
    const { outcome, approval } = await awaitApproval(ext, () => page(([c]) => (window as any).wagmiDapp.send(c, {}), calls))
    expect(await approval.getByTestId('approval-batch-how').textContent()).toContain('One transaction per call, in order')
    expect(await approval.getByTestId('approval-upgrade').count()).toBe(0)
    await approval.getByRole('button', { name: 'Approve' }).click()
    const { id } = ok((await outcome) as Outcome<{ id: string }>)
    const status = ok((await page(([i]) => (window as any).wagmiDapp.wait(i), id)) as Outcome<any>)
    expect(status).toMatchObject({ status: 'success', atomic: false })
    expect(status.receipts).toHaveLength(2)
    expect(await reader.getBalance({ address: BOB })).toBe(before.bob + parseEther('0.1'))
    expect(await reader.getBalance({ address: CAROL })).toBe(before.carol + parseEther('0.2'))

    // The home screen warns about the foreign delegate.
    const popup = await openPopup(ext)
    await popup.getByTestId('delegation').waitFor({ timeout: 20_000 })
    expect(await popup.getByTestId('delegation-text').textContent()).toBe(`Delegated to ${foreign} (not Sigil's batch executor)`)
    await bothThemes(popup, 'home-delegation-foreign')
    await popup.close()
  })
})
