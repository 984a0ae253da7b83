/**
 * A wagmi dApp (@wagmi/core, Sigil found through EIP-6963) against the built extension, the real
 * service and real dev EVM nodes: `deployContract` of the ERC-20 fixture opens "Deploy a contract"
 * with the code size and the predicted address; approved, the receipt's contractAddress is that
 * address and the code is on chain. `switchChain` to a chain the wallet does not know (a second
 * node, chain 31338, passed as addEthereumChainParameter) adds it in one approval and leaves the
 * dApp on it: wagmi's chain id is 31338 and switchChain resolves. Windows: light and dark, axe clean.
 */
import type { Page } from 'playwright-core'
import { createPublicClient, getAddress, http } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveNetworks } from '../../src/chains/networks'
import { type RunningEvmNode, startEvmNode } from '../../src/devchain/evm'
import { ERC20_ARTIFACT, ERC20_BALANCE_OF_ABI } from '../fixtures/contracts/erc20'
import { freePort } from '../integration/helpers/process'
import { startTestService, type TestService } from '../integration/helpers/service'
import { axeViolations } from './helpers/axe'
import { launchExtension, type LaunchedExtension } from './helpers/browser'
import { startPageServer, type PageServer } from './helpers/pageServer'

import { awaitApproval, dappPage, overflowing } from './helpers/viemDapp'
import { configureService, loginByEmailOtp, openPopup, shot } from './helpers/wallet'

/** A wagmi dApp on the two dev chains: reads over HTTP to the nodes, the wallet through the EIP-6963 connector. */
const WAGMI_SOURCE = `
import { connect, createConfig, deployContract, getBytecode, getChainId, http, readContract, switchChain, waitForTransactionReceipt } from '@wagmi/core'
import { defineChain } from 'viem'
const { first, second } = window.__chains
const chain = (id, name, url) => defineChain({ id, name, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [url] } } })
const devA = chain(first.id, 'Sigil dev EVM', first.url)
const devB = chain(second.id, 'Second dev chain', second.url)
const config = createConfig({ chains: [devA, devB], transports: { [devA.id]: http(first.url), [devB.id]: http(second.url) } })
const sigil = () => config.connectors.find((c) => c.name === 'Sigil')
const outcome = (p) => p.then((ok) => ({ ok }), (e) => ({ code: e.code ?? e.cause?.code, name: e.name, message: e.shortMessage ?? e.message }))
window.wagmiDapp = {
  found: () => sigil()?.id ?? null,
  connect: () => outcome(connect(config, { connector: sigil() }).then((r) => r.accounts)),
  chainId: () => getChainId(config),
  deploy: (abi, bytecode, args) => outcome(deployContract(config, { abi, bytecode, args })),
  receipt: (hash) =>
    outcome(waitForTransactionReceipt(config, { hash, timeout: 30000 }).then((r) => ({ status: r.status, contractAddress: r.contractAddress }))),
  code: (address) => outcome(getBytecode(config, { address })),
  balanceOf: (abi, token, who) => outcome(readContract(config, { abi, address: token, functionName: 'balanceOf', args: [who] }).then(String)),
  switchTo: (chainId, rpcUrl) =>
    outcome(switchChain(config, { chainId, addEthereumChainParameter: { chainName: 'Second dev chain', rpcUrls: [rpcUrl] } }).then((c) => c.id)),
}
`

const pageHtml = (chains: { first: { id: number; url: string }; second: { id: number; url: string } }) =>
  dappPage(WAGMI_SOURCE, 'wagmi dApp', { __chains: chains })

type Outcome<T = unknown> = { ok: T } | { code?: number; name?: string; message: string }

describe('a wagmi dApp deploys a contract and switches to a chain it adds (Chromium, real service, dev EVM nodes)', () => {
  let node: RunningEvmNode
  let second: RunningEvmNode
  let svc: TestService
  let ext: LaunchedExtension
  let pages: PageServer
  let dapp: Page
  let address: `0x${string}`

  const page = <T>(fn: (...a: any[]) => Promise<T>, ...args: unknown[]) => dapp.evaluate(fn as any, args) as Promise<T>

  /** Screenshot `p` light and dark, each axe clean and without horizontal overflow. */
  async function bothThemes(p: Page, name: string) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await p.emulateMedia({ colorScheme })
      expect(await axeViolations(p), `${name} ${colorScheme}`).toEqual([])
      await shot(p, `${name}-${colorScheme}`)
    }
    await p.emulateMedia({ colorScheme: 'light' })
  }

  beforeAll(async () => {
    node = await startEvmNode({ port: await freePort() })
    second = await startEvmNode({ port: await freePort(), chainId: 31338 })
    svc = await startTestService({ networks: resolveNetworks(`eip155:31337=${node.url}`) })
    pages = await startPageServer({
      '/': await pageHtml({ first: { id: 31337, url: node.url }, second: { id: 31338, url: second.url } }),
    })
    ext = await launchExtension()
    const popup = await openPopup(ext)
    await configureService(popup, svc.url)
    await loginByEmailOtp(popup, svc.url, `deploy-${Date.now()}@example.test`)
    dapp = await ext.context.newPage()
    await dapp.goto(pages.url('/'))
    await dapp.waitForFunction(() => (window as any).wagmiDapp.found() !== null, undefined, { timeout: 15_000 })
    const { outcome, approval } = await awaitApproval(ext, () => page(() => (window as any).wagmiDapp.connect()))
    await approval.getByRole('button', { name: 'Approve' }).click()
    const accounts = (await outcome) as Outcome<string[]>
    expect(accounts).toMatchObject({ ok: [expect.stringMatching(/^0x[0-9a-fA-F]{40}$/)] })
    address = getAddress((accounts as { ok: string[] }).ok[0] as string)
    expect((await svc.post('/dev/faucet', { caip2: 'eip155:31337', address, amount: '10' }, null)).status).toBe(200)
  }, 180_000)

  afterAll(async () => {
    await ext?.close()
    await pages?.close()
    await svc?.stop()
    await second?.close()
    await node?.close()
  })

  it('deployContract: "Deploy a contract" with the size and the predicted address; approved, the contract is there', async () => {
    const supply = 1_000_000n * 10n ** 18n
    const args = ['Deploy Token', 'DPL', supply.toString(), address]
    const { outcome, approval } = await awaitApproval(ext, () =>
      page(
        ([abi, bytecode, a]) => (window as any).wagmiDapp.deploy(abi, bytecode, [a[0], a[1], BigInt(a[2]), a[3]]),
        ERC20_ARTIFACT.abi,
        ERC20_ARTIFACT.bytecode,
        args,
      ),
    )
    expect(await approval.getByRole('heading', { level: 1 }).textContent()).toBe('Deploy a contract?')
    const rows = approval.getByTestId('approval-deploy')
    const text = (await rows.textContent()) ?? ''
    const predicted = text.match(/Contract address(0x[0-9a-fA-F]{40})/)?.[1]
    expect(predicted).toBeDefined()
    // the code is the creation code plus the ABI-encoded constructor arguments (4 words, two strings)
    const size = Number(text.match(/Code size([\d,]+) bytes/)?.[1]?.replaceAll(',', ''))
    expect(size).toBeGreaterThan((ERC20_ARTIFACT.bytecode.length - 2) / 2)
    expect(text).toContain('Sigil dev EVM (chain 31337)')
    expect(text).not.toContain('Value sent to the contract')
    expect((await approval.getByTestId('approval-fees').textContent()) ?? '').toMatch(/Estimated fee≈ [0-9.]+ ETH/)
    expect(await approval.getByTestId('approval-simulation').textContent()).toContain('the deployment succeeds')
    expect(await overflowing(approval)).toEqual([])
    await bothThemes(approval, 'approval-deploy')
    // the creation code, opened: all of it, wrapped inside the window
    await approval.getByText(/^Creation code \(/).click()
    const creation = approval.getByLabel('Creation code', { exact: true })
    expect(await creation.textContent()).toMatch(new RegExp(`^${ERC20_ARTIFACT.bytecode.slice(0, 66)}[0-9a-f]+$`))
    expect(await overflowing(approval)).toEqual([])
    expect(await axeViolations(approval)).toEqual([])
    await shot(approval, 'approval-deploy-code-light')
    await approval.getByRole('button', { name: 'Approve' }).click()

    const sent = (await outcome) as Outcome<`0x${string}`>
    expect(sent).toMatchObject({ ok: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
    const hash = (sent as { ok: `0x${string}` }).ok
    const receipt = (await page(([h]) => (window as any).wagmiDapp.receipt(h), hash)) as Outcome<{
      status: string
      contractAddress: string
    }>
    expect(receipt).toEqual({ ok: { status: 'success', contractAddress: (predicted as string).toLowerCase() } })
    const code = (await page(([a]) => (window as any).wagmiDapp.code(a), predicted)) as Outcome<string>
    expect(code).toMatchObject({ ok: expect.stringMatching(/^0x[0-9a-f]{200,}$/) })
    expect(await page(([abi, t, w]) => (window as any).wagmiDapp.balanceOf(abi, t, w), ERC20_BALANCE_OF_ABI, predicted, address)).toEqual({
      ok: supply.toString(),
    })
    // and on the node, not just through the page: sent from the user's account
    const onChain = await createPublicClient({ transport: http(node.url) }).getTransaction({ hash })
    expect({ from: getAddress(onChain.from), to: onChain.to ?? null }).toEqual({ from: address, to: null })
  })

  it('switchChain to a chain the wallet does not know: one approval adds it and the dApp is on it', async () => {
    expect(await page(async () => (window as any).wagmiDapp.chainId())).toBe(31337)
    const { outcome, approval } = await awaitApproval(ext, () =>
      page(([url]) => (window as any).wagmiDapp.switchTo(31338, url), second.url),
    )
    expect(await approval.getByRole('heading', { level: 1 }).textContent()).toBe('Add this network?')
    const rows = (await approval.locator('[aria-label="Network"]').textContent()) ?? ''
    expect(rows).toContain('Second dev chain')
    expect(rows).toContain('31338 (0x7a6a)')
    expect(rows).toContain(second.url)
    expect(await approval.getByTestId('approval-add-switch').textContent()).toBe('Approving also switches this site to Second dev chain.')
    await bothThemes(approval, 'approval-add-chain-switch')
    await approval.getByRole('button', { name: 'Approve' }).click()
    expect(await outcome).toEqual({ ok: 31338 })
    expect(await page(async () => (window as any).wagmiDapp.chainId())).toBe(31338)
    // back to the first chain (known to the wallet): the switch window, approved
    const back = await awaitApproval(ext, () => page(([url]) => (window as any).wagmiDapp.switchTo(31337, url), node.url))
    expect(await back.approval.getByRole('heading', { level: 1 }).textContent()).toBe('Switch network?')
    await back.approval.getByRole('button', { name: 'Approve' }).click()
    expect(await back.outcome).toEqual({ ok: 31337 })
    expect(await page(async () => (window as any).wagmiDapp.chainId())).toBe(31337)
  })
})
