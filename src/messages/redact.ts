export const EXCERPT_LENGTH = 200;

/*
 * A word of the message that could be a secret: a one-time code, a token in a signing link, an id.
 * Anything of four characters or more except a plain lowercase word, and any long word at all.
 */
function isSecretLike(word: string): boolean {
  return word.length >= 4 && (!/^[a-z]+$/.test(word) || word.length >= 16);
}

function secretWords(texts: string[]): string[] {
  const words = new Set(texts.flatMap((text) => text.split(/[^A-Za-z0-9]+/)).filter(isSecretLike));
  // Longest first, so that a word inside a longer one does not leave the rest of it behind.
  return [...words].sort((a, b) => b.length - a.length);
}

/**
 * What goes into the attempt log from a provider's answer. Some answers quote what they refuse (a
 * template parameter, a line of the message), and the message may hold a one-time code or a link
 * that signs in; so every secret-like word of the message is blanked out before the cut.
 */
export function safeExcerpt(answer: string, message: string[]): string {
  let excerpt = answer;
  for (const word of secretWords(message)) excerpt = excerpt.split(word).join('[redacted]');
  const flat = excerpt.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH - 1)}…` : flat;
}
