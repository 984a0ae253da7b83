/**
 * Token amounts in approvals read the token's decimals and symbol from a real node: anvil with
 * the TestToken fixture (OpenZeppelin ERC20) deployed as a 6-decimal "USDC".
 */
import { readFileSync } from 'node:fs'
import { encodeDeployData, encodeFunctionData, getAddress, type Hex, parseAbi } from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type RunningEvmNode, startEvmNode, DEV_FUNDER } from '@/src/devchain/evm'
import { freePort } from '@/src/service/store/embeddedPostgres'
import { decodeCalldata } from '@/src/extension/background/dapp/evm/calldata'
import { forgetTokenReads, readToken, symbolText, type TokenNetwork } from '@/src/extension/background/dapp/evm/tokenInfo'
import { sendFromDevFunder } from '../../../../../integration/helpers/devchain'

const TOKEN = JSON.parse(readFileSync(new URL('../../../../../fixtures/contracts/TestToken.json', import.meta.url), 'utf8')) as {
  TestToken: { abi: readonly unknown[]; bytecode: Hex }
}
const RECIPIENT = '0x5555555555555555555555555555555555555555'
const transfer = (amount: bigint) =>
  encodeFunctionData({
    abi: parseAbi(['function transfer(address to, uint256 amount)']),
    functionName: 'transfer',
    args: [RECIPIENT, amount],
  })

let node: RunningEvmNode
let network: TokenNetwork
let usdc: Hex
let fakeUsdc: Hex
let sneaky: Hex

async function deploy(symbol: string, decimals: number): Promise<Hex> {
  const r = await sendFromDevFunder(node.url, {
    gas: '0x300000',
    data: encodeDeployData({
      abi: TOKEN.TestToken.abi,
      bytecode: TOKEN.TestToken.bytecode,
      args: [`${symbol} token`, symbol, decimals, 10n ** 30n, DEV_FUNDER],
    }),
  })
  if (r.status !== 'success' || !r.contractAddress) throw new Error('the token did not deploy')
  return r.contractAddress
}

beforeAll(async () => {
  node = await startEvmNode({ port: await freePort() })
  network = { chainId: '0x7a69', caip2: 'eip155:31337', rpcUrl: node.url, name: 'Dev chain' }
  usdc = await deploy('USDC', 6)
  fakeUsdc = await deploy(' usdc ', 6)
  sneaky = await deploy('US\u202eDC\u0007', 18)
}, 60_000)
afterAll(async () => {
  await node?.close()
})
beforeEach(() => forgetTokenReads())

/** fetch that counts the node calls it passes on. */
function counting() {
  const calls: string[] = []
  const fn: typeof fetch = async (input, init) => {
    calls.push(String(init?.body ?? ''))
    return fetch(input, init)
  }
  return { fn, calls }
}

describe('token units for approvals, read from the chain', () => {
  it('a 6-decimal USDC deployed on anvil: "Amount 10 USDC" for a transfer of 10_000_000 units, read once per chain and token', async () => {
    const { fn, calls } = counting()
    const read = await readToken(fn, network, [], usdc)
    expect(read).toEqual({ token: { decimals: 6, symbol: 'USDC', configured: false }, warnings: [] })
    expect(calls).toHaveLength(2) // decimals() and symbol()
    expect(decodeCalldata(transfer(10_000_000n), read.token)?.rows).toContainEqual(['Amount', '10 USDC'])
    // Remembered: the second approval for the same token asks the node nothing.
    expect((await readToken(fn, network, [], usdc.toLowerCase())).token?.symbol).toBe('USDC')
    expect(calls).toHaveLength(2)
  })

  it('a configured token is known without a call; a contract claiming its symbol elsewhere is warned about', async () => {
    const { fn, calls } = counting()
    const configured = [{ address: usdc, symbol: 'USDC', decimals: 6 }]
    expect(await readToken(fn, network, configured, usdc.toLowerCase())).toEqual({
      token: { decimals: 6, symbol: 'USDC', configured: true },
      warnings: [],
    })
    expect(calls).toHaveLength(0)
    const other = await readToken(fn, network, configured, fakeUsdc)
    expect(other.token).toEqual({ decimals: 6, symbol: 'usdc', configured: false })
    expect(other.warnings).toEqual([
      `This token calls itself usdc but is not the Dev chain USDC Sigil knows (${getAddress(usdc)}). Check the token contract.`,
    ])
  })

  it("a symbol's control and bidi characters are shown escaped, and long symbols cut", async () => {
    const read = await readToken(undefined, network, [], sneaky)
    expect(read.token?.symbol).toBe('US\\u{202e}DC\\u{0007}')
    expect(symbolText(`  ${'X'.repeat(40)} `)).toBe(`${'X'.repeat(24)}…`)
    expect(symbolText(' \t ')).toBeNull()
  })

  it('no decimals (an account without code, a node that is down): the raw amount, saying the decimals are unknown', async () => {
    const eoa = await readToken(undefined, network, [], RECIPIENT)
    expect(eoa).toEqual({ token: null, warnings: [] })
    expect(decodeCalldata(transfer(10n ** 19n), eoa.token)?.rows).toContainEqual([
      'Amount',
      '10000000000000000000 (token decimals unknown)',
    ])
    const down = await readToken(undefined, { ...network, chainId: '0x1', rpcUrl: `http://127.0.0.1:${await freePort()}` }, [], usdc)
    expect(down.token).toBeNull()
  })
})
