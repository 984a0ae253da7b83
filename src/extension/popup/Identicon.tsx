/**
 * Pictures that tell accounts and assets apart at a glance, drawn from their identity alone (no
 * network, no remote image): an identicon per account address, a monogram per token. Both are
 * decorative — the name or symbol is always written next to them — so they are hidden from
 * assistive technology.
 */
import { sha256 } from '@noble/hashes/sha2.js'

const encoder = new TextEncoder()

/** Hue (0..359) and a 5×5 left-right symmetric pattern from the bytes of `seed`'s hash. */
export function identiconCells(seed: string): { hue: number; hue2: number; cells: boolean[] } {
  const h = sha256(encoder.encode(seed.trim().toLowerCase()))
  const hue = (((h[0] as number) << 8) | (h[1] as number)) % 360
  const hue2 = (hue + 120 + ((h[2] as number) % 120)) % 360
  const cells: boolean[] = []
  for (let row = 0; row < 5; row++) {
    const half = [0, 1, 2].map((col) => ((h[3 + row * 3 + col] as number) & 1) === 1)
    cells.push(half[0] as boolean, half[1] as boolean, half[2] as boolean, half[1] as boolean, half[0] as boolean)
  }
  return { hue, hue2, cells }
}

/** An account's identicon: a symmetric 5×5 pattern in two colours derived from the address. */
export function Identicon({ address, size = 24 }: { address: string; size?: number }) {
  const { hue, hue2, cells } = identiconCells(address)
  return (
    <svg class="identicon" width={size} height={size} viewBox="0 0 5 5" aria-hidden="true" focusable="false" data-address={address}>
      <rect width="5" height="5" rx="1" fill={`hsl(${hue2} 60% 88%)`} />
      {cells.map((on, i) =>
        on ? <rect key={i} x={i % 5} y={Math.floor(i / 5)} width="1.02" height="1.02" fill={`hsl(${hue} 65% 38%)`} /> : null,
      )}
    </svg>
  )
}

/** Up to two letters or digits of a token symbol, for its monogram ("USDC" → "US", "$x" → "X", "" → "?"). */
export function monogramLetters(symbol: string): string {
  const letters = [...symbol.normalize('NFKC')].filter((c) => /[\p{L}\p{N}]/u.test(c)).slice(0, 2)
  return letters.length === 0 ? '?' : letters.join('').toUpperCase()
}

/**
 * A token's monogram: its first letters on a disc whose colour comes from the token's identity
 * (`id`: the network and contract or mint, so two tokens sharing a symbol still look different).
 * Dark enough behind white text to read in both themes.
 */
export function Monogram({ symbol, id, size = 24 }: { symbol: string; id: string; size?: number }) {
  const { hue } = identiconCells(id)
  const letters = monogramLetters(symbol)
  return (
    <span
      class="monogram"
      aria-hidden="true"
      style={{
        width: `${size}px`,
        height: `${size}px`,
        lineHeight: `${size}px`,
        fontSize: `${Math.round(size * (letters.length > 1 ? 0.4 : 0.5))}px`,
        background: `hsl(${hue} 55% 28%)`,
      }}
    >
      {letters}
    </span>
  )
}
