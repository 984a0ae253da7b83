import { describe, expect, it } from 'vitest'
import { describeRequest, isInsecureOrigin, originParts, shortAddress } from '@/src/extension/approval/format'

describe('approval origin display', () => {
  it('flags http: origins only', () => {
    expect(isInsecureOrigin('http://127.0.0.1:8080')).toBe(true)
    expect(isInsecureOrigin('HTTP://a.example')).toBe(true)
    expect(isInsecureOrigin('https://a.example')).toBe(false)
    expect(isInsecureOrigin('https://http.example')).toBe(false)
  })
})

describe('originParts (registrable domain emphasised)', () => {
  it('splits a long look-alike host at its registrable domain, keeping the full text', () => {
    const o = 'https://login.example.co.uk.secure-verify.evil.io:8443'
    const p = originParts(o)
    expect(p).toEqual({ scheme: 'https://', subdomain: 'login.example.co.uk.secure-verify.', registrable: 'evil.io', port: ':8443' })
    expect(p.scheme + p.subdomain + p.registrable + p.port).toBe(o)
  })
  it('knows multi-label public suffixes, private suffixes, IPs and localhost', () => {
    expect(originParts('https://app.uniswap.co.uk').registrable).toBe('uniswap.co.uk')
    expect(originParts('https://alice.github.io').registrable).toBe('alice.github.io')
    expect(originParts('http://127.0.0.1:5173')).toMatchObject({ subdomain: '', registrable: '127.0.0.1', port: ':5173' })
    expect(originParts('http://localhost:3000')).toMatchObject({ subdomain: '', registrable: 'localhost' })
  })
})

describe('describeRequest and shortAddress', () => {
  it('says what a request does without its method name', () => {
    const kinds = [
      'deploy',
      'signIn',
      'switchChain',
      'connect',
      'solanaConnect',
      'message',
      'typedData',
      'transaction',
      'sendTransaction',
      'sendCalls',
      'addChain',
      'watchAsset',
      'solanaTransaction',
    ]
    for (const kind of kinds) {
      const text = describeRequest('eth_sendTransaction', kind)
      expect(text).not.toMatch(/eth_|wallet_|solana:|_/)
      expect(text).not.toBe('asks for your approval')
    }
    expect(describeRequest('solana:signAndSendTransaction', 'solanaTransaction')).toBe('wants you to send a transaction')
    expect(describeRequest('solana:signTransaction', 'solanaTransaction')).toBe('wants you to sign a transaction it will send itself')
  })

  it('shortens addresses to their start and end', () => {
    expect(shortAddress('0x5b9FBF3F488E273DcB3413465304Ebd2fe4A39BF')).toBe('0x5b9F…39BF')
    expect(shortAddress('J6nXRiAbCdEfGhIjKlMnOpQrStUvWxYz12t9JX')).toBe('J6nX…t9JX')
    expect(shortAddress('0x1234')).toBe('0x1234')
  })
})
