// Whose move the table waits for, from this page's seat (issue 15's turn alerts): true when
// the player at `seat` must act now and could keep everyone waiting. Games played alone, and
// the duel played at the same time, wait for nobody.
import type { DuelView, IdiotView, KlockanView } from '@kortbord/engine'
import type { TableUpdate } from '@kortbord/protocol/wire'

export function isMyTurn(u: TableUpdate | null): boolean {
  if (u === null || u.seat === null || u.view === null || u.table.status !== 'playing') return false
  if (u.table.seats[u.seat]?.bot != null) return false
  const seat = u.seat
  switch (u.view.game) {
    case 'idiot': {
      const v = u.view as IdiotView
      return v.phase === 'play' && v.turn === seat
    }
    case 'duel': {
      const v = u.view as DuelView
      return v.turn !== null && v.turn === seat
    }
    case 'klockan': {
      const v = u.view as KlockanView
      return v.players === 2 && v.phase !== 'over' && v.turn === seat
    }
    default:
      return false
  }
}
