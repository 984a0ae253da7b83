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

/** Long hex or base64 runs: key, signature or bundle material that has no place in a log line. */
const SECRET_LOOKING = /\b(?:0x)?[0-9a-fA-F]{32,}\b|[A-Za-z0-9+/_-]{48,}={0,2}/g

function scrub(text: string): string {
  // A long run with many digits is material; a file path (letters, slashes) is not.
  return text.replace(SECRET_LOOKING, (run) => ((run.match(/[0-9]/g)?.length ?? 0) >= 6 ? '[redacted]' : run))
}

/**
 * Log fields for an unexpected error: its message, its cause chain and its stack, with anything
 * that looks like key material blanked. For the server log only, never for a response.
 */
export function describeError(err: unknown): LogFields {
  const chain: string[] = []
  const seen = new Set<unknown>()
  for (let e: unknown = err; e !== undefined && e !== null && !seen.has(e) && chain.length < 8; e = (e as { cause?: unknown }).cause) {
    seen.add(e)
    if (e instanceof Error) {
      const code = (e as { code?: unknown }).code
      chain.push(`${e.name}${typeof code === 'string' || typeof code === 'number' ? ` [${code}]` : ''}: ${e.message}`)
    } else {
      chain.push(`thrown ${typeof e}`)
      break
    }
  }
  const stack = err instanceof Error && err.stack ? err.stack : undefined
  return {
    error: scrub(chain[0] ?? 'unknown error'),
    causes: chain.length > 1 ? scrub(chain.slice(1).join(' <- ')) : undefined,
    stack: stack ? scrub(stack.split('\n').slice(0, 20).join('\n')) : undefined,
  }
}
