import type { Language } from '../../organizations/languages.js';
import type { PageAssets } from '../../people/assets.js';
import { scriptPageShell } from '../../people/html-shell.js';
import { LOCAL_CHAT_WORDS } from '../../people/words-local-chat.js';

/** The local chat page's HTML shell; its script (src/people/web/local-chat) reads the rest from the JSON routes beside it. */
export function localChatShell(assets: PageAssets, language: Language): string {
  return scriptPageShell({ id: 'local-chat', language, words: LOCAL_CHAT_WORDS[language], style: assets.localChatStyle, script: assets.localChatScript });
}
