import type { Language } from '../organizations/languages.js';
import type { PageAssets } from '../people/assets.js';
import { htmlShell } from '../people/html-shell.js';
import { CONSOLE_WORDS } from '../people/words-console.js';
import { escapeHtml } from '../text/escape-html.js';

/** The console's HTML shell; its script (src/people/web/console) draws the rest from the console's routes. */
export function consoleShell(assets: PageAssets, language: Language): string {
  const words = CONSOLE_WORDS[language];
  return htmlShell({
    language,
    title: words.title,
    style: assets.consoleStyle,
    script: assets.consoleScript,
    main: `<main id="console" tabindex="-1">
<h1>${escapeHtml(words.title)}</h1>
<p>${escapeHtml(words.loading)}</p>
<noscript><p>${escapeHtml(words.noScript)}</p></noscript>
</main>`,
  });
}
