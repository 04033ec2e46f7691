import { CONSOLE_WORDS, type ConsoleWordKey } from '../../words-console.js';
import { pageWords } from '../page-words.js';

export { isLanguage } from '../page-words.js';

export const { say, currentLanguage, setLanguage, setTimeZone, when } = pageWords<ConsoleWordKey>(CONSOLE_WORDS);
