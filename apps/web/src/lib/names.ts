// A player's name as the name fields check it: the server's own check (checkName: NFC, spaces
// collapsed, no invisible or control characters, at most NAME_MAX graphemes), so a refusal shows
// while the player types, and what is sent is the normalised name.
import { checkName, type NameErrorCode } from '@kortbord/protocol/wire'

export interface NameState {
  /** The name to send (normalised), or null while it would be refused. */
  readonly name: string | null
  /** The refusal to show now, or null. */
  readonly problem: NameErrorCode | null
}

/**
 * `submitted`: the player tried to go on with this name. An empty field is not an error until
 * then (nobody should be scolded for a field they have not typed in yet).
 */
export function nameState(raw: string, submitted: boolean): NameState {
  const r = checkName(raw)
  if (r.ok) return { name: r.name, problem: null }
  const untouched = r.code === 'NAME_EMPTY' && raw.trim() === '' && !submitted
  return { name: null, problem: untouched ? null : r.code }
}
