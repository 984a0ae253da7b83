/**
 * Time expressions (features/policies/language, "Time expressions"; features/policies/time-based-policies):
 * `Timestamp('<rfc3339>')` with a zero UTC offset only, and `CronSpan('<cron>', '<duration>', '<tz>')`,
 * true when `time.now` lies in a window opened by a fire of the 5-field cron (numbers, ranges, lists,
 * `*`; day-of-week 0-6 with 0 Sunday; day-of-month and day-of-week ORed when both are restricted)
 * and lasting the duration (whole `d`/`h`/`m`, more than 0 and at most 7 days), fires read in the IANA
 * time zone. Hand-written scanners, no regular expressions.
 */
import type { CronSpec } from './ast.js'

const NS_PER_MS = 1_000_000n
const MINUTE_MS = 60_000

const digitsAt = (s: string, at: number, n: number): number | undefined => {
  let v = 0
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i)
    if (!(c >= 48 && c <= 57)) return undefined
    v = v * 10 + (c - 48)
  }
  return v
}

/**
 * Nanoseconds since the epoch of an RFC 3339 timestamp whose offset is zero (`Z`, `z`, `+00:00`,
 * `-00:00`), or a message saying what is wrong.
 */
export function parseTimestampLiteral(s: string): bigint | string {
  const bad = `Timestamp('${s.length > 40 ? `${s.slice(0, 40)}…` : s}') is not an RFC 3339 time with a zero UTC offset (e.g. '2025-01-01T00:00:00Z')`
  if (s.length < 20 || s.length > 64) return bad
  const year = digitsAt(s, 0, 4)
  const month = digitsAt(s, 5, 2)
  const day = digitsAt(s, 8, 2)
  const hour = digitsAt(s, 11, 2)
  const minute = digitsAt(s, 14, 2)
  const second = digitsAt(s, 17, 2)
  if (year === undefined || month === undefined || day === undefined || hour === undefined || minute === undefined || second === undefined)
    return bad
  if (s[4] !== '-' || s[7] !== '-' || !(s[10] === 'T' || s[10] === 't') || s[13] !== ':' || s[16] !== ':') return bad
  let i = 19
  let fracNs = 0n
  if (s[i] === '.') {
    i++
    const start = i
    while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++
    const frac = s.slice(start, i)
    if (frac.length === 0 || frac.length > 9) return bad
    fracNs = BigInt(frac.padEnd(9, '0'))
  }
  const zone = s.slice(i)
  if (zone !== 'Z' && zone !== 'z' && zone !== '+00:00' && zone !== '-00:00') {
    return `Timestamp('${s.length > 40 ? `${s.slice(0, 40)}…` : s}') must have a zero UTC offset (Z, +00:00 or -00:00)`
  }
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return bad
  // Date.UTC maps years 0-99 to 1900-1999: set the full year explicitly.
  const check = new Date(0)
  check.setUTCFullYear(year, month - 1, day)
  check.setUTCHours(hour, minute, second, 0)
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return bad
  return BigInt(check.getTime()) * NS_PER_MS + fracNs
}

type CronResult =
  | { ok: true; value: { cron: CronSpec; durationMinutes: number; timeZone: string } }
  | { ok: false; argument: 0 | 1 | 2; message: string }

function cronField(text: string, min: number, max: number, name: string): boolean[] | string {
  const allowed = new Array<boolean>(max + 1).fill(false)
  if (text === '*') {
    for (let v = min; v <= max; v++) allowed[v] = true
    return allowed
  }
  for (const item of text.split(',')) {
    const dash = item.indexOf('-')
    const a = dash < 0 ? item : item.slice(0, dash)
    const b = dash < 0 ? item : item.slice(dash + 1)
    const lo = a.length > 0 && a.length <= 2 ? digitsAt(a, 0, a.length) : undefined
    const hi = b.length > 0 && b.length <= 2 ? digitsAt(b, 0, b.length) : undefined
    if (lo === undefined || hi === undefined || lo < min || hi > max || lo > hi) {
      return `cron ${name} field '${text}': numbers ${min}-${max}, ranges (a-b), lists (a,b) or * only`
    }
    for (let v = lo; v <= hi; v++) allowed[v] = true
  }
  return allowed
}

const formatters = new Map<string, Intl.DateTimeFormat>()
function formatterFor(timeZone: string): Intl.DateTimeFormat | undefined {
  let f = formatters.get(timeZone)
  if (f !== undefined) return f
  try {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    })
  } catch {
    return undefined
  }
  if (formatters.size < 256) formatters.set(timeZone, f)
  return f
}

/** Check the three arguments of `CronSpan`. */
export function parseCronSpan(cron: string, duration: string, timeZone: string): CronResult {
  const fields = cron.split(' ').filter((f) => f.length > 0)
  if (fields.length !== 5) return { ok: false, argument: 0, message: 'cron must have 5 fields: minute hour day-of-month month day-of-week' }
  const [mi, h, dom, mon, dow] = fields as [string, string, string, string, string]
  const parts = [
    cronField(mi, 0, 59, 'minute'),
    cronField(h, 0, 23, 'hour'),
    cronField(dom, 1, 31, 'day-of-month'),
    cronField(mon, 1, 12, 'month'),
    cronField(dow, 0, 6, 'day-of-week'),
  ]
  for (const p of parts) if (typeof p === 'string') return { ok: false, argument: 0, message: p }
  const [minutes, hours, daysOfMonth, months, daysOfWeek] = parts as boolean[][]
  let total = 0
  let i = 0
  let seen = 0
  for (const unit of ['d', 'h', 'm'] as const) {
    const start = i
    while (i < duration.length && duration.charCodeAt(i) >= 48 && duration.charCodeAt(i) <= 57) i++
    if (i === start) continue
    if (duration[i] !== unit || i - start > 5) {
      i = start
      continue
    }
    total += (digitsAt(duration, start, i - start) ?? 0) * (unit === 'd' ? 1440 : unit === 'h' ? 60 : 1)
    i++
    seen++
  }
  if (seen === 0 || i !== duration.length)
    return { ok: false, argument: 1, message: `duration '${duration}' must be whole days, hours, minutes (e.g. '8h', '90m', '1d12h')` }
  if (total <= 0 || total > 7 * 1440) return { ok: false, argument: 1, message: 'duration must be more than 0 and at most 7 days' }
  if (formatterFor(timeZone) === undefined) return { ok: false, argument: 2, message: `unknown IANA time zone '${timeZone}'` }
  return {
    ok: true,
    value: {
      cron: {
        minutes: minutes as boolean[],
        hours: hours as boolean[],
        daysOfMonth: daysOfMonth as boolean[],
        months: months as boolean[],
        daysOfWeek: daysOfWeek as boolean[],
        anyDayOfMonth: dom === '*',
        anyDayOfWeek: dow === '*',
      },
      durationMinutes: total,
      timeZone,
    },
  }
}

/** The zone's offset from UTC at `utcMs`, in whole minutes. */
function offsetMinutes(f: Intl.DateTimeFormat, utcMs: number): number {
  let y = 0
  let mo = 0
  let d = 0
  let h = 0
  let mi = 0
  for (const p of f.formatToParts(new Date(utcMs))) {
    if (p.type === 'year') y = Number(p.value)
    else if (p.type === 'month') mo = Number(p.value)
    else if (p.type === 'day') d = Number(p.value)
    else if (p.type === 'hour') h = Number(p.value)
    else if (p.type === 'minute') mi = Number(p.value)
  }
  const local = Date.UTC(y, mo - 1, d, h, mi)
  return Math.round((local - Math.floor(utcMs / MINUTE_MS) * MINUTE_MS) / MINUTE_MS)
}

/**
 * Whether `nowNs` lies in a window `[fire, fire + duration)` of the cron, fires read as wall-clock
 * times in `timeZone`. Scans the candidate fire minutes (at most 7 days' worth); the zone offset is
 * read at both ends and, when a transition lies between, found by bisection.
 */
export function cronSpanActive(cron: CronSpec, durationMinutes: number, timeZone: string, nowNs: bigint): boolean {
  const f = formatterFor(timeZone)
  if (f === undefined) return false
  const nowMs = Number(nowNs / NS_PER_MS)
  const last = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS
  const first = last - (durationMinutes - 1) * MINUTE_MS
  const offFirst = offsetMinutes(f, first)
  const offLast = offsetMinutes(f, last)
  // The first UTC minute at which the later offset applies (transitions are at most one per 7 days).
  let switchAt = first
  if (offFirst !== offLast) {
    let lo = first
    let hi = last
    while (hi - lo > MINUTE_MS) {
      const mid = lo + Math.floor((hi - lo) / MINUTE_MS / 2) * MINUTE_MS
      if (offsetMinutes(f, mid) === offFirst) lo = mid
      else hi = mid
    }
    switchAt = hi
  }
  for (let t = last; t >= first; t -= MINUTE_MS) {
    const local = t + (t >= switchAt ? offLast : offFirst) * MINUTE_MS
    const minuteOfDay = (((Math.floor(local / MINUTE_MS) % 1440) + 1440) % 1440) | 0
    const m = minuteOfDay % 60
    const h = Math.floor(minuteOfDay / 60)
    if (!cron.minutes[m] || !cron.hours[h]) continue
    const date = new Date(local)
    if (!cron.months[date.getUTCMonth() + 1]) continue
    const domOk = cron.daysOfMonth[date.getUTCDate()] === true
    const dowOk = cron.daysOfWeek[date.getUTCDay()] === true
    const dayOk = cron.anyDayOfMonth || cron.anyDayOfWeek ? domOk && dowOk : domOk || dowOk
    if (dayOk) return true
  }
  return false
}
