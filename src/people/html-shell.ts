import type { Language } from '../organizations/languages.js';
import { escapeHtml } from '../text/escape-html.js';

/**
 * The HTML every page of ours is served as before its script draws it: the language, no indexing,
 * no favicon request, the page's style and module script, and its `main` (already escaped by the
 * caller) with what shows while the script loads or when it cannot run.
 */
export function htmlShell(options: { language: Language; title: string; style: string; script: string; main: string }): string {
  return `<!doctype html>
<html lang="${options.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<link rel="icon" href="data:,">
<title>${escapeHtml(options.title)}</title>
<link rel="stylesheet" href="${options.style}">
<script type="module" src="${options.script}"></script>
</head>
<body>
${options.main}
</body>
</html>
`;
}

/**
 * The shell of a page its script draws wholly (the console, the local chat): its title, and what
 * shows while the script loads or when it cannot run, in `main#<id>`.
 */
export function scriptPageShell(options: {
  id: string;
  language: Language;
  words: { title: string; loading: string; noScript: string };
  style: string;
  script: string;
}): string {
  const { words } = options;
  return htmlShell({
    language: options.language,
    title: words.title,
    style: options.style,
    script: options.script,
    main: `<main id="${options.id}" tabindex="-1">
<h1>${escapeHtml(words.title)}</h1>
<p>${escapeHtml(words.loading)}</p>
<noscript><p>${escapeHtml(words.noScript)}</p></noscript>
</main>`,
  });
}
