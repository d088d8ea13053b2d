// How to play Idiot (docs/rules.md I-1 … I-16), told short and friendly.
import type { HowToTexts } from './types.ts'

const FOUR_SEVENS = ['7C', '7D', '7H', '7S']

const texts: HowToTexts = {
  en: {
    intro: 'Get rid of all your cards. The last player still holding cards is the Idiot.',
    sections: [
      {
        h: 'The deal',
        blocks: [
          {
            p: 'Everyone gets three face-down cards in a row, a face-up card on each of them, and three cards in hand. The rest is the draw pile.',
          },
          {
            p: 'Before the start you may swap cards between your hand and your face-up cards: strong cards such as tens, twos and aces are good to keep face up for later. Press Ready when you are happy.',
          },
        ],
      },
      {
        h: 'Your turn',
        blocks: [
          {
            p: 'Play one card, or several of the same rank, that is equal to or higher than the top card of the pile. Aces are high, and suits do not matter.',
          },
          {
            p: 'After playing, draw from the draw pile until you have three cards in hand again, as long as it lasts.',
          },
          {
            p: 'If you cannot play, or would rather not, pick up the whole pile. The next player then starts a new pile.',
          },
        ],
      },
      {
        h: 'The special cards',
        blocks: [
          {
            cards: ['2H'],
            text: 'A two goes on anything and brings the game down to two: the next player may play any card on it.',
          },
          {
            cards: ['TS'],
            text: 'A ten goes on anything and burns the pile: the pile leaves the game, and you play again.',
          },
          {
            cards: FOUR_SEVENS,
            text: 'Four of a kind on top of the pile burns it too, even when different players laid them. Whoever laid the fourth card plays again.',
          },
        ],
      },
      {
        h: 'Your cards on the table',
        blocks: [
          {
            p: 'When your hand is empty and the draw pile is gone, play from your face-up cards. When one of them is played, the card under it is turned up; you can play it from your next play on.',
          },
          {
            p: 'If you pick up the pile, you play from your hand again before you go back to the table.',
          },
        ],
      },
      {
        h: 'The end',
        blocks: [
          {
            p: 'Once you have played your last card you are out. The last player with cards left is the Idiot, and deals the next game.',
          },
          {
            p: 'If the table has a turn timer and your time runs out, kortbord picks up the pile for you, or plays your lowest card when the pile is empty.',
          },
          {
            p: 'Playing against computer players only (Practise against bots), you can press Hint: kortbord says what its strongest computer player would do in your place, from what you can see, and chooses the cards for you. You still play them.',
          },
        ],
      },
    ],
  },
  sv: {
    intro: 'Bli av med alla dina kort. Den som sist sitter kvar med kort är Idioten.',
    sections: [
      {
        h: 'Given',
        blocks: [
          {
            p: 'Alla får tre nedvända kort i rad, ett uppvänt kort ovanpå vart och ett, och tre kort på handen. Resten blir talong.',
          },
          {
            p: 'Före start får du byta kort mellan handen och dina uppvända kort: starka kort som tior, tvåor och ess är bra att ha uppvända till senare. Tryck Klar när du är nöjd.',
          },
        ],
      },
      {
        h: 'Din tur',
        blocks: [
          {
            p: 'Lägg ett kort, eller flera lika, som är lika högt som eller högre än det översta kortet i högen. Ess är högst, och färgen spelar ingen roll.',
          },
          {
            p: 'Efter draget tar du kort från talongen tills du har tre på handen igen, så länge den räcker.',
          },
          {
            p: 'Kan du inte lägga, eller vill du hellre låta bli, tar du upp hela högen. Nästa spelare börjar då en ny hög.',
          },
        ],
      },
      {
        h: 'Specialkorten',
        blocks: [
          {
            cards: ['2H'],
            text: 'En tvåa kan läggas på vad som helst och sänker spelet till två: nästa spelare får lägga vilket kort som helst på den.',
          },
          {
            cards: ['TS'],
            text: 'En tia kan läggas på vad som helst och bränner högen: högen lämnar spelet, och du lägger igen.',
          },
          {
            cards: FOUR_SEVENS,
            text: 'Fyra lika överst i högen bränner den också, även om olika spelare har lagt dem. Den som lade det fjärde kortet lägger igen.',
          },
        ],
      },
      {
        h: 'Dina kort på bordet',
        blocks: [
          {
            p: 'När handen är tom och talongen är slut spelar du från dina uppvända kort. När ett av dem läggs vänds kortet under upp; det kan du spela från nästa drag.',
          },
          {
            p: 'Tar du upp högen spelar du från handen igen innan du går tillbaka till bordet.',
          },
        ],
      },
      {
        h: 'Slutet',
        blocks: [
          {
            p: 'När du har lagt ditt sista kort är du ute. Den som sist har kort kvar är Idioten, och ger i nästa parti.',
          },
          {
            p: 'Har bordet en tidsgräns och din tid tar slut tar kortbord upp högen åt dig, eller lägger ditt lägsta kort om högen är tom.',
          },
          {
            p: 'Spelar du bara mot datorn (Öva mot datorn) kan du trycka på Tips: kortbord säger vad dess starkaste datorspelare skulle göra i ditt ställe, utifrån det du ser, och väljer korten åt dig. Du lägger dem själv.',
          },
        ],
      },
    ],
  },
  nb: {
    intro: 'Bli kvitt alle kortene dine. Den siste som sitter igjen med kort, er Idioten.',
    sections: [
      {
        h: 'Utdelingen',
        blocks: [
          {
            p: 'Alle får tre skjulte kort på rad, et åpent kort oppå hvert av dem og tre kort på hånden. Resten blir trekkbunken.',
          },
          {
            p: 'Før start kan du bytte kort mellom hånden og de åpne kortene dine: sterke kort som tiere, toere og ess er fine å ha åpne til senere. Trykk Klar når du er fornøyd.',
          },
        ],
      },
      {
        h: 'Din tur',
        blocks: [
          {
            p: 'Legg ett kort, eller flere like, som er likt med eller høyere enn det øverste kortet i bunken. Ess er høyest, og fargen har ingen betydning.',
          },
          {
            p: 'Etter utspillet trekker du fra trekkbunken til du har tre kort på hånden igjen, så lenge den rekker.',
          },
          {
            p: 'Kan du ikke legge, eller vil du heller la være, tar du opp hele bunken. Neste spiller begynner da en ny bunke.',
          },
        ],
      },
      {
        h: 'Spesialkortene',
        blocks: [
          {
            cards: ['2H'],
            text: 'En toer kan legges på hva som helst og senker spillet til to: neste spiller kan legge hvilket kort som helst på den.',
          },
          {
            cards: ['TS'],
            text: 'En tier kan legges på hva som helst og brenner bunken: bunken går ut av spillet, og du legger igjen.',
          },
          {
            cards: FOUR_SEVENS,
            text: 'Fire like øverst i bunken brenner den også, selv om forskjellige spillere har lagt dem. Den som la det fjerde kortet, legger igjen.',
          },
        ],
      },
      {
        h: 'Kortene dine på bordet',
        blocks: [
          {
            p: 'Når hånden er tom og trekkbunken er brukt opp, spiller du fra de åpne kortene dine. Når et av dem legges, snus kortet under; det kan du spille fra neste trekk.',
          },
          {
            p: 'Tar du opp bunken, spiller du fra hånden igjen før du går tilbake til bordet.',
          },
        ],
      },
      {
        h: 'Slutten',
        blocks: [
          {
            p: 'Når du har lagt ditt siste kort, er du ute. Den siste med kort igjen er Idioten, og deler ut neste spill.',
          },
          {
            p: 'Har bordet tidsfrist og tiden din går ut, tar kortbord opp bunken for deg, eller legger det laveste kortet ditt hvis bunken er tom.',
          },
          {
            p: 'Spiller du bare mot datamaskinen (Øv mot datamaskinen), kan du trykke på Tips: kortbord sier hva den sterkeste datamaskinspilleren ville gjort i ditt sted, ut fra det du ser, og velger kortene for deg. Du legger dem selv.',
          },
        ],
      },
    ],
  },
}

export default texts
