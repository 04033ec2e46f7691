/**
 * Upload URLs for PDFs and download URLs of documents last five minutes, like the template ones.
 * A module of its own: webhook bodies sign file links too, and must not import the documents' code.
 */
export const DOCUMENT_URL_LIFETIME_SECONDS = 300;
