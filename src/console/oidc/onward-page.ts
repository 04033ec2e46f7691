import type { Language } from '../../organizations/languages.js';
import { CONSOLE_WORDS } from '../../people/words-console.js';
import { escapeHtml } from '../../text/escape-html.js';

/** The page the identity provider's redirect back lands on: it goes on to the console at once, without a script. */
export function onwardPage(to: string, language: Language): string {
  const words = CONSOLE_WORDS[language];
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta http-equiv="refresh" content="0;url=${escapeHtml(to)}">
<title>${escapeHtml(words.title)}</title>
</head>
<body><main><p><a href="${escapeHtml(to)}">${escapeHtml(words.title)}</a></p></main></body>
</html>
`;
}
