// How to play Idioten för två: the patience Idioten (Aces Up) and the match's score
// (docs/rules.md A-1 … A-17, alone included).
import type { HowToTexts } from './types.ts'

const DISCARD = ['5D', 'QD']

const texts: HowToTexts = {
  en: {
    intro:
      'Two players each play their own rounds of the patience Idioten (Aces Up) and compare results. Nobody can touch the other’s cards: the aim is to leave as few cards as you can.',
    sections: [
      {
        h: 'The patience',
        blocks: [
          {
            p: 'Four cards are dealt face up, one on each pile. Tap a card to discard it when another pile shows a higher card of the same suit. Aces are high.',
          },
          {
            cards: DISCARD,
            text: 'The five of diamonds can be discarded: the queen of diamonds lies on top of another pile.',
          },
          { p: 'When a pile is empty, you may move any top card into it.' },
          {
            p: 'When you are stuck, press Deal: one new card on every pile. kortbord warns you if the deal would bury a card you could still discard.',
          },
          {
            p: 'When the stock is used up and no move is left, the round is over. It comes out when only the four aces are left.',
          },
        ],
      },
      {
        h: 'The score',
        blocks: [
          {
            p: 'Each round gives points for the cards left on your table. Fewer points are better: the lower total after all the rounds wins the match.',
          },
          {
            head: ['Cards left', 'Points'],
            rows: [
              ['4 (only the aces)', '0'],
              ['5–8', '1'],
              ['9–14', '2'],
              ['15 or more', '3'],
            ],
          },
          {
            p: 'Equal totals: whoever left fewer cards over all the rounds wins; if that is equal too, the match is a draw.',
          },
          {
            p: 'Other ways to score: Free aces gives one point for each ace on top of a pile, and the most points win. Combined gives one point for each free ace and takes one off for every other card left, a round that comes out scores 4, and the most points win.',
          },
        ],
      },
      {
        h: 'Best possible',
        blocks: [
          {
            p: 'After each round kortbord works out the fewest cards you could have left if you had known the order of the stock and played perfectly, over every way of playing that deal (keeping a card under a deal included). The score sheet shows it beside your result, so you can see how close you came.',
          },
          {
            p: '“…” means it is still being worked out. “≤ 5” means at most 5: kortbord has found a way to leave 5 but has not yet proven that no way leaves fewer; it goes on proving and then shows the proven figure, which may be lower. On a few deals (about one in thirty) the proof takes more than kortbord allows; then “≤ 5” stays, and its label says that no proof follows. A figure without “≤” is proven: no way of playing that deal leaves fewer cards.',
          },
          {
            p: 'After the match, the record of the match (the link under the result) can show the best way: the moves that leave that many cards, one at a time, beside your own round. It can also compare each of your moves with the hint, and list those that left clearly more cards.',
          },
          {
            p: 'About half of all four-pile rounds cannot come out even with perfect play. In a few percent of deals the fewest cards are reached only by leaving a card that could be discarded where it is, under the next deal.',
          },
        ],
      },
      {
        h: 'Settings',
        blocks: [
          {
            p: 'Alone: choose one player to lay the patience by yourself, one round or a series, scored the same way. Nobody wins or loses: the end shows what your rounds left. Alone you can press Hint: kortbord plays each move you may make out on many guesses of the stock and says which left the fewest cards, from what you can see. You still make the move.',
          },
          {
            p: 'Five piles make the patience far easier: a handicap to give a beginner. With the same cards, both players get the same order in each round. Taking turns: one plays while the other watches. Undo: take back one discard or one move per round, before the next deal.',
          },
          {
            p: 'Eight piles are played with two decks shuffled together: a round comes out when only the eight aces are left, and the points count the cards beyond them (8 left: 0, 9–12: 1, 13–18: 2, 19 or more: 3; combined scoring gives 8 for a round that comes out). The same cards need two decks for both players.',
          },
        ],
      },
    ],
  },
  sv: {
    intro:
      'Två spelare lägger var sina givar av patiensen Idioten och jämför resultaten. Ingen kan röra den andras kort: det gäller att lämna så få kort som möjligt.',
    sections: [
      {
        h: 'Patiensen',
        blocks: [
          {
            p: 'Fyra kort läggs uppvända, ett på varje hög. Tryck på ett kort för att kasta det när en annan hög visar ett högre kort i samma färg. Ess är högst.',
          },
          {
            cards: DISCARD,
            text: 'Ruter fem kan kastas: ruter dam ligger överst på en annan hög.',
          },
          { p: 'När en hög är tom får du flytta dit vilket översta kort som helst.' },
          {
            p: 'När du inte kommer längre trycker du Ge: ett nytt kort på varje hög. kortbord varnar dig om given skulle begrava ett kort som fortfarande går att kasta.',
          },
          {
            p: 'När talongen är slut och inget drag finns kvar är given slut. Den går ut när bara de fyra essen ligger kvar.',
          },
        ],
      },
      {
        h: 'Poängen',
        blocks: [
          {
            p: 'Varje giv ger poäng för korten som ligger kvar på ditt bord. Färre poäng är bättre: lägst summa efter alla givar vinner matchen.',
          },
          {
            head: ['Kort kvar', 'Poäng'],
            rows: [
              ['4 (bara essen)', '0'],
              ['5–8', '1'],
              ['9–14', '2'],
              ['15 eller fler', '3'],
            ],
          },
          {
            p: 'Lika summa: den som lämnade färst kort sammanlagt vinner; är även det lika blir matchen oavgjord.',
          },
          {
            p: 'Andra sätt att räkna: Fria ess ger en poäng för varje ess som ligger överst på en hög, och flest poäng vinner. Kombinerad ger en poäng för varje fritt ess och drar av en för varje annat kort som ligger kvar, en giv som går ut ger 4, och flest poäng vinner.',
          },
        ],
      },
      {
        h: 'Bästa möjliga',
        blocks: [
          {
            p: 'Efter varje giv räknar kortbord ut hur få kort du hade kunnat lämna om du hade känt talongens ordning och spelat perfekt, över alla sätt att spela given (även att låta ett kort ligga kvar under en giv). Protokollet visar det bredvid ditt resultat, så att du ser hur nära du kom.',
          },
          {
            p: '”…” betyder att det räknas ut. ”≤ 5” betyder högst 5: kortbord har hittat ett sätt att lämna 5 men ännu inte bevisat att inget sätt lämnar färre; det fortsätter att bevisa och visar sedan den bevisade siffran, som kan vara lägre. På några få givar (ungefär en av trettio) tar beviset mer än kortbord tillåter; då står ”≤ 5” kvar, och dess etikett säger att inget bevis kommer. En siffra utan ”≤” är bevisad: inget sätt att spela given lämnar färre kort.',
          },
          {
            p: 'Efter matchen kan partiets protokoll (länken under resultatet) visa bästa vägen: dragen som lämnar så få kort, ett i taget, bredvid ditt eget spel. Det kan också jämföra vart och ett av dina drag med tipset och visa dem som lämnade klart fler kort.',
          },
          {
            p: 'Ungefär hälften av alla givar med fyra högar går inte ut ens med perfekt spel. I några procent av givarna nås det minsta antalet kort bara om man låter ett kort som kunde kastas ligga kvar under nästa giv.',
          },
        ],
      },
      {
        h: 'Inställningar',
        blocks: [
          {
            p: 'Ensam: välj en spelare för att lägga patiensen själv, en giv eller flera, med samma poäng. Ingen vinner eller förlorar: till sist visas vad dina givar lämnade. Ensam kan du trycka på Tips: kortbord spelar ut varje drag du kan göra på många gissningar av talongen och säger vilket som lämnade minst kort, utifrån det du ser. Du gör draget själv.',
          },
          {
            p: 'Fem högar gör patiensen mycket lättare: ett handikapp att ge en nybörjare. Med samma kort får båda spelarna samma ordning i varje giv. Växelvis: en spelar medan den andra tittar på. Ångra: ta tillbaka ett kast eller en flytt per giv, före nästa utdelning.',
          },
          {
            p: 'Åtta högar spelas med två lekar blandade ihop: patiensen går ut när bara de åtta essen är kvar, och poängen räknar korten utöver dem (8 kvar: 0, 9–12: 1, 13–18: 2, 19 eller fler: 3; kombinerad ger 8 för en giv som går ut). Samma kort kräver två lekar för båda spelarna.',
          },
        ],
      },
    ],
  },
  nb: {
    intro:
      'To spillere legger hver sine runder av kabalen Idioten og sammenligner resultatene. Ingen kan røre den andres kort: målet er å la så få kort som mulig ligge igjen.',
    sections: [
      {
        h: 'Kabalen',
        blocks: [
          {
            p: 'Fire kort legges med forsiden opp, ett på hver bunke. Trykk på et kort for å kaste det når en annen bunke viser et høyere kort i samme farge. Ess er høyest.',
          },
          {
            cards: DISCARD,
            text: 'Ruter fem kan kastes: ruter dame ligger øverst på en annen bunke.',
          },
          { p: 'Når en bunke er tom, kan du flytte et hvilket som helst øverste kort dit.' },
          {
            p: 'Når du står fast, trykker du Del ut: ett nytt kort på hver bunke. kortbord advarer deg hvis utdelingen ville begrave et kort som fortsatt kan kastes.',
          },
          {
            p: 'Når det ikke er flere kort å dele ut og ingen trekk er igjen, er runden over. Den går opp når bare de fire essene ligger igjen.',
          },
        ],
      },
      {
        h: 'Poengene',
        blocks: [
          {
            p: 'Hver runde gir poeng for kortene som ligger igjen på bordet ditt. Færre poeng er bedre: lavest sum etter alle rundene vinner kampen.',
          },
          {
            head: ['Kort igjen', 'Poeng'],
            rows: [
              ['4 (bare essene)', '0'],
              ['5–8', '1'],
              ['9–14', '2'],
              ['15 eller flere', '3'],
            ],
          },
          {
            p: 'Lik sum: den som lot færrest kort ligge igjen til sammen, vinner; er også det likt, blir kampen uavgjort.',
          },
          {
            p: 'Andre måter å telle på: Frie ess gir ett poeng for hvert ess som ligger øverst på en bunke, og flest poeng vinner. Kombinert gir ett poeng for hvert fritt ess og trekker fra ett for hvert annet kort som ligger igjen, en runde som går opp gir 4, og flest poeng vinner.',
          },
        ],
      },
      {
        h: 'Best mulig',
        blocks: [
          {
            p: 'Etter hver runde regner kortbord ut hvor få kort du kunne ha latt ligge igjen hvis du hadde kjent rekkefølgen i bunken og spilt perfekt, over alle måter å spille runden på (også å la et kort ligge under en utdeling). Poenglisten viser det ved siden av resultatet ditt, så du ser hvor nær du kom.',
          },
          {
            p: '«…» betyr at det regnes ut. «≤ 5» betyr høyst 5: kortbord har funnet en måte å la 5 ligge igjen på, men har ennå ikke bevist at ingen måte lar færre ligge; det fortsetter å bevise og viser så det beviste tallet, som kan være lavere. På noen få runder (omtrent én av tretti) tar beviset mer enn kortbord tillater; da blir «≤ 5» stående, og etiketten sier at det ikke kommer noe bevis. Et tall uten «≤» er bevist: ingen måte å spille runden på lar færre kort ligge igjen.',
          },
          {
            p: 'Etter kampen kan spillets protokoll (lenken under resultatet) vise den beste veien: trekkene som lar så få kort ligge, ett om gangen, ved siden av ditt eget spill. Den kan også sammenligne hvert av trekkene dine med tipset og vise dem som lot klart flere kort ligge igjen.',
          },
          {
            p: 'Omtrent halvparten av alle runder med fire bunker går ikke opp selv med perfekt spill. I noen prosent av rundene nås det minste antallet kort bare hvis man lar et kort som kunne vært kastet, ligge under neste utdeling.',
          },
        ],
      },
      {
        h: 'Innstillinger',
        blocks: [
          {
            p: 'Alene: velg én spiller for å legge kabalen selv, én runde eller flere, med samme poeng. Ingen vinner eller taper: til slutt vises hva rundene dine lot ligge igjen. Alene kan du trykke på Tips: kortbord spiller ut hvert trekk du kan gjøre på mange gjetninger av de skjulte kortene og sier hvilket som lot færrest kort ligge igjen, ut fra det du ser. Du gjør trekket selv.',
          },
          {
            p: 'Fem bunker gjør kabalen mye lettere: et handikap å gi en nybegynner. Med de samme kortene får begge spillerne samme rekkefølge i hver runde. Etter tur: én spiller mens den andre ser på. Angre: ta tilbake ett kast eller én flytting per runde, før neste utdeling.',
          },
          {
            p: 'Åtte bunker spilles med to kortstokker stokket sammen: kabalen går opp når bare de åtte essene er igjen, og poengene teller kortene utover dem (8 igjen: 0, 9–12: 1, 13–18: 2, 19 eller flere: 3; kombinert gir 8 for en runde som går opp). De samme kortene krever to kortstokker for begge spillerne.',
          },
        ],
      },
    ],
  },
}

export default texts
