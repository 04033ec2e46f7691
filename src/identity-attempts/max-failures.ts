/** Three wrong codes, or three identity checks that fail (a face or a document number that does not match), block the participant. */
export const MAX_FAILURES = 3;
