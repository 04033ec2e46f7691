import type { Language } from '../organizations/languages.js';
import type { PageAssets } from '../people/assets.js';
import { scriptPageShell } from '../people/html-shell.js';
import { CONSOLE_WORDS } from '../people/words-console.js';

/** The console's HTML shell; its script (src/people/web/console) draws the rest from the console's routes. */
export function consoleShell(assets: PageAssets, language: Language): string {
  return scriptPageShell({ id: 'console', language, words: CONSOLE_WORDS[language], style: assets.consoleStyle, script: assets.consoleScript });
}
