import type { Language } from '../../organizations/languages.js';
import type { PageAssets } from '../../people/assets.js';
import { htmlShell } from '../../people/html-shell.js';
import { LOCAL_CHAT_WORDS } from '../../people/words-local-chat.js';
import { escapeHtml } from '../../text/escape-html.js';

/** The local chat page's HTML shell; its script (src/people/web/local-chat) reads the rest from the JSON routes beside it. */
export function localChatShell(assets: PageAssets, language: Language): string {
  const words = LOCAL_CHAT_WORDS[language];
  return htmlShell({
    language,
    title: words.title,
    style: assets.localChatStyle,
    script: assets.localChatScript,
    main: `<main id="local-chat" tabindex="-1">
<h1>${escapeHtml(words.title)}</h1>
<p>${escapeHtml(words.loading)}</p>
<noscript><p>${escapeHtml(words.noScript)}</p></noscript>
</main>`,
  });
}
