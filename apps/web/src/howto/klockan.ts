// How to play Klockan, its variants and Klockan för två (docs/rules.md K-1 … K-8).
import type { HowToTexts } from './types.ts'

const HOURS = ['AH', '6S', 'JD', 'QC', 'KH']

const texts: HowToTexts = {
  en: {
    intro:
      'A patience that plays itself: you turn the cards, and each card decides where you go next.',
    sections: [
      {
        h: 'The clock face',
        blocks: [
          {
            p: 'The cards lie face down in 13 piles of four. Twelve of them make a clock face: the ace at one o’clock, 2 to 10 at their own hours, the jack at eleven and the queen at twelve. The kings’ pile is in the middle.',
          },
          {
            cards: HOURS,
            text: 'Ace is 1, six is 6, jack is 11, queen is 12, and kings go to the middle.',
          },
        ],
      },
      {
        h: 'Turning the cards',
        blocks: [
          {
            p: 'Turn the top card of the middle pile. It goes face up under the pile of its hour, and the next card to turn is the top hidden card of that same pile, round and round.',
          },
          {
            p: 'The game ends when the fourth king turns up. If every card is face up by then, the clock has come out: about one game in thirteen.',
          },
          { p: 'Press Turn for one card at a time, or Run to watch it go by itself.' },
        ],
      },
      {
        h: 'Variants',
        blocks: [
          {
            p: 'With one rescue: once per game, when the fourth king comes too early, you choose a hidden card. The king takes its place face down, and your card is played instead. Suggest picks the bottom card of the pile with the most hidden cards, the best choice you can make.',
          },
          {
            p: 'Twelve piles: the kings are left out, the first card is turned from the twelve o’clock pile, and the fourth queen ends the game.',
          },
          {
            p: 'Two decks: 26 piles, two for each hour; a card goes under the one with more hidden cards. The eighth king ends the game.',
          },
        ],
      },
      {
        h: 'Klockan för två',
        blocks: [
          {
            p: 'Two players take turns, one card each. Whoever turns the card that ends the game loses. You take turns to start the next game.',
          },
        ],
      },
    ],
  },
  sv: {
    intro:
      'En patiens som lägger sig själv: du vänder korten, och varje kort bestämmer vart du går härnäst.',
    sections: [
      {
        h: 'Urtavlan',
        blocks: [
          {
            p: 'Korten ligger nedvända i 13 högar om fyra. Tolv av dem bildar en urtavla: esset på klockan ett, 2 till 10 på sina egna timmar, knekten på elva och damen på tolv. Kungarnas hög ligger i mitten.',
          },
          {
            cards: HOURS,
            text: 'Ess är 1, sexa är 6, knekt är 11, dam är 12, och kungarna går till mitten.',
          },
        ],
      },
      {
        h: 'Vänd korten',
        blocks: [
          {
            p: 'Vänd det översta kortet i mittenhögen. Det läggs uppvänt under högen på sin timme, och nästa kort att vända är det översta dolda kortet i just den högen, varv efter varv.',
          },
          {
            p: 'Partiet är slut när den fjärde kungen kommer upp. Ligger alla kort uppvända då har klockan gått ut: ungefär ett parti av tretton.',
          },
          { p: 'Tryck Vänd för ett kort i taget, eller Kör för att se den gå av sig själv.' },
        ],
      },
      {
        h: 'Varianter',
        blocks: [
          {
            p: 'Med en räddning: en gång per parti, när den fjärde kungen kommer för tidigt, väljer du ett dolt kort. Kungen tar dess plats nedvänd, och ditt kort spelas i stället. Föreslå väljer det understa kortet i högen med flest dolda kort, det bästa valet du kan göra.',
          },
          {
            p: 'Tolv högar: kungarna plockas bort, det första kortet vänds från tolvan, och den fjärde damen avslutar partiet.',
          },
          {
            p: 'Två lekar: 26 högar, två för varje timme; ett kort läggs under den som har flest dolda kort. Den åttonde kungen avslutar partiet.',
          },
        ],
      },
      {
        h: 'Klockan för två',
        blocks: [
          {
            p: 'Två spelare turas om, ett kort var. Den som vänder kortet som avslutar partiet förlorar. Ni turas om att börja nästa parti.',
          },
        ],
      },
    ],
  },
  nb: {
    intro:
      'En kabal som legger seg selv: du snur kortene, og hvert kort bestemmer hvor du skal videre.',
    sections: [
      {
        h: 'Urskiven',
        blocks: [
          {
            p: 'Kortene ligger med baksiden opp i 13 bunker med fire kort. Tolv av dem danner en urskive: esset klokken ett, 2 til 10 på sine egne timer, knekten klokken elleve og damen klokken tolv. Kongenes bunke ligger i midten.',
          },
          {
            cards: HOURS,
            text: 'Ess er 1, seks er 6, knekt er 11, dame er 12, og kongene går til midten.',
          },
        ],
      },
      {
        h: 'Snu kortene',
        blocks: [
          {
            p: 'Snu det øverste kortet i midtbunken. Det legges med forsiden opp under bunken på sin time, og neste kort å snu er det øverste skjulte kortet i nettopp den bunken, runde etter runde.',
          },
          {
            p: 'Spillet er over når den fjerde kongen kommer fram. Ligger alle kortene med forsiden opp da, har kabalen gått opp: omtrent ett spill av tretten.',
          },
          { p: 'Trykk Snu for ett kort om gangen, eller Kjør for å se den gå av seg selv.' },
        ],
      },
      {
        h: 'Varianter',
        blocks: [
          {
            p: 'Med én redning: én gang per spill, når den fjerde kongen kommer for tidlig, velger du et skjult kort. Kongen tar plassen med baksiden opp, og kortet ditt spilles i stedet. Foreslå velger det nederste kortet i bunken med flest skjulte kort, det beste valget du kan gjøre.',
          },
          {
            p: 'Tolv bunker: kongene tas ut, det første kortet snus fra tolvbunken, og den fjerde damen avslutter spillet.',
          },
          {
            p: 'To kortstokker: 26 bunker, to for hver time; et kort legges under den med flest skjulte kort. Den åttende kongen avslutter spillet.',
          },
        ],
      },
      {
        h: 'Klockan för två',
        blocks: [
          {
            p: 'To spillere bytter på, ett kort hver. Den som snur kortet som avslutter spillet, taper. Dere bytter på å begynne neste spill.',
          },
        ],
      },
    ],
  },
}

export default texts
