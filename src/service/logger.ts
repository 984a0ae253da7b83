/**
 * Structured JSON logs, one line each. Callers pass only safe fields: ids, codes,
 * paths, durations. {@link redact} drops any field whose name suggests a secret,
 * as a second line of defence.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'
export type LogFields = Record<string, string | number | boolean | null | undefined>

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 }
const SECRET_NAME = /key|secret|bundle|otp|code|stamp|token|mnemonic|password|signature|session|private/i

export interface Logger {
  debug(msg: string, fields?: LogFields): void
  info(msg: string, fields?: LogFields): void
  warn(msg: string, fields?: LogFields): void
  error(msg: string, fields?: LogFields): void
  child(fields: LogFields): Logger
}

/** Removes fields whose names look like secrets (keeps `code` only when it is an error code number or CAPS). */
export function redact(fields: LogFields): LogFields {
  const out: LogFields = {}
  for (const [k, v] of Object.entries(fields)) {
    if (k === 'errorCode' || k === 'reqId' || k === 'activityType') out[k] = v
    else if (SECRET_NAME.test(k)) out[k] = '[redacted]'
    else out[k] = v
  }
  return out
}

export function createLogger(
  level: LogLevel,
  base: LogFields = {},
  write: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Logger {
  const emit = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields: LogFields = {}) => {
    if (ORDER[lvl] < ORDER[level]) return
    write(JSON.stringify({ t: new Date().toISOString(), level: lvl, msg, ...redact({ ...base, ...fields }) }))
  }
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (f) => createLogger(level, { ...base, ...f }, write),
  }
}
