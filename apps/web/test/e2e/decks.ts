// Fixed decks the browser tests deal (the test server's `deck`), shared so that each is written
// once. The duel's lives with its helpers (duel-helpers.ts DUEL_DECK).

/**
 * One deck for every Klockan game: the standard game stops after 30 cards with 22 face down (so
 * för två's second player turns the fourth king), and the rescue is then offered; the suggested
 * card (the deepest of the fullest pile) wins.
 */
export const KLOCKAN_DECK =
  '6D 3D 2H 6S 2C 5C 6C JC 5D KD 4S 8H 2D 9S 3C 7H 9D QH 5H TD TC AC JH 7D 9C TS TH 3H QD 4C QS 9H AH 8C KH 8D 6H 2S 7C AD 7S 4D JS JD AS 4H 3S KC 8S 5S KS QC'
