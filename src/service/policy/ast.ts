/**
 * The syntax tree of a policy expression. Every node carries the offset of its first character in
 * the source (for error positions) and its depth (bounded by `MAX_DEPTH`, so evaluation's recursion
 * is bounded too). `&&` / `||` chains are one n-ary node.
 */

/** Comparison operators, `in` included. */
export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in'

/** The three list methods that bind a variable: `xs.any(x, …)`, `xs.all(x, …)`, `xs.filter(x, …)`. */
export type Quantifier = 'any' | 'all' | 'filter'

type Base = { readonly offset: number; readonly depth: number }

/** A node of the syntax tree. */
export type Expr =
  | (Base & { readonly kind: 'bool'; readonly value: boolean })
  | (Base & { readonly kind: 'int'; readonly value: bigint })
  | (Base & { readonly kind: 'string'; readonly value: string })
  /** `Timestamp('<rfc3339>')`, checked and converted at parse time: nanoseconds since the epoch. */
  | (Base & { readonly kind: 'timestamp'; readonly epochNs: bigint })
  /** `CronSpan('<cron>', '<duration>', '<tz>')`, checked at parse time. */
  | (Base & { readonly kind: 'cronspan'; readonly cron: CronSpec; readonly durationMinutes: number; readonly timeZone: string })
  | (Base & { readonly kind: 'list'; readonly items: readonly Expr[] })
  /** A keyword (`activity`, `eth`, `approvers`…) or a variable bound by `any` / `all` / `filter`. */
  | (Base & { readonly kind: 'ident'; readonly name: string })
  | (Base & { readonly kind: 'member'; readonly object: Expr; readonly name: string; readonly nameOffset: number })
  | (Base & { readonly kind: 'index'; readonly object: Expr; readonly index: Expr })
  | (Base & { readonly kind: 'slice'; readonly object: Expr; readonly start: Expr; readonly end: Expr })
  | (Base & { readonly kind: 'not'; readonly operand: Expr })
  | (Base & { readonly kind: 'neg'; readonly operand: Expr })
  | (Base & { readonly kind: 'logical'; readonly op: '&&' | '||'; readonly operands: readonly Expr[] })
  | (Base & { readonly kind: 'compare'; readonly op: CompareOp; readonly left: Expr; readonly right: Expr })
  | (Base & { readonly kind: 'quantifier'; readonly op: Quantifier; readonly object: Expr; readonly variable: string; readonly body: Expr })
  | (Base & { readonly kind: 'contains'; readonly object: Expr; readonly value: Expr })
  /** `xs.count()`, or the property form `xs.count` the Solana examples use. */
  | (Base & { readonly kind: 'count'; readonly object: Expr })

/** A parsed 5-field cron expression: the allowed values of each field. */
export type CronSpec = {
  readonly minutes: readonly boolean[]
  readonly hours: readonly boolean[]
  readonly daysOfMonth: readonly boolean[]
  readonly months: readonly boolean[]
  readonly daysOfWeek: readonly boolean[]
  /** Whether day-of-month / day-of-week were `*` (cron ORs the two only when both are restricted). */
  readonly anyDayOfMonth: boolean
  readonly anyDayOfWeek: boolean
}
