import { mount } from 'svelte'
import App from './App.svelte'
import { prefs } from './lib/prefs.svelte.ts'
import './app.css'

// The page's words come first (a chunk per language), then the page, in place of the name that
// index.html shows meanwhile.
const target = document.getElementById('app')!
prefs.load().then(
  () => {
    target.replaceChildren()
    mount(App, { target })
  },
  () => {
    target.textContent = 'kortbord could not load. Reload the page. / Sidan kunde inte laddas.'
  },
)
