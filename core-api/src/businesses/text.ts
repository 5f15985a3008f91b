/**
 * Text search normalisation for businesses (spec, "List parameters" and get-businesses:
 * "partial / word-prefix" matching, several terms separated by spaces or commas).
 *
 * A field's words are its maximal runs of letters and digits, lower-cased with diacritics
 * removed ("Café-Bär 12" -> ["cafe", "bar", "12"]). A term matches a field when some word of the
 * field starts with the term. A term that itself contains separators ("albert-heijn") is a
 * phrase of sub-terms that must all match.
 *
 * What a search text means is one rule for both APIs (`search[...]` of the Resources list and
 * get-businesses' `search[...]` / `name` / `owner_code`), see searchTermsOf: a blank text is no
 * search, a text without a letter or digit ("!!!") is a search that matches nothing.
 */

/** Longest stored word; longer words are cut (terms too, so prefixes still meet). */
export const MAX_TOKEN_LENGTH = 64;

/** The normalised words of `text`, each at most MAX_TOKEN_LENGTH characters, without duplicates. */
export function tokenize(text: string | null | undefined): string[] {
  if (!text) return [];
  const folded = text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase();
  const words = folded.match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.map((w) => w.slice(0, MAX_TOKEN_LENGTH)))];
}

/**
 * Splits a search string into terms (separated by spaces or commas); each term is the list of
 * word prefixes it stands for.
 * @returns one entry per term that has at least one word; empty when nothing searchable remains
 */
export function parseSearchTerms(query: string): string[][] {
  return query
    .split(/[\s,]+/u)
    .map((t) => tokenize(t))
    .filter((words) => words.length > 0);
}

/** Escapes LIKE wildcards so a prefix is matched literally: `ab_%` -> `ab\_\%`. */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/**
 * The one reading of a search text, for both APIs.
 * - Blank (absent, empty or only whitespace): no text search; every business is listed, as when
 *   the parameter is left out (a form sends its empty search box).
 * - Otherwise its terms (parseSearchTerms). A text with no letter or digit ("!!!", ",") has no
 *   term: the user did search, and no business has such a word, so it matches nothing
 *   (searchBusinesses returns no hits for an empty term list).
 * @returns undefined for a blank text; else the terms, possibly none
 * @example searchTermsOf("  ") === undefined; searchTermsOf("!!!") -> []; searchTermsOf("ah 12") -> [["ah"], ["12"]]
 */
export function searchTermsOf(query: string | null | undefined): string[][] | undefined {
  if (query === null || query === undefined || query.trim() === "") return undefined;
  return parseSearchTerms(query);
}
