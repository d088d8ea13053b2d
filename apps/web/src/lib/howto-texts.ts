// Each game's "How to play" texts (all three languages) are a chunk of their own, fetched the
// first time someone opens them: the first page load carries none of them.
import type { GameId } from '@kortbord/protocol/wire'
import type { HowToTexts } from '../howto/types.ts'

export const HOWTO_GAMES: readonly GameId[] = ['idiot', 'duel', 'klockan', 'herrarna']

const TEXTS: Record<GameId, () => Promise<{ default: HowToTexts }>> = {
  idiot: () => import('../howto/idiot.ts'),
  duel: () => import('../howto/duel.ts'),
  klockan: () => import('../howto/klockan.ts'),
  herrarna: () => import('../howto/herrarna.ts'),
}

const loaded = new Map<GameId, Promise<HowToTexts>>()

export function loadTexts(game: GameId): Promise<HowToTexts> {
  let p = loaded.get(game)
  if (!p) {
    p = TEXTS[game]().then(
      (m) => m.default,
      (e: unknown) => {
        loaded.delete(game) // a failed fetch (offline) is tried again next time
        throw e
      },
    )
    loaded.set(game, p)
  }
  return p
}
