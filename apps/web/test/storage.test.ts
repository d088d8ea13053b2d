// The seats this browser keeps (storage.ts): the home page's "Your tables" list reads them.
import { beforeEach, describe, expect, it } from 'vitest'
import { forgetSeat, gameKey, gameNote, save, seatedTables, tokenKey } from '../src/lib/storage.ts'
import { installLocalStorage } from './local-storage.ts'

describe('seated tables', () => {
  let m: Map<string, string>
  beforeEach(() => {
    m = installLocalStorage()
  })

  it('lists the tables with a seat token by code, each with the game noted beside it', () => {
    save(tokenKey('KLM234'), 'token-b')
    save(gameKey('KLM234'), 'duel')
    save(tokenKey('ABC234'), 'token-a')
    save(gameKey('ABC234'), 'idiot')
    // A seat from before games were noted, a game that is no game, and a malformed code.
    save(tokenKey('XYZ789'), 'token-c')
    save(tokenKey('QRS234'), 'token-d')
    save(gameKey('QRS234'), 'poker')
    save(tokenKey('ab'), 'token-e')
    // A noted game without a seat is not a seat.
    save(gameKey('DEF234'), 'klockan')
    // Seen at the table: the game and its seats (Idioten alone, A-17); bad seats are not read.
    save(tokenKey('GHJ234'), 'token-f')
    save(gameKey('GHJ234'), gameNote('duel', 1))
    save(tokenKey('MNP234'), 'token-g')
    save(gameKey('MNP234'), 'klockan:x')
    expect(seatedTables()).toEqual([
      { code: 'ABC234', game: 'idiot', seats: null },
      { code: 'GHJ234', game: 'duel', seats: 1 },
      { code: 'KLM234', game: 'duel', seats: null },
      { code: 'MNP234', game: 'klockan', seats: null },
      { code: 'QRS234', game: null, seats: null },
      { code: 'XYZ789', game: null, seats: null },
    ])
  })

  it('forgetting a seat forgets its token and its game', () => {
    save(tokenKey('ABC234'), 'token-a')
    save(gameKey('ABC234'), 'idiot')
    forgetSeat('ABC234')
    expect(seatedTables()).toEqual([])
    expect([...m.keys()]).toEqual([])
  })
})
