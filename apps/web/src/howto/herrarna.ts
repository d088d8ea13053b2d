// How to play Dom Åtta Herrarna (docs/rules.md H-1 … H-7).
import type { HowToTexts } from './types.ts'

/** A whole foundation of hearts, from its ten round the corner to the jack (H-1). */
const FOUNDATION = ['TH', '9H', '8H', '7H', '6H', '5H', '4H', '3H', '2H', 'AH', 'KH', 'QH', 'JH']

const texts: HowToTexts = {
  en: {
    intro:
      'A patience with two decks and nothing to choose: you watch the cards find their places. Press Step to move one card, or Run.',
    sections: [
      {
        h: 'The goal',
        blocks: [
          {
            p: 'The eight tens are foundations. Each is built down in its own suit and on round the corner: 10, 9 … 2, ace, king, queen, and last the jack, one of the eight lords.',
          },
          { cards: FOUNDATION, text: 'A finished foundation of hearts, from the ten to the jack.' },
          {
            p: 'A ten that shows up moves to the middle at once and starts a foundation; a card that a foundation needs next goes onto it at once.',
          },
        ],
      },
      {
        h: 'Round 1',
        blocks: [
          {
            p: 'Thirteen cards are dealt in a semicircle, then thirteen more on top, and so on until all 104 cards are out. After each layer, everything that fits is built.',
          },
        ],
      },
      {
        h: 'Round 2',
        blocks: [
          {
            p: 'The piles are taken up one at a time from the left, turned over and dealt onto the piles after them, building after every card. The cards left over, and the last pile, go face down onto a reserve.',
          },
          {
            p: 'The reserve is turned up a card at a time: what fits is built, the rest goes to a waste pile.',
          },
        ],
      },
      {
        h: 'Round 3',
        blocks: [
          {
            p: 'The waste becomes the reserve again and is dealt onto eight places, eight cards at a time, building after each layer. When the cards run out, the game is over.',
          },
          {
            p: 'It comes out when all eight jacks sit on top, which is rare: about one game in 75. Your result is the number of cards that were not built.',
          },
        ],
      },
    ],
  },
  sv: {
    intro:
      'En patiens med två lekar där du inte behöver välja något: du ser korten hitta sina platser. Tryck Steg för att flytta ett kort, eller Kör.',
    sections: [
      {
        h: 'Målet',
        blocks: [
          {
            p: 'De åtta tiorna är grundhögar. Var och en byggs nedåt i sin färg och vidare runt hörnet: 10, 9 … 2, ess, kung, dam och sist knekten, en av de åtta herrarna.',
          },
          { cards: FOUNDATION, text: 'En färdig grundhög i hjärter, från tian till knekten.' },
          {
            p: 'En tia som kommer fram flyttas genast in i mitten och blir en ny grundhög; ett kort som en grundhög behöver härnäst läggs genast dit.',
          },
        ],
      },
      {
        h: 'Omgång 1',
        blocks: [
          {
            p: 'Tretton kort läggs ut i en halvcirkel, sedan tretton till ovanpå, och så vidare tills alla 104 kort ligger ute. Efter varje varv byggs allt som passar.',
          },
        ],
      },
      {
        h: 'Omgång 2',
        blocks: [
          {
            p: 'Högarna tas upp en i taget från vänster, vänds och delas ut på högarna efter dem, och efter varje kort byggs det som passar. Korten som blir över, och den sista högen, läggs nedvända på en reserv.',
          },
          {
            p: 'Reserven vänds upp ett kort i taget: det som passar byggs, resten hamnar på en kasthög.',
          },
        ],
      },
      {
        h: 'Omgång 3',
        blocks: [
          {
            p: 'Kasthögen blir reserv igen och delas ut på åtta platser, åtta kort i taget, och efter varje varv byggs det som passar. När korten är slut är patiensen slut.',
          },
          {
            p: 'Den går ut när alla åtta knektarna ligger överst, och det är sällsynt: ungefär ett parti av 75. Ditt resultat är antalet kort som inte kom upp.',
          },
        ],
      },
    ],
  },
  nb: {
    intro:
      'En kabal med to kortstokker der du ikke trenger å velge noe: du ser kortene finne plassene sine. Trykk Steg for å flytte ett kort, eller Kjør.',
    sections: [
      {
        h: 'Målet',
        blocks: [
          {
            p: 'De åtte tierne er grunnbunker. Hver av dem bygges nedover i sin farge og videre rundt hjørnet: 10, 9 … 2, ess, konge, dame og til slutt knekten, en av de åtte herrene.',
          },
          { cards: FOUNDATION, text: 'En ferdig grunnbunke i hjerter, fra tieren til knekten.' },
          {
            p: 'En tier som kommer fram, flyttes straks inn i midten og blir en ny grunnbunke; et kort som en grunnbunke trenger som neste, legges straks dit.',
          },
        ],
      },
      {
        h: 'Runde 1',
        blocks: [
          {
            p: 'Tretten kort legges ut i en halvsirkel, så tretten til oppå, og slik fortsetter det til alle 104 kortene ligger ute. Etter hvert lag bygges alt som passer.',
          },
        ],
      },
      {
        h: 'Runde 2',
        blocks: [
          {
            p: 'Bunkene tas opp én om gangen fra venstre, snus og deles ut på bunkene etter dem, og etter hvert kort bygges det som passer. Kortene som blir til overs, og den siste bunken, legges med baksiden opp på en reserve.',
          },
          {
            p: 'Reserven snus ett kort om gangen: det som passer, bygges, resten havner i en kastebunke.',
          },
        ],
      },
      {
        h: 'Runde 3',
        blocks: [
          {
            p: 'Kastebunken blir reserve igjen og deles ut på åtte plasser, åtte kort om gangen, og etter hvert lag bygges det som passer. Når kortene er slutt, er kabalen over.',
          },
          {
            p: 'Den går opp når alle de åtte knektene ligger øverst, og det er sjelden: omtrent ett spill av 75. Resultatet ditt er antallet kort som ikke kom opp.',
          },
        ],
      },
    ],
  },
}

export default texts
