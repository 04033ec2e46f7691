/**
 * The languages of the people's pages (the SDK's), of the messages sent to people and of the final
 * documents. A module of its own, free of server code, because the pages' browser code imports it too.
 */
export const LANGUAGES = ['es', 'en', 'pt', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
