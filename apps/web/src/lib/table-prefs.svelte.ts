// What this device remembers about the table for the player (issue 15): whether a turn alert
// sounds (off until asked for) and vibrates (on phones, on until turned off), and how fast the
// patiences' Run goes.
import { load, save } from './storage.ts'

export type RunSpeed = 'slow' | 'normal' | 'fast'
/** Milliseconds between two steps of Run, per patience and speed. */
export const RUN_INTERVAL: Record<'klockan' | 'herrarna', Record<RunSpeed, number>> = {
  klockan: { slow: 600, normal: 200, fast: 60 },
  herrarna: { slow: 400, normal: 120, fast: 50 },
}

const speedOf = (raw: string | null): RunSpeed =>
  raw === 'slow' || raw === 'fast' ? raw : 'normal'

class TablePrefs {
  sound = $state(load('alert.sound') === '1')
  vibrate = $state(load('alert.vibrate') !== '0')
  speed = $state<RunSpeed>(speedOf(load('run.speed')))

  setSound(on: boolean): void {
    this.sound = on
    save('alert.sound', on ? '1' : null)
  }

  setVibrate(on: boolean): void {
    this.vibrate = on
    save('alert.vibrate', on ? null : '0')
  }

  setSpeed(speed: RunSpeed): void {
    this.speed = speed
    save('run.speed', speed === 'normal' ? null : speed)
  }
}

export const tablePrefs = new TablePrefs()
