import { type AdminWordKey, CONSOLE_ADMIN_WORDS } from '../../words-console-admin.js';
import { currentLanguage } from './words.js';

/** The words of the templates, webhooks and keys pages for `key` in the page's language, with `{name}` replaced by the values given. */
export function sayAdmin(key: AdminWordKey, values: Record<string, string | number> = {}): string {
  return CONSOLE_ADMIN_WORDS[currentLanguage()][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}
