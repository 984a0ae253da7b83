import { describe, expect, it } from 'vitest'
import { isInsecureOrigin } from '@/src/extension/approval/format'

describe('approval origin display', () => {
  it('flags http: origins only', () => {
    expect(isInsecureOrigin('http://127.0.0.1:8080')).toBe(true)
    expect(isInsecureOrigin('HTTP://a.example')).toBe(true)
    expect(isInsecureOrigin('https://a.example')).toBe(false)
    expect(isInsecureOrigin('https://http.example')).toBe(false)
  })
})
