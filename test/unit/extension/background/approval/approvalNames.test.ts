import { describe, expect, it } from 'vitest'
import { viewAccountNames, withAccountNames } from '@/src/extension/background/approval/page'
import type { NamedAccount } from '@/src/extension/background/wallet/accountBook'
import type { ApprovalDetails } from '@/src/extension/protocol/approvalView'

const EVM = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01'
const SOL = 'So11111111111111111111111111111111111111112'
const named = (address: string, addressFormat: NamedAccount['addressFormat'], name: string): NamedAccount => ({
  address,
  addressFormat,
  walletId: 'w1',
  walletName: 'Default',
  kind: 'derived',
  group: `w1/${name}`,
  name,
  hidden: false,
})
const BOOK = [named(EVM, 'ADDRESS_FORMAT_ETHEREUM', 'Account 2'), named(SOL, 'ADDRESS_FORMAT_SOLANA', 'Savings')]

describe("approval window: the user's account names", () => {
  it('names the addresses the view shows, EVM ones in any case; strangers and other text stay unnamed', () => {
    const lower = EVM.toLowerCase()
    expect(
      viewAccountNames(
        {
          kind: 'transaction',
          address: lower,
          to: '0x6666666666666666666666666666666666666666',
          valueWei: '0',
          value: '0 ETH',
          data: '0x',
          call: { method: 'transfer(address,uint256)', rows: [['Recipient', EVM]], warnings: [] },
          chain: { chainId: '0x1', name: 'Ethereum' },
          nonce: '0',
          fees: [],
          filled: [],
          warnings: [],
        },
        BOOK,
      ),
    ).toEqual({ [lower]: 'Account 2', [EVM]: 'Account 2' })
    expect(
      viewAccountNames(
        {
          kind: 'solanaTransaction',
          address: SOL,
          network: 'Solana devnet',
          feePayer: SOL,
          version: '0',
          instructions: [],
          warnings: [],
          send: false,
        },
        BOOK,
      ),
    ).toEqual({ [SOL]: 'Savings' })
    // a Solana address never matches case-insensitively
    expect(viewAccountNames({ kind: 'message', address: SOL.toLowerCase(), text: 'hi', hex: '0x6869', byteLength: 2 }, BOOK)).toEqual({})
  })

  it('without the names (service unreachable) the request is shown with addresses alone', async () => {
    const details: ApprovalDetails = {
      id: 'x',
      origin: 'https://dapp.example',
      method: 'personal_sign',
      view: { kind: 'message', address: EVM, text: 'hi', hex: '0x6869', byteLength: 2 },
      expiresAt: 0,
    }
    expect(await withAccountNames(details, async () => BOOK)).toEqual({ ...details, names: { [EVM]: 'Account 2' } })
    expect(await withAccountNames(details, () => Promise.reject(new Error('offline')))).toEqual({ ...details, names: {} })
  })
})
