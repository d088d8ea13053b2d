/**
 * @kortbord/engine — the pure rules of kortbord (docs/rules.md): cards and notation, a seeded PRNG,
 * one game definition per game (Idiot, Aces Up, Idioten för två, Klockan, Dom Åtta Herrarna)
 * and the A-16 solver.
 */

export * from './aces-up/solver.ts'
export * from './aces-up.ts'
export * from './aces-up-hint.ts'
export * from './bots.ts'
export * from './cards.ts'
export * from './duel.ts'
export * from './fair.ts'
export * from './game.ts'
export * from './herrarna.ts'
export * from './idiot.ts'
export * from './klockan.ts'
export * from './playouts.ts'
export * from './record.ts'
export * from './result.ts'
export * from './rng.ts'
export * from './strategies.ts'
