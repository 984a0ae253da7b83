/** An address as a QR code, drawn as SVG from `uqr`'s module matrix (no innerHTML). */
import { encode } from 'uqr'

/** QR code of `text`, labelled for screen readers. */
export function QrCode({ text, label, size = 176 }: { text: string; label: string; size?: number }) {
  const { data, size: n } = encode(text, { ecc: 'M', border: 2 })
  let d = ''
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`
    }),
  )
  return (
    <svg class="qr" role="img" aria-label={label} width={size} height={size} viewBox={`0 0 ${n} ${n}`} shape-rendering="crispEdges">
      <rect width={n} height={n} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  )
}
