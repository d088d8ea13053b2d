// All three dictionaries at once, for tests and scripts that compare the languages. The page
// itself loads only the one it shows (i18n.ts, loadDict).
import type { Lang } from '@kortbord/protocol/wire'
import { type Dict, en } from './i18n-en.ts'
import { nb } from './i18n-nb.ts'
import { sv } from './i18n-sv.ts'

export const DICTS: Record<Lang, Dict> = { sv, nb, en }
