/**
 * Bounds of the policy language: what a hostile policy may cost. Length and depth are checked at
 * parse time (`parsePolicy`), steps at evaluation time (`evaluate`).
 */

/** Longest accepted expression, in UTF-16 code units (64 KiB). Longer → `POLICY_TOO_LONG`. */
export const MAX_EXPRESSION_LENGTH = 64 * 1024

/**
 * Deepest accepted syntax tree (nested parentheses, lists, calls, member chains). `&&` / `||` chains
 * are n-ary and cost one level, so long allow-lists written as `a || b || …` are not limited by this.
 * Deeper → `POLICY_TOO_DEEP`, found before the parser's own recursion could exhaust the stack.
 */
export const MAX_DEPTH = 128

/** Most tokens in one expression. More → `POLICY_TOO_LONG`. */
export const MAX_TOKENS = 32_768

/**
 * Default evaluation budget for one expression: one step per node visited, per list element an
 * iteration or comparison touches. Exhausted → the expression's outcome is an error
 * (`EVALUATION_BUDGET_EXCEEDED`) and `decide` denies.
 */
export const DEFAULT_STEP_BUDGET = 100_000

/** Largest integer the language holds: u256 (the docs' `uint`); anything outside [-2^255, 2^256) is refused. */
export const MAX_UINT = (1n << 256n) - 1n
/** Smallest integer the language holds (the docs' `int` is i128; subtraction is not in the grammar, so only literals reach this). */
export const MIN_INT = -(1n << 255n)
