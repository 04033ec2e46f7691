import { LOCAL_CHAT_WORDS, type LocalChatWordKey } from '../../words-local-chat.js';
import { pageWords } from '../page-words.js';

export { isLanguage } from '../page-words.js';

export const { say, currentLanguage, setLanguage } = pageWords<LocalChatWordKey>(LOCAL_CHAT_WORDS);
