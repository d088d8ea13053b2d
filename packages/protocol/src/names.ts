/**
 * Player names (issue 13, finding 11): what a person sees is what the name is. A name is
 * NFC-normalised, its spaces trimmed and collapsed, and refused with a code of its own when it
 * hides something: control or format characters, invisible fillers, lone surrogates, stacks of
 * combining marks. Its length is counted in graphemes (what a reader counts as characters), not
 * code units. No zod here: the web client checks names as the player types.
 */

/** The longest name, in graphemes. */
export const NAME_MAX = 24

export const NAME_ERROR_CODES = [
  'NAME_EMPTY',
  'NAME_TOO_LONG',
  'NAME_BAD_UNICODE',
  'NAME_CONTROL_CHARS',
  'NAME_INVISIBLE_CHARS',
  'NAME_TOO_MANY_MARKS',
] as const
export type NameErrorCode = (typeof NAME_ERROR_CODES)[number]

export type NameCheck =
  | { readonly ok: true; readonly name: string }
  | { readonly ok: false; readonly code: NameErrorCode; readonly message: string }

/** Combining marks one grapheme may carry after NFC (Thai and Devanagari need up to three). */
export const NAME_MAX_MARKS = 3
/** A bound on storage whatever the graphemes: UTF-16 code units. */
export const NAME_MAX_UNITS = 96

const LONE_SURROGATE = /\p{Cs}/u
const CONTROL = /[\p{Cc}\u2028\u2029]/u
/**
 * Invisible or look-alike characters: format characters (zero-width spaces and joiners,
 * direction marks and overrides, soft hyphen, word joiner, invisible operators, BOM, the
 * interlinear annotation marks, tags), fillers that render as nothing (Hangul fillers, the blank
 * Braille pattern), the combining grapheme joiner, private-use and unassigned code points.
 * ZWJ and variation selectors are allowed only where emoji need them (below).
 */
const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each combining mark listed is refused on its own
  /[\p{Cf}\p{Co}\p{Cn}\u034f\u115f\u1160\u2800\u3164\uffa0\u180b-\u180f\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/u
/** ZWJ between two emoji, and one VS15/VS16 right after an emoji or a keycap base. */
const EMOJI_JOINS =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: selectors are matched one code point at a time
  /(?<=[\p{Extended_Pictographic}\p{Emoji_Modifier}\ufe0f])\u200d(?=\p{Extended_Pictographic})|(?<=[\p{Extended_Pictographic}#*0-9])[\ufe0e\ufe0f]/gu
const MARK = /\p{M}/gu
const SPACES = /[\s\p{Zs}]+/gu

type Segments = (s: string) => Iterable<{ segment: string }>
let segmenter: Segments | null | undefined

function graphemes(s: string): string[] {
  if (segmenter === undefined) {
    const S = (globalThis.Intl as { Segmenter?: typeof Intl.Segmenter }).Segmenter
    const seg = S ? new S(undefined, { granularity: 'grapheme' }) : null
    segmenter = seg ? (x) => seg.segment(x) : null
  }
  // Without Intl.Segmenter (old browsers): code points, a stricter count.
  return segmenter ? Array.from(segmenter(s), (x) => x.segment) : Array.from(s)
}

const no = (code: NameErrorCode, message: string): NameCheck => ({ ok: false, code, message })

/** What is wrong with a text a person typed (a name, a chat message). */
type TextProblem = 'empty' | 'long' | 'unicode' | 'control' | 'invisible' | 'marks'

/**
 * Normalises a text a person typed (NFC, spaces trimmed and collapsed) and finds what would
 * hide something in it, for names and chat alike: at most `max` graphemes and `maxUnits` code
 * units.
 */
function checkText(
  raw: string,
  max: number,
  maxUnits: number,
): { ok: true; text: string } | { ok: false; problem: TextProblem } {
  if (LONE_SURROGATE.test(raw)) return { ok: false, problem: 'unicode' }
  if (CONTROL.test(raw)) return { ok: false, problem: 'control' }
  const nfc = raw.normalize('NFC')
  // Before spaces are collapsed: JavaScript's \s counts the invisible BOM (U+FEFF) as a space.
  if (INVISIBLE.test(nfc.replace(EMOJI_JOINS, ''))) return { ok: false, problem: 'invisible' }
  const text = nfc.replace(SPACES, ' ').trim()
  if (text === '') return { ok: false, problem: 'empty' }
  if (text.length > maxUnits) return { ok: false, problem: 'long' }
  const parts = graphemes(text)
  if (parts.length > max) return { ok: false, problem: 'long' }
  for (const g of parts)
    if ((g.match(MARK)?.length ?? 0) > NAME_MAX_MARKS) return { ok: false, problem: 'marks' }
  if (!/[\p{L}\p{N}\p{S}\p{P}]/u.test(text)) return { ok: false, problem: 'empty' }
  return { ok: true, text }
}

/** Checks and normalises a player's name. */
export function checkName(raw: string): NameCheck {
  const r = checkText(raw, NAME_MAX, NAME_MAX_UNITS)
  if (r.ok) return { ok: true, name: r.text }
  switch (r.problem) {
    case 'unicode':
      return no('NAME_BAD_UNICODE', 'a name cannot hold broken characters')
    case 'control':
      return no('NAME_CONTROL_CHARS', 'no control characters in a name')
    case 'invisible':
      return no('NAME_INVISIBLE_CHARS', 'no invisible characters in a name')
    case 'empty':
      return no('NAME_EMPTY', 'a name needs a letter, digit or sign')
    case 'long':
      return no('NAME_TOO_LONG', `a name is at most ${NAME_MAX} characters`)
    case 'marks':
      return no('NAME_TOO_MANY_MARKS', 'too many accents stacked on one letter')
  }
}

/** The longest chat message, in graphemes (issue 15). */
/** The seats' names, letter case aside (an open seat has none). */
const lowered = (names: readonly (string | null)[]): Set<string> =>
  new Set(names.flatMap((n) => (n === null ? [] : [n.toLocaleLowerCase()])))

/**
 * `name`, or when another seat at the table already has it (letter case aside) the same with the
 * lowest free number after it ("Bo 2"), shortened to stay within {@link NAME_MAX}: two players of
 * one name could not tell which of them "Waiting for Bo" meant (QA, stop 32).
 */
export function distinctName(name: string, others: readonly (string | null)[]): string {
  const taken = lowered(others)
  if (!taken.has(name.toLocaleLowerCase())) return name
  const letters = graphemes(name)
  for (let n = 2; ; n++) {
    const suffix = ` ${n}`
    const base = letters
      .slice(0, NAME_MAX - suffix.length)
      .join('')
      .trimEnd()
    const candidate = base + suffix
    if (!taken.has(candidate.toLocaleLowerCase())) return candidate
  }
}

/**
 * Computer players have first names that read the same in Swedish, Norwegian and English ("Bot 1"
 * read as English beside the Swedish "dator" tag, QA); the tag beside the name says what they are.
 * The first not taken at the table, letter case aside.
 */
export const BOT_NAMES = ['Alva', 'Sixten', 'Ebba', 'Nils', 'Greta', 'Ivar'] as const

export function botName(taken: readonly (string | null)[]): string {
  const names = lowered(taken)
  return (
    BOT_NAMES.find((n) => !names.has(n.toLocaleLowerCase())) ?? distinctName(BOT_NAMES[0], taken)
  )
}

export const CHAT_MAX = 200
export const CHAT_ERROR_CODES = ['CHAT_EMPTY', 'CHAT_TOO_LONG', 'CHAT_BAD_TEXT'] as const
export type ChatErrorCode = (typeof CHAT_ERROR_CODES)[number]

/** Checks and normalises a chat message: what people see is what was sent, text only. */
export function checkChat(
  raw: string,
):
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly code: ChatErrorCode; readonly message: string } {
  const r = checkText(raw, CHAT_MAX, CHAT_MAX * 4)
  if (r.ok) return r
  if (r.problem === 'empty') return { ok: false, code: 'CHAT_EMPTY', message: 'an empty message' }
  if (r.problem === 'long')
    return {
      ok: false,
      code: 'CHAT_TOO_LONG',
      message: `a message is at most ${CHAT_MAX} characters`,
    }
  return {
    ok: false,
    code: 'CHAT_BAD_TEXT',
    message: 'no control or invisible characters in a message',
  }
}
