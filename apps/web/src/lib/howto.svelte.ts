// "How to play": which game's rules are open, and who opened them. One dialog for the whole app,
// shown by App.svelte above every page, so that it stays open when the waiting room turns into
// the table and never takes the player away from their seat.
import type { GameId } from '@kortbord/protocol/wire'
import type { Component } from 'svelte'

export interface HowToDialogProps {
  game: GameId
  onclose: () => void
}

// The dialog is a chunk of its own, fetched on the first open (or when a button is pointed at).
let dialog: Promise<Component<HowToDialogProps>> | null = null
export function loadDialog(): Promise<Component<HowToDialogProps>> {
  dialog ??= import('../components/HowToDialog.svelte').then(
    (m) => m.default,
    (e: unknown) => {
      dialog = null // a failed fetch (offline) is tried again next time
      throw e
    },
  )
  return dialog
}

class HowTo {
  /** The game whose rules are open, or null when the dialog is closed. */
  game = $state<GameId | null>(null)
  /** The dialog component once loaded. */
  component = $state.raw<Component<HowToDialogProps> | null>(null)
  /** Loading the dialog failed (offline): a short message says so. */
  failed = $state(false)
  #opener: HTMLElement | null = null

  /** Opens the rules of `game`; focus returns to `opener` when they close. */
  async open(game: GameId, opener: HTMLElement): Promise<void> {
    this.#opener = opener
    this.failed = false
    try {
      this.component = await loadDialog()
    } catch {
      this.failed = true
      return
    }
    this.game = game
  }

  close(): void {
    this.game = null
    // Back to the button that opened the rules; if it is gone (the waiting room became the
    // table meanwhile), to another "How to play" button on the page.
    const back = this.#opener?.isConnected
      ? this.#opener
      : document.querySelector<HTMLElement>('[data-howto-open]')
    back?.focus()
    this.#opener = null
  }
}

export const howto = new HowTo()
