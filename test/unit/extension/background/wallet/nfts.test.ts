/**
 * NFT discovery (background/wallet/nfts.ts): the transfer logs of ERC-721 and ERC-1155 to the
 * account become candidates (an ERC-20 Transfer, with 3 topics, does not), and only the ones the
 * account still holds are listed, with the collection name when there is one.
 */
import { encodeAbiParameters, encodeEventTopics, decodeFunctionData, erc20Abi } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  type HoldingReader,
  NFT_ABI,
  nftCandidates,
  heldNfts,
  nftTransferCalldata,
  type RpcLog,
} from '@/src/extension/background/wallet/nfts'

const ME = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const OTHER = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'
const ZERO = '0x0000000000000000000000000000000000000000'
const NFT721 = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
const NFT1155 = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512'
const ERC20 = '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0'

function transfer721(from: string, to: string, id: bigint, address = NFT721): RpcLog {
  const topics = encodeEventTopics({
    abi: NFT_ABI,
    eventName: 'Transfer',
    args: { from: from as `0x${string}`, to: to as `0x${string}`, tokenId: id },
  })
  return { address, topics: topics as string[], data: '0x' }
}
function single(to: string, id: bigint, value: bigint): RpcLog {
  const topics = encodeEventTopics({
    abi: NFT_ABI,
    eventName: 'TransferSingle',
    args: { operator: OTHER as `0x${string}`, from: ZERO, to: to as `0x${string}` },
  })
  return {
    address: NFT1155,
    topics: topics as string[],
    data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [id, value]),
  }
}
function batch(to: string, ids: bigint[], values: bigint[]): RpcLog {
  const topics = encodeEventTopics({
    abi: NFT_ABI,
    eventName: 'TransferBatch',
    args: { operator: OTHER as `0x${string}`, from: ZERO, to: to as `0x${string}` },
  })
  return {
    address: NFT1155,
    topics: topics as string[],
    data: encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [ids, values]),
  }
}
function erc20Transfer(to: string): RpcLog {
  const topics = encodeEventTopics({
    abi: erc20Abi,
    eventName: 'Transfer',
    args: { from: OTHER as `0x${string}`, to: to as `0x${string}` },
  })
  return { address: ERC20, topics: topics as string[], data: encodeAbiParameters([{ type: 'uint256' }], [10n ** 18n]) }
}

describe('nftCandidates', () => {
  it('decodes ERC-721 Transfer (4 topics) and ERC-1155 TransferSingle/TransferBatch to the account, each once', () => {
    const logs = [
      transfer721(ZERO, ME, 7n),
      erc20Transfer(ME),
      single(ME, 1n, 5n),
      batch(ME, [1n, 2n, 3n], [1n, 1n, 1n]),
      transfer721(ME, OTHER, 7n),
      transfer721(ZERO, ME, 7n),
      transfer721(ZERO, OTHER, 8n),
      { address: NFT721, topics: ['0xdead'], data: '0x' },
    ]
    expect(nftCandidates(logs, ME.toUpperCase().replace('0X', '0x'))).toEqual([
      { contract: NFT721, tokenId: 7n, standard: 'erc721' },
      { contract: NFT1155, tokenId: 1n, standard: 'erc1155' },
      { contract: NFT1155, tokenId: 2n, standard: 'erc1155' },
      { contract: NFT1155, tokenId: 3n, standard: 'erc1155' },
    ])
  })

  it('skips an ERC-20 Transfer to the account (3 topics) and garbage data', () => {
    expect(nftCandidates([erc20Transfer(ME), { ...single(ME, 1n, 1n), data: '0x1234' }], ME)).toEqual([])
  })
})

/** A chain where #7 was sent away, #9 is still held, and the account holds 3 of ERC-1155 id 1 and none of id 2. */
const chain: HoldingReader = {
  ownerOf: async (_c, id) => (id === 7n ? OTHER : id === 9n ? ME : undefined),
  balanceOf: async (_c, owner, id) => (owner === ME && id === 1n ? 3n : 0n),
  name: async (c) => (c === NFT721 ? 'TestNft721' : undefined),
}

describe('heldNfts', () => {
  it('lists only what the account holds now: an NFT received then sent away is not held', async () => {
    const held = await heldNfts(
      [
        { contract: NFT721, tokenId: 7n, standard: 'erc721' },
        { contract: NFT721, tokenId: 9n, standard: 'erc721' },
        { contract: NFT1155, tokenId: 1n, standard: 'erc1155' },
        { contract: NFT1155, tokenId: 2n, standard: 'erc1155' },
      ],
      ME,
      chain,
    )
    expect(held).toEqual([
      { contract: NFT721, tokenId: '9', standard: 'erc721', amount: '1', collection: 'TestNft721' },
      { contract: NFT1155, tokenId: '1', standard: 'erc1155', amount: '3' },
    ])
  })

  it('leaves out a candidate whose read fails (a contract that reverts)', async () => {
    const failing: HoldingReader = { ...chain, ownerOf: async () => Promise.reject(new Error('execution reverted')) }
    expect(await heldNfts([{ contract: NFT721, tokenId: 9n, standard: 'erc721' }], ME, failing)).toEqual([])
  })
})

describe('nftTransferCalldata', () => {
  it('is safeTransferFrom(from,to,id) for ERC-721 and safeTransferFrom(from,to,id,amount,"0x") for ERC-1155', () => {
    const a = decodeFunctionData({ abi: NFT_ABI, data: nftTransferCalldata({ standard: 'erc721', tokenId: '7' }, ME, OTHER, 1n) })
    expect(a.functionName).toBe('safeTransferFrom')
    expect(a.args).toEqual([expect.stringMatching(/^0x70997970/i), expect.stringMatching(/^0x3c44/i), 7n])
    const b = decodeFunctionData({ abi: NFT_ABI, data: nftTransferCalldata({ standard: 'erc1155', tokenId: '1' }, ME, OTHER, 2n) })
    expect(b.args).toEqual([expect.stringMatching(/^0x70997970/i), expect.stringMatching(/^0x3c44/i), 1n, 2n, '0x'])
  })
})
