// @vitest-environment happy-dom
/** Account identicons and token monograms: deterministic, distinct, symmetric, hidden from screen readers. */
import { cleanup, render } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { Identicon, Monogram, identiconCells, monogramLetters } from '@/src/extension/popup/Identicon'

afterEach(cleanup)

const A = '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb'
const B = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'

describe('identicon', () => {
  it('is the same for an address in any letter case and differs between addresses', () => {
    expect(identiconCells(A)).toEqual(identiconCells(A.toLowerCase()))
    expect(identiconCells(A)).not.toEqual(identiconCells(B))
  })

  it('is a left-right mirrored 5×5 pattern', () => {
    const { cells } = identiconCells(B)
    expect(cells).toHaveLength(25)
    for (let row = 0; row < 5; row++) {
      expect(cells[row * 5]).toBe(cells[row * 5 + 4])
      expect(cells[row * 5 + 1]).toBe(cells[row * 5 + 3])
    }
  })

  it('renders as a decorative svg with one square per filled cell', () => {
    const { container } = render(<Identicon address={A} />)
    const svg = container.querySelector('svg.identicon') as SVGElement
    expect(svg.getAttribute('aria-hidden')).toBe('true')
    const filled = identiconCells(A).cells.filter(Boolean).length
    expect(svg.querySelectorAll('rect')).toHaveLength(filled + 1)
  })
})

describe('monogram', () => {
  it('takes up to two letters or digits of the symbol', () => {
    expect(monogramLetters('USDC')).toBe('US')
    expect(monogramLetters('$x')).toBe('X')
    expect(monogramLetters('')).toBe('?')
    expect(monogramLetters('\u202eETH')).toBe('ET')
  })

  it('colours two tokens sharing a symbol differently', () => {
    const one = render(<Monogram symbol="USDC" id="eip155:1/erc20:0xaa" />).container.querySelector('.monogram') as HTMLElement
    const two = render(<Monogram symbol="USDC" id="eip155:1/erc20:0xbb" />).container.querySelector('.monogram') as HTMLElement
    expect(one.textContent).toBe('US')
    expect(one.getAttribute('aria-hidden')).toBe('true')
    expect(one.style.background).not.toBe(two.style.background)
  })
})
