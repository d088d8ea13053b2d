export { type App, type BuildOptions, buildApp, REDACT } from './app.ts'
export { type Config, loadConfig } from './config.ts'
export { MemoryStore, type TableRecord, type TableStore, VersionConflict } from './store.ts'
