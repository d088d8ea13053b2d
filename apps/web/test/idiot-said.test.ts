import { type IdiotEvent, parseCard } from '@kortbord/engine'
import { describe, expect, it } from 'vitest'
import type { Lang } from '../src/lib/i18n.ts'
import { DICTS } from '../src/lib/i18n-all.ts'
import { eventWords, MAX_LINES, MAX_WAIT_MS, MoveNews } from '../src/lib/idiot-said.ts'

/** Timers a test moves by hand. */
function clock() {
  let now = 0
  let next = 1
  const due = new Map<number, { at: number; f: () => void }>()
  return {
    timers: {
      set: (f: () => void, ms: number) => {
        const id = next++
        due.set(id, { at: now + ms, f })
        return id
      },
      clear: (id: unknown) => void due.delete(id as number),
    },
    advance(ms: number) {
      now += ms
      for (const [id, d] of [...due]) {
        if (d.at <= now) {
          due.delete(id)
          d.f()
        }
      }
    },
  }
}

describe('what a screen reader hears at an Idiot table (QA: ~3 announcements a second with bots)', () => {
  it('a table never quiet (fast bots, watched) is still said every MAX_WAIT_MS, its latest MAX_LINES moves only', () => {
    const c = clock()
    const said: string[] = []
    const news = new MoveNews((s) => said.push(s), 1500, c.timers)
    // A move every 30 ms for 13 s: the quiet never comes.
    for (let i = 1, t = 0; t < 13_000; i++, t += 30) {
      news.push([`Alva played ${i}`], 'Sixten’s turn', false)
      c.advance(30)
    }
    expect(said).toHaveLength(Math.floor(13_000 / MAX_WAIT_MS))
    for (const s of said) expect(s.match(/played/g)).toHaveLength(MAX_LINES)
    // The latest moves, not the first: the first announcement ends just before 6 s.
    expect(said[0]).toContain(`Alva played ${MAX_WAIT_MS / 30}.`)
    expect(said[0]).not.toContain('Alva played 1.')
    c.advance(1500)
    expect(said).toHaveLength(3)
  })

  it('[I-15] a run of others’ moves is one announcement once the table is quiet', () => {
    const c = clock()
    const said: string[] = []
    const news = new MoveNews((s) => said.push(s), 1500, c.timers)
    news.push(['Bot 1 played seven of hearts'], 'Bot 2’s turn', false)
    c.advance(700)
    news.push(['Bot 2 played eight of spades'], 'Bot 3’s turn', false)
    c.advance(700)
    expect(said).toEqual([])
    c.advance(1500)
    expect(said).toEqual([
      'Bot 1 played seven of hearts. Bot 2 played eight of spades. Bot 3’s turn.',
    ])
  })

  it('the reader’s turn is said at once, with what came before it', () => {
    const c = clock()
    const said: string[] = []
    const news = new MoveNews((s) => said.push(s), 1500, c.timers)
    news.push(['Bot 1 played seven of hearts'], 'Bot 2’s turn', false)
    c.advance(700)
    news.push(['Bot 2 picked up the pile (5 cards)'], 'Your turn', true)
    expect(said).toEqual([
      'Bot 1 played seven of hearts. Bot 2 picked up the pile (5 cards). Your turn.',
    ])
    // Nothing is said again when the old timer would have run.
    c.advance(5000)
    expect(said).toHaveLength(1)
  })

  it('a burn, where the same player goes again, still ends with whose turn it is', () => {
    const c = clock()
    const said: string[] = []
    const news = new MoveNews((s) => said.push(s), 1500, c.timers)
    news.push(['Astrid played ten of clubs', 'Astrid burned the pile'], 'Your turn', true)
    expect(said).toEqual(['Astrid played ten of clubs. Astrid burned the pile. Your turn.'])
  })

  it('a move without words (a bot’s swap) does not say the same tail again', () => {
    const c = clock()
    const said: string[] = []
    const news = new MoveNews((s) => said.push(s), 1500, c.timers)
    news.push([], 'Swap cards, then press Ready', true)
    news.push([], 'Swap cards, then press Ready', false)
    c.advance(2000)
    news.push([], 'Waiting for the others', true)
    expect(said).toEqual(['Swap cards, then press Ready.', 'Waiting for the others.'])
  })

  it('stop forgets what was gathered', () => {
    const c = clock()
    const said: string[] = []
    const news = new MoveNews((s) => said.push(s), 1500, c.timers)
    news.push(['Bot 1 played seven of hearts'], 'Bot 2’s turn', false)
    news.stop()
    c.advance(5000)
    expect(said).toEqual([])
  })
})

describe('the words of a move at an Idiot table', () => {
  const names = ['Astrid', 'Bot 1', 'Bot 2']
  const TC = parseCard('TC')!
  const TH = parseCard('TH')!
  const wording = (lang: Lang, me: number | null) => ({ t: DICTS[lang], lang, names, me })
  /** The burn of a ten, as the engine tells it: the play, the burn; then the player goes again. */
  const burn: IdiotEvent[] = [
    { t: 'play', seat: 0, cards: [TC], from: 'hand' },
    { t: 'burn', seat: 0, reason: 'ten', count: 4 },
  ]
  const said = (events: readonly IdiotEvent[], lang: Lang, me: number | null, you = true) =>
    events.map((e) => eventWords(e, wording(lang, me), you)).filter((x) => x !== null)

  it('[I-15] the screen reader tells the player their own moves as theirs (QA: “Astrid played ten of clubs. Your turn.” to Astrid)', () => {
    const c = clock()
    const heard: string[] = []
    const news = new MoveNews((s) => heard.push(s), 1500, c.timers)
    news.push(said(burn, 'en', 0), DICTS.en.yourTurn, true)
    expect(heard).toEqual(['You played ten of clubs. You burned the pile. Your turn.'])
    expect(said(burn, 'sv', 0)).toEqual(['Du lade tio i klöver', 'Du brände högen'])
    expect(said(burn, 'nb', 0)).toEqual(['Du la kløver ti', 'Du brente bunken'])
  })

  it('picking up, turning up a card, going out and losing are said to the player as theirs', () => {
    const own: IdiotEvent[] = [
      { t: 'pickup', seat: 0, cards: [TC, TH] },
      { t: 'uncover', seat: 0, position: 1, card: TH },
      { t: 'out', seat: 0, place: 2 },
      { t: 'over', loser: 0 },
    ]
    expect(said(own, 'en', 0)).toEqual([
      'You picked up the pile (2 cards)',
      'You turned up ten of hearts',
      'You are out (2nd)',
      'You are the Idiot!',
    ])
    expect(said(own, 'sv', 0)).toEqual([
      'Du tog upp högen (2 kort)',
      'Du vände upp tio i hjärter',
      'Du är ute (2:a)',
      'Du är Idioten!',
    ])
  })

  it('the others’ moves keep their names, and a spectator hears everyone by name', () => {
    const bot: IdiotEvent[] = [
      { t: 'play', seat: 1, cards: [TH], from: 'hand' },
      { t: 'pickup', seat: 2, cards: [TC] },
    ]
    expect(said(bot, 'en', 0)).toEqual([
      'Bot 1 played ten of hearts',
      'Bot 2 picked up the pile (1 card)',
    ])
    expect(said(burn, 'en', null)).toEqual(['Astrid played ten of clubs', 'Astrid burned the pile'])
    expect(said([{ t: 'over', loser: 0 }], 'en', null)).toEqual(['Astrid is the Idiot!'])
  })

  it('the last-move line on the screen names the player, as the history does; a swap or a draw says nothing', () => {
    expect(said(burn, 'en', 0, false)).toEqual([
      'Astrid played ten of clubs',
      'Astrid burned the pile',
    ])
    const quiet: IdiotEvent[] = [
      { t: 'swap', seat: 0, fromHand: TC, fromRow: TH },
      { t: 'draw', seat: 0, count: 1 },
      { t: 'ready', seat: 0 },
    ]
    expect(said(quiet, 'en', 0)).toEqual([])
  })

  it('Swedish lays cards (“lade”) in the last-move line, as the history does (QA: “spelade” beside “lade”)', () => {
    expect(said(burn, 'sv', 0, false)[0]).toBe('Astrid lade tio i klöver')
  })
})
