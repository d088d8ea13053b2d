// The words of issue 15 at the table (chat, reactions, the next game by agreement, turn alerts,
// the duel's score explained, patience speed), in Swedish, bokmål and English. A module of its
// own: only the table page needs them, so the first page load carries none of it.
import type { Reaction } from '@kortbord/protocol/wire'
import { cardCount, type Lang } from './i18n.ts'

/** Names joined as the language does it: "A and B", "A, B and C"; "A och B"; "A og B". */
export const andList = (lang: Lang, items: readonly string[]): string =>
  new Intl.ListFormat(lang, { type: 'conjunction' }).format(items)

const en = {
  // The page
  tableHeading: (game: string, code: string) => `${game}, table ${code}`,
  tableMenu: 'Players and settings',
  myRow: 'Your cards on the table',
  // Chat and reactions
  chat: 'Chat',
  chatOpen: 'Chat',
  chatClose: 'Hide chat',
  chatUnread: (n: number) => (n === 1 ? '1 new' : `${n} new`),
  chatPlayers: 'Players',
  chatSpectators: 'Spectators',
  chatNone: 'No messages yet.',
  chatMessage: 'Message',
  chatSend: 'Send',
  chatLeft: (n: number) => `${n} characters left`,
  chatWatching: (name: string) => `${name} (watching)`,
  aSpectator: 'A spectator',
  said: (name: string, text: string) => `${name}: ${text}`,
  spectatorChat: 'Spectators may chat',
  spectatorChatOff: 'The host has turned spectators’ chat off.',
  mute: (name: string) => `Mute ${name}`,
  mutedNote: (n: number) =>
    n === 1
      ? '1 message from a muted player is hidden on this device.'
      : `${n} messages from muted players are hidden on this device.`,
  reactionsLabel: 'Quick reactions',
  reactions: {
    gg: 'Good game',
    nice: 'Nice',
    oops: 'Oops',
    thanks: 'Thanks',
    hurry: 'Hurry up',
    wow: 'Wow',
  } satisfies Record<Reaction, string>,
  // The next game by agreement
  rematchTitle: 'Next game',
  playAgain: 'Play again',
  readyToStart: 'Ready to start',
  youAgreed: 'You are in. The game starts when everyone is.',
  youAgreedHost: (host: string) => `You are in. The game starts when ${host} starts it.`,
  agreed: (names: string) => `In: ${names}.`,
  waitingFor: (names: string) => `Waiting for ${names}.`,
  /** The same, to a player who is awaited too: "you", then the others' names, if any. */
  waitingForYou: (others: readonly string[]) => `Waiting for ${andList('en', ['you', ...others])}.`,
  botsAgree: 'Bots always agree.',
  startNow: 'Start now',
  logRematch: (name: string) => `${name} wants to play again`,
  // Turn alerts
  alerts: 'Turn alerts',
  yourTurnTitle: '(Your turn)',
  soundAlert: 'A short sound when it is my turn',
  vibrateAlert: 'Vibrate when it is my turn',
  // The duel's score sheet
  scoreBands:
    'Points per round from the cards left: 4 (only the aces) → 0 points, 5–8 → 1, 9–14 → 2, 15 or more → 3.',
  scoreBandsTwoDecks:
    'Points per round from the cards left with two decks: 8 (only the aces) → 0 points, 9–12 → 1, 13–18 → 2, 19 or more → 3.',
  scoreBandsKombineradTwoDecks: 'With two decks a round that comes out scores 8.',
  scoreBandsEss: 'Points per round: one for each ace on top of a pile.',
  scoreBandsKombinerad:
    'Points per round: one for each free ace, minus one for every other card left; a round that comes out scores 4.',
  lowerWins: 'Fewer points are better: the lower total wins the match.',
  higherWins: 'More points are better: the higher total wins the match.',
  /** A-17: Idioten alone has no winner; the result is what the games left. */
  aloneResult: (won: number, games: number, left: number, points: number) =>
    games === 1
      ? won === 1
        ? 'The patience came out!'
        : `${left} cards left.`
      : `${won} of ${games} rounds came out: ${points} points, ${left} cards left in all.`,
  lowerBetter: 'Fewer points are better.',
  /** A-17: the table's tally alone, the rounds that came out in all its series. */
  aloneTally: (n: number) => `Rounds that came out at this table: ${n}`,
  higherBetter: 'More points are better.',
  /** A match level on points (A-11): fewer cards left over all games decides it, or it is drawn. */
  onCardsLeft: (points: number, winner: number, loser: number) =>
    `Level on points (${points} each): fewer cards left decides it, ${winner} against ${loser}.`,
  levelAll: (points: number, left: number) =>
    `Level on points (${points} each) and on cards left (${left} each).`,
  /** What the sheet's best possible means; the same deal (A-15) also holds it back a while. */
  bestExplained: (sameDeal: boolean) =>
    `Best possible: the fewest cards perfect play could have left with that deal (“…” while it is worked out${sameDeal ? ', and until both have played it' : ''}). “≤ n” means at most n: a way to leave n is known, and kortbord is still proving that nothing better was possible; the proven figure follows. On a few deals the proof takes more than kortbord allows, and “≤ n” stays.`,
  bestAtMost: (n: number) => `at most ${n}, not yet proven the best`,
  bestAfter: (name: string) => `shown once ${name} has played this deal`,
  gameOverSaid: (n: number, left: number, points: number, won: boolean) =>
    `Round ${n} is over: ${left} cards left${won ? ', won' : ''}, ${points} ${points === 1 ? 'point' : 'points'}.`,
  bestAtMostGaveUp: (n: number) =>
    `at most ${n}; kortbord could not prove that nothing better was possible`,
  scoreRules: 'How the score works',
  // The sheet's headings on a narrow screen (a 320 px phone); the full ones are still read out.
  cardsLeftShort: 'Left',
  bestShort: 'Best',
  finalBoards: 'Final boards',
  finalBoardOf: (name: string, game: number) => `${name}: round ${game} as it ended`,
  // Patiences
  speed: 'Speed',
  speedSlow: 'Slow',
  speedNormal: 'Normal',
  speedFast: 'Fast',
  // Dom Åtta Herrarna: what the Step just made did, said to a screen reader (card: "two of
  // spades"; to, from, pile: "pile 3", "the waste"), and where a run stopped.
  didDeal: (card: string, to: string) => `${card} onto ${to}.`,
  didBuild: (card: string, from: string, f: number) =>
    `${card} from ${from} built on foundation ${f}.`,
  didStart: (card: string, from: string, f: number) =>
    `${card} from ${from} starts foundation ${f}.`,
  didTake: (pile: string, n: number) => `${pile} taken up: ${cardCount(n)} in hand.`,
  didReserveHand: (n: number) => `${cardCount(n)} from the hand onto the reserve.`,
  didReservePile: (n: number) => `Pile 13 (${cardCount(n)}) onto the reserve.`,
  didWaste: (card: string) => `${card} from the reserve to the waste.`,
  didRestock: (n: number) => `The waste turned over: ${cardCount(n)} in the reserve for round 3.`,
  herrarnaRan: (steps: number, built: number) =>
    `Stopped after ${steps === 1 ? '1 step' : `${steps} steps`}; ${cardCount(built)} built.`,
  /** A heap with its top card face up (the waste): "Waste: 12, queen of diamonds on top". */
  heapTop: (label: string, n: number, top: string) => `${label}: ${n}, ${top} on top`,
  // Klockan's rescue (K-5): what Suggest chose, said to a screen reader.
  suggested: (card: string, pile: string) => `Suggested and chosen: ${card} in ${pile}.`,
  // Hints at an Idiot table played against computer players (lib/hint.ts).
  hint: 'Hint',
  hintThinking: 'Thinking…',
  hintPlay: (cards: string) => `Hint: play the ${cards}.`,
  hintPickUp: 'Hint: pick up the pile.',
  hintSwap: (hand: string, faceUp: string) =>
    `Hint: swap the ${hand} in your hand for the ${faceUp} on the table.`,
  hintReady: 'Hint: keep your cards as they are and press Ready.',
  /** How much the choice mattered: `range` is the other moves' share, "25–30" or "25". */
  hintOdds: (n: number, mine: number, others: number, range: string) =>
    `Played out ${n} times from guesses of the hidden cards: the hint’s move lost ${mine}% of the games, ${others === 1 ? 'the other' : 'the others'} ${range}%.`,
  hintNotClearly: 'No other move did clearly better.',
  // Hints at Idioten alone (lib/aces-hint.ts).
  hintDiscard: (card: string) => `Hint: discard the ${card}.`,
  hintMoveTo: (card: string, pile: number) => `Hint: move the ${card} to the empty pile ${pile}.`,
  hintDeal: 'Hint: deal the next cards.',
  hintFinish: 'Hint: end the round.',
  /** `range`: the other moves' mean, "10.2–12.0" or "10.2". */
  hintLeft: (n: number, mine: string, others: number, range: string) =>
    `Played out ${n} times on guesses of the stock: the hint’s move left ${mine} cards on average, ${others === 1 ? 'the other move' : 'the other moves'} ${range}.`,
}

export type TableDict = typeof en

const sv: TableDict = {
  tableHeading: (game, code) => `${game}, bord ${code}`,
  tableMenu: 'Spelare och inställningar',
  myRow: 'Dina kort på bordet',
  chat: 'Chatt',
  chatOpen: 'Chatt',
  chatClose: 'Dölj chatten',
  chatUnread: (n) => `${n} ny${n === 1 ? '' : 'a'}`,
  chatPlayers: 'Spelare',
  chatSpectators: 'Åskådare',
  chatNone: 'Inga meddelanden än.',
  chatMessage: 'Meddelande',
  chatSend: 'Skicka',
  chatLeft: (n) => `${n} tecken kvar`,
  chatWatching: (name) => `${name} (tittar på)`,
  aSpectator: 'En åskådare',
  said: (name, text) => `${name}: ${text}`,
  spectatorChat: 'Åskådare får chatta',
  spectatorChatOff: 'Värden har stängt av chatten för åskådare.',
  mute: (name) => `Tysta ${name}`,
  mutedNote: (n) =>
    n === 1
      ? '1 meddelande från en tystad spelare döljs på den här enheten.'
      : `${n} meddelanden från tystade spelare döljs på den här enheten.`,
  reactionsLabel: 'Snabba reaktioner',
  reactions: {
    gg: 'Bra spelat',
    nice: 'Snyggt',
    oops: 'Hoppsan',
    thanks: 'Tack',
    hurry: 'Skynda på',
    wow: 'Oj',
  },
  rematchTitle: 'Nästa parti',
  playAgain: 'Spela igen',
  readyToStart: 'Redo att börja',
  youAgreed: 'Du är med. Partiet börjar när alla är det.',
  youAgreedHost: (host) => `Du är med. Partiet börjar när ${host} startar det.`,
  agreed: (names) => `Med: ${names}.`,
  waitingFor: (names) => `Väntar på ${names}.`,
  waitingForYou: (others) => `Väntar på ${andList('sv', ['dig', ...others])}.`,
  botsAgree: 'Datorspelare är alltid med.',
  startNow: 'Starta nu',
  logRematch: (name) => `${name} vill spela igen`,
  alerts: 'Påminnelser',
  yourTurnTitle: '(Din tur)',
  soundAlert: 'Ett kort ljud när det är min tur',
  vibrateAlert: 'Vibrera när det är min tur',
  scoreBands:
    'Poäng per giv efter korten kvar: 4 (bara essen) → 0 poäng, 5–8 → 1, 9–14 → 2, 15 eller fler → 3.',
  scoreBandsTwoDecks:
    'Poäng per giv efter korten kvar med två lekar: 8 (bara essen) → 0 poäng, 9–12 → 1, 13–18 → 2, 19 eller fler → 3.',
  scoreBandsKombineradTwoDecks: 'Med två lekar ger en giv som går ut 8.',
  scoreBandsEss: 'Poäng per giv: ett för varje ess överst i en hög.',
  scoreBandsKombinerad:
    'Poäng per giv: ett för varje fritt ess, minus ett för varje annat kort kvar; en giv som går ut ger 4.',
  lowerWins: 'Färre poäng är bättre: lägst summa vinner matchen.',
  higherWins: 'Fler poäng är bättre: högst summa vinner matchen.',
  aloneResult: (won: number, games: number, left: number, points: number) =>
    games === 1
      ? won === 1
        ? 'Patiensen gick ut!'
        : `${left} kort kvar.`
      : `${won} av ${games} givar gick ut: ${points} poäng, ${left} kort kvar sammanlagt.`,
  lowerBetter: 'Färre poäng är bättre.',
  aloneTally: (n: number) => `Givar som gått ut vid bordet: ${n}`,
  higherBetter: 'Fler poäng är bättre.',
  onCardsLeft: (points: number, winner: number, loser: number) =>
    `Lika poäng (${points} var): färre kort kvar avgör, ${winner} mot ${loser}.`,
  levelAll: (points: number, left: number) =>
    `Lika poäng (${points} var) och lika många kort kvar (${left} var).`,
  bestExplained: (sameDeal) =>
    `Bästa möjliga: så få kort som perfekt spel kunde ha lämnat med den given (”…” medan det räknas ut${sameDeal ? ' och tills båda har spelat den' : ''}). ”≤ n” betyder högst n: ett sätt att lämna n är känt, och kortbord håller på att bevisa att inget bättre gick; den bevisade siffran kommer sedan. På några få givar tar beviset mer än kortbord tillåter, och ”≤ n” står kvar.`,
  bestAtMost: (n) => `högst ${n}, ännu inte bevisat bästa`,
  bestAfter: (name) => `visas när ${name} har spelat samma giv`,
  gameOverSaid: (n, left, points, won) =>
    `Giv ${n} är slut: ${left} kort kvar${won ? ', gick ut' : ''}, ${points} poäng.`,
  bestAtMostGaveUp: (n) => `högst ${n}; kortbord kunde inte bevisa att inget bättre gick`,
  scoreRules: 'Så räknas poängen',
  cardsLeftShort: 'Kvar',
  bestShort: 'Bästa',
  finalBoards: 'Slutställningar',
  finalBoardOf: (name, game) => `${name}: giv ${game} som den slutade`,
  speed: 'Fart',
  speedSlow: 'Långsam',
  speedNormal: 'Normal',
  speedFast: 'Snabb',
  didDeal: (card, to) => `${card} på ${to}.`,
  didBuild: (card, from, f) => `${card} från ${from} till grundhög ${f}.`,
  didStart: (card, from, f) => `${card} från ${from} blir grundhög ${f}.`,
  didTake: (pile, n) => `${pile} tas upp: ${n} kort i handen.`,
  didReserveHand: (n) => `${n} kort från handen läggs på reserven.`,
  didReservePile: (n) => `Hög 13 (${n} kort) läggs på reserven.`,
  didWaste: (card) => `${card} från reserven till kasthögen.`,
  didRestock: (n) => `Kasthögen vänds: ${n} kort blir reserv för omgång 3.`,
  herrarnaRan: (steps, built) => `Stoppad efter ${steps} steg; ${built} kort upplagda.`,
  heapTop: (label, n, top) => `${label}: ${n}, överst ${top}`,
  suggested: (card, pile) => `Föreslaget och valt: ${card} i ${pile}.`,
  hint: 'Tips',
  hintThinking: 'Tänker …',
  hintPlay: (cards) => `Tips: lägg ${cards}.`,
  hintPickUp: 'Tips: ta upp högen.',
  hintSwap: (hand, faceUp) => `Tips: byt ${hand} i handen mot ${faceUp} på bordet.`,
  hintReady: 'Tips: behåll korten som de ligger och tryck på Klar.',
  hintOdds: (n, mine, others, range) =>
    `Utspelat ${n} gånger från gissningar av de dolda korten: tipsets drag förlorade ${mine}\u00a0% av partierna, ${others === 1 ? 'det andra' : 'de andra'} ${range}\u00a0%.`,
  hintNotClearly: 'Inget annat drag var klart bättre.',
  hintDiscard: (card) => `Tips: kasta ${card}.`,
  hintMoveTo: (card, pile) => `Tips: flytta ${card} till den tomma högen ${pile}.`,
  hintDeal: 'Tips: ge nästa kort.',
  hintFinish: 'Tips: avsluta given.',
  hintLeft: (n, mine, others, range) =>
    `Utspelat ${n} gånger på gissningar av talongen: tipsets drag lämnade ${mine} kort i snitt, ${others === 1 ? 'det andra draget' : 'de andra dragen'} ${range}.`,
}

const nb: TableDict = {
  tableHeading: (game, code) => `${game}, bord ${code}`,
  tableMenu: 'Spillere og innstillinger',
  myRow: 'Kortene dine på bordet',
  chat: 'Chat',
  chatOpen: 'Chat',
  chatClose: 'Skjul chatten',
  chatUnread: (n) => `${n} ny${n === 1 ? '' : 'e'}`,
  chatPlayers: 'Spillere',
  chatSpectators: 'Tilskuere',
  chatNone: 'Ingen meldinger ennå.',
  chatMessage: 'Melding',
  chatSend: 'Send',
  chatLeft: (n) => `${n} tegn igjen`,
  chatWatching: (name) => `${name} (ser på)`,
  aSpectator: 'En tilskuer',
  said: (name, text) => `${name}: ${text}`,
  spectatorChat: 'Tilskuere kan chatte',
  spectatorChatOff: 'Verten har slått av chatten for tilskuere.',
  mute: (name) => `Demp ${name}`,
  mutedNote: (n) =>
    n === 1
      ? '1 melding fra en dempet spiller er skjult på denne enheten.'
      : `${n} meldinger fra dempede spillere er skjult på denne enheten.`,
  reactionsLabel: 'Raske reaksjoner',
  reactions: {
    gg: 'Godt spilt',
    nice: 'Fint',
    oops: 'Oi sann',
    thanks: 'Takk',
    hurry: 'Skynd deg',
    wow: 'Oi',
  },
  rematchTitle: 'Neste parti',
  playAgain: 'Spill igjen',
  readyToStart: 'Klar til å begynne',
  youAgreed: 'Du er med. Partiet begynner når alle er det.',
  youAgreedHost: (host) => `Du er med. Partiet begynner når ${host} starter det.`,
  agreed: (names) => `Med: ${names}.`,
  waitingFor: (names) => `Venter på ${names}.`,
  waitingForYou: (others) => `Venter på ${andList('nb', ['deg', ...others])}.`,
  botsAgree: 'Dataspillere er alltid med.',
  startNow: 'Start nå',
  logRematch: (name) => `${name} vil spille igjen`,
  alerts: 'Påminnelser',
  yourTurnTitle: '(Din tur)',
  soundAlert: 'En kort lyd når det er min tur',
  vibrateAlert: 'Vibrer når det er min tur',
  scoreBands:
    'Poeng per runde etter kortene igjen: 4 (bare essene) → 0 poeng, 5–8 → 1, 9–14 → 2, 15 eller flere → 3.',
  scoreBandsTwoDecks:
    'Poeng per runde etter kortene igjen med to kortstokker: 8 (bare essene) → 0 poeng, 9–12 → 1, 13–18 → 2, 19 eller flere → 3.',
  scoreBandsKombineradTwoDecks: 'Med to kortstokker gir en runde som går opp 8.',
  scoreBandsEss: 'Poeng per runde: ett for hvert ess øverst i en bunke.',
  scoreBandsKombinerad:
    'Poeng per runde: ett for hvert fritt ess, minus ett for hvert annet kort igjen; en runde som går opp gir 4.',
  lowerWins: 'Færre poeng er bedre: lavest sum vinner kampen.',
  higherWins: 'Flere poeng er bedre: høyest sum vinner kampen.',
  aloneResult: (won: number, games: number, left: number, points: number) =>
    games === 1
      ? won === 1
        ? 'Kabalen gikk opp!'
        : `${left} kort igjen.`
      : `${won} av ${games} runder gikk opp: ${points} poeng, ${left} kort igjen i alt.`,
  lowerBetter: 'Færre poeng er bedre.',
  aloneTally: (n: number) => `Runder som har gått opp ved bordet: ${n}`,
  higherBetter: 'Flere poeng er bedre.',
  onCardsLeft: (points: number, winner: number, loser: number) =>
    `Like mange poeng (${points} hver): færre kort igjen avgjør, ${winner} mot ${loser}.`,
  levelAll: (points: number, left: number) =>
    `Like mange poeng (${points} hver) og like mange kort igjen (${left} hver).`,
  bestExplained: (sameDeal) =>
    `Best mulig: så få kort som perfekt spill kunne ha latt ligge med den runden («…» mens det regnes ut${sameDeal ? ' og til begge har spilt den' : ''}). «≤ n» betyr høyst n: en måte å la n ligge igjen på er kjent, og kortbord holder på å bevise at ingenting bedre var mulig; det beviste tallet kommer etterpå. På noen få runder tar beviset mer enn kortbord tillater, og «≤ n» blir stående.`,
  bestAtMost: (n) => `høyst ${n}, ennå ikke bevist som best`,
  bestAfter: (name) => `vises når ${name} har spilt samme runde`,
  gameOverSaid: (n, left, points, won) =>
    `Runde ${n} er over: ${left} kort igjen${won ? ', gikk opp' : ''}, ${points} poeng.`,
  bestAtMostGaveUp: (n) => `høyst ${n}; kortbord kunne ikke bevise at ingenting bedre var mulig`,
  scoreRules: 'Slik regnes poengene',
  cardsLeftShort: 'Igjen',
  bestShort: 'Best',
  finalBoards: 'Sluttstillinger',
  finalBoardOf: (name, game) => `${name}: runde ${game} slik den endte`,
  speed: 'Fart',
  speedSlow: 'Sakte',
  speedNormal: 'Normal',
  speedFast: 'Rask',
  didDeal: (card, to) => `${card} på ${to}.`,
  didBuild: (card, from, f) => `${card} fra ${from} til grunnbunke ${f}.`,
  didStart: (card, from, f) => `${card} fra ${from} blir grunnbunke ${f}.`,
  didTake: (pile, n) => `${pile} tas opp: ${n} kort på hånden.`,
  didReserveHand: (n) => `${n} kort fra hånden legges på reserven.`,
  didReservePile: (n) => `Bunke 13 (${n} kort) legges på reserven.`,
  didWaste: (card) => `${card} fra reserven til kastebunken.`,
  didRestock: (n) => `Kastebunken snus: ${n} kort blir reserve for runde 3.`,
  herrarnaRan: (steps, built) => `Stoppet etter ${steps} steg; ${built} kort lagt opp.`,
  heapTop: (label, n, top) => `${label}: ${n}, øverst ${top}`,
  suggested: (card, pile) => `Foreslått og valgt: ${card} i ${pile}.`,
  hint: 'Tips',
  hintThinking: 'Tenker …',
  hintPlay: (cards) => `Tips: legg ${cards}.`,
  hintPickUp: 'Tips: ta opp bunken.',
  hintSwap: (hand, faceUp) => `Tips: bytt ${hand} på hånden mot ${faceUp} på bordet.`,
  hintReady: 'Tips: behold kortene som de ligger, og trykk på Klar.',
  hintOdds: (n, mine, others, range) =>
    `Spilt ut ${n} ganger fra gjetninger av de skjulte kortene: tipsets trekk tapte ${mine}\u00a0% av spillene, ${others === 1 ? 'det andre' : 'de andre'} ${range}\u00a0%.`,
  hintNotClearly: 'Ingen andre trekk var klart bedre.',
  hintDiscard: (card) => `Tips: kast ${card}.`,
  hintMoveTo: (card, pile) => `Tips: flytt ${card} til den tomme bunken ${pile}.`,
  hintDeal: 'Tips: del ut neste kort.',
  hintFinish: 'Tips: avslutt runden.',
  hintLeft: (n, mine, others, range) =>
    `Spilt ut ${n} ganger på gjetninger av de skjulte kortene: tipsets trekk etterlot ${mine} kort i snitt, ${others === 1 ? 'det andre trekket' : 'de andre trekkene'} ${range}.`,
}

export const TABLE_DICTS: Record<Lang, TableDict> = { sv, nb, en }
