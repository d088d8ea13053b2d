// The turn alert's sound (issue 15): two short tones made with WebAudio, nothing to download.
// The audio context is made on the player's own gesture (ticking "sound"), since browsers keep
// a context made without one silent.
let ctx: AudioContext | null = null

function context(): AudioContext | null {
  if (ctx) return ctx
  const C = globalThis.AudioContext as typeof AudioContext | undefined
  if (!C) return null
  try {
    ctx = new C()
  } catch {
    return null
  }
  return ctx
}

/** Called from the gesture that turns the sound on: the context may play from then on. */
export function unlockSound(): void {
  void context()
    ?.resume()
    .catch(() => {})
}

/** Two soft tones, a quarter of a second in all. */
export function beep(): void {
  const c = context()
  if (!c) return
  const t = c.currentTime
  const osc = c.createOscillator()
  const gain = c.createGain()
  osc.type = 'sine'
  osc.frequency.setValueAtTime(660, t)
  osc.frequency.setValueAtTime(880, t + 0.1)
  gain.gain.setValueAtTime(0.0001, t)
  gain.gain.exponentialRampToValueAtTime(0.2, t + 0.02)
  gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.26)
  osc.connect(gain).connect(c.destination)
  osc.start(t)
  osc.stop(t + 0.27)
}
