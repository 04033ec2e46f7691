import type { Language } from '../../organizations/languages.js';
import type { PageAssets } from '../../people/assets.js';
import { LOCAL_CHAT_WORDS } from '../../people/words-local-chat.js';
import { escapeHtml } from '../../text/escape-html.js';

/** The local chat page's HTML shell; its script (src/people/web/local-chat) reads the rest from the JSON routes beside it. */
export function localChatShell(assets: PageAssets, language: Language): string {
  const words = LOCAL_CHAT_WORDS[language];
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<link rel="icon" href="data:,">
<title>${escapeHtml(words.title)}</title>
<link rel="stylesheet" href="${assets.localChatStyle}">
<script type="module" src="${assets.localChatScript}"></script>
</head>
<body>
<main id="local-chat" tabindex="-1">
<h1>${escapeHtml(words.title)}</h1>
<p>${escapeHtml(words.loading)}</p>
<noscript><p>${escapeHtml(words.noScript)}</p></noscript>
</main>
</body>
</html>
`;
}
