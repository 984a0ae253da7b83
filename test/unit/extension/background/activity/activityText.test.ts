/** Activity rows in plain words, from the intent, never the wire type name. */
import { describe, expect, it } from 'vitest'
import { activityStatusText, activityTitle } from '@/src/extension/background/activity/activityText'
import { bytesToHex } from '@/src/crypto/encoding'

const A = '0x1234567890abcdef1234567890abcdef123456ab'
const B = '0x00000000000000000000000000000000000000ff'

describe('activityTitle', () => {
  it('says what a signature, a send and a purchase did, to whom', () => {
    expect(
      activityTitle({ type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', intent: { signRawPayloadIntentV2: { signWith: A, payload: '00' } } }),
    ).toBe('Signed a message with 0x1234…56ab')
    expect(
      activityTitle({
        type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION',
        intent: { ethSendTransactionIntent: { from: B, to: A, value: '10000000000000000', caip2: 'eip155:31337' } },
      }),
    ).toBe('Sent 0.01 ETH to 0x1234…56ab')
    expect(
      activityTitle({
        type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2',
        intent: {
          ethSendTransactionIntentV2: {
            from: B,
            caip2: 'eip155:1',
            calls: [{ to: B, data: `0xa9059cbb${'0'.repeat(24)}${A.slice(2)}${'0'.repeat(64)}` }],
          },
        },
      }),
    ).toBe('Sent a token transfer to 0x1234…56ab')
    expect(
      activityTitle({
        type: 'ACTIVITY_TYPE_INIT_FIAT_ON_RAMP',
        intent: { initFiatOnRampIntent: { cryptoCurrencyCode: 'FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH', sandboxMode: true, walletAddress: A } },
      }),
    ).toBe('Bought ETH (sandbox) for 0x1234…56ab')
    expect(activityTitle({ type: 'ACTIVITY_TYPE_OTP_LOGIN_V2', intent: {} })).toBe('Logged in')
  })

  it('names the site a sign-in signed the user in to (EIP-4361 through personal_sign, Sign In With Solana)', () => {
    const siwe = [
      '127.0.0.1:3000 wants you to sign in with your Ethereum account:',
      A,
      '',
      'Welcome',
      '',
      'URI: http://127.0.0.1:3000',
      'Version: 1',
      'Chain ID: 1',
      'Nonce: abcdef12345',
      'Issued At: 2026-01-01T00:00:00.000Z',
    ].join('\n')
    const personal = (text: string) => {
      const message = new TextEncoder().encode(text)
      return bytesToHex(new TextEncoder().encode(`\x19Ethereum Signed Message:\n${message.length}${text}`))
    }
    const signed = (payload: string, site?: string) =>
      activityTitle(
        {
          type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
          intent: { signRawPayloadIntentV2: { signWith: A, payload, encoding: 'PAYLOAD_ENCODING_HEXADECIMAL' } },
        },
        site,
      )
    expect(signed(personal(siwe), '127.0.0.1:3000')).toBe('Signed in to 127.0.0.1:3000 with 0x1234…56ab')
    expect(signed(personal(siwe.replaceAll('127.0.0.1:3000', 'bank.example')), 'evil.example')).toBe(
      'Signed in to bank.example (asked by evil.example) with 0x1234…56ab',
    )
    const siws = `dapp.example wants you to sign in with your Solana account:\n${'So1'.padEnd(44, '1')}\n\nURI: https://dapp.example`
    expect(signed(bytesToHex(new TextEncoder().encode(siws)), 'dapp.example')).toBe('Signed in to dapp.example with 0x1234…56ab')
    // not exactly EIP-4361 (a line added): an ordinary message
    expect(signed(personal(`${siwe}\nP.S. more`), 'dapp.example')).toBe('Signed a message for dapp.example with 0x1234…56ab')
    expect(signed(personal('hello'))).toBe('Signed a message with 0x1234…56ab')
  })

  it('says when a send was a sponsored batch, a contract deployment or an undelegation', () => {
    const v2 = (p: Record<string, unknown>) => ({
      type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION_V2',
      intent: { ethSendTransactionIntentV2: { from: B, caip2: 'eip155:31337', ...p } },
    })
    expect(
      activityTitle(
        v2({
          calls: [
            { to: A, value: '1000000000000000000' },
            { to: B, value: '1' },
          ],
          sponsor: true,
        }),
      ),
    ).toBe('Sent 1 ETH to 0x1234…56ab (and 1 more), gas sponsored')
    expect(activityTitle(v2({ calls: [{ data: '0x6080604052' }] }), 'app.example')).toBe('Deployed a contract for app.example')
    expect(
      activityTitle({ type: 'ACTIVITY_TYPE_ETH_UNDELEGATE_7702', intent: { ethUndelegate7702Intent: { from: A, caip2: 'eip155:31337' } } }),
    ).toBe('Removed the delegation (EIP-7702) of 0x1234…56ab')
  })

  it('names the site that asked, when a dApp did (activity/activitySites.ts)', () => {
    const sign = (encoding: string) => ({
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      intent: { signRawPayloadIntentV2: { signWith: A, payload: '00', encoding } },
    })
    expect(activityTitle(sign('PAYLOAD_ENCODING_HEXADECIMAL'), 'app.example')).toBe('Signed a message for app.example with 0x1234…56ab')
    expect(activityTitle(sign('PAYLOAD_ENCODING_EIP712'), 'app.example')).toBe('Signed typed data for app.example with 0x1234…56ab')
    expect(activityTitle(sign('PAYLOAD_ENCODING_EIP7702_AUTHORIZATION'))).toBe('Signed an account delegation (EIP-7702) with 0x1234…56ab')
    expect(
      activityTitle({ type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', intent: { signTransactionIntentV2: { signWith: A } } }, 'app.example'),
    ).toBe('Signed a transaction for app.example with 0x1234…56ab')
    expect(
      activityTitle(
        {
          type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION',
          intent: { ethSendTransactionIntent: { from: B, to: A, value: '10000000000000000', caip2: 'eip155:31337' } },
        },
        '127.0.0.1:5173',
      ),
    ).toBe('Sent 0.01 ETH to 0x1234…56ab for 127.0.0.1:5173')
  })

  it("calls the user's own accounts by their names (EVM in any case), others by their short address", () => {
    const names = new Map([
      [A.toLowerCase(), 'Savings'],
      ['So1Signer', 'Trading'],
    ])
    const sign = {
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      intent: { signRawPayloadIntentV2: { signWith: A.toUpperCase().replace('0X', '0x'), payload: '00' } },
    }
    expect(activityTitle(sign, 'app.example', names)).toBe('Signed a message for app.example with Savings')
    const send = {
      type: 'ACTIVITY_TYPE_ETH_SEND_TRANSACTION',
      intent: { ethSendTransactionIntent: { from: A, to: A, value: '1000000000000000000', caip2: 'eip155:1' } },
    }
    expect(activityTitle(send, undefined, names)).toBe('Sent 1 ETH to Savings')
    const sol = { type: 'ACTIVITY_TYPE_SOL_SEND_TRANSACTION', intent: { solSendTransactionIntent: { signWith: 'So1Signer' } } }
    expect(activityTitle(sol, undefined, names)).toBe('Sent a Solana transaction from Trading')
    expect(activityTitle(sign, undefined, new Map())).toBe('Signed a message with 0x1234…56AB')
  })

  it('never shows the wire type name, even for a type it has no sentence for', () => {
    const t = activityTitle({ type: 'ACTIVITY_TYPE_UPDATE_ROOT_QUORUM', intent: {} })
    expect(t).not.toMatch(/ACTIVITY_TYPE|_/)
    expect(t).toBe('Changed your account (update root quorum)')
  })

  it('says the status in words', () => {
    expect(activityStatusText('ACTIVITY_STATUS_COMPLETED')).toBe('Done')
    expect(activityStatusText('ACTIVITY_STATUS_CONSENSUS_NEEDED')).toBe('Waiting for approval')
  })
})
