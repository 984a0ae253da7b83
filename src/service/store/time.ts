/** Wire timestamp `{seconds, nanos}` (strings) from milliseconds (wire-formats B7). */
export function toTimestamp(ms: number): { seconds: string; nanos: string } {
  return { seconds: String(Math.floor(ms / 1000)), nanos: String((ms % 1000) * 1_000_000) }
}
