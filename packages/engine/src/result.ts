/** A value or a coded error. Rule violations are values, never exceptions (chessops `Result`). */
export type Result<T, E> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E }

/** A refused move: a stable machine-readable code and a sentence for people. */
export interface RuleError<Code extends string = string> {
  readonly code: Code
  readonly message: string
}

export const ok = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value })

export const err = <Code extends string>(
  code: Code,
  message: string,
): { readonly ok: false; readonly error: RuleError<Code> } => ({
  ok: false,
  error: { code, message },
})
