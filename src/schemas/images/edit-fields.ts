/**
 * How a multipart edit's text parts decode, for the mock gateway's reading of an edit: the
 * SDK's own requests never need it, so it stays out of the families the SDK loads.
 */

/** Edit fields sent as decimal text in multipart. */
export const EDIT_NUMBER_FIELDS = ['n', 'output_compression'] as const;

/**
 * Edit fields sent as one JSON string in multipart: `notifications` (spec: Webhook management —
 * "in multipart a JSON-string form field") and `image_urls`, a list like `notifications` is an object.
 */
export const EDIT_JSON_FIELDS = ['notifications', 'image_urls'] as const;

/**
 * The value of a multipart edit's text part, as the edit schemas read it: the inverse of how the
 * SDK writes the part (numbers as decimal text, objects and arrays as a JSON string). Text that
 * does not decode stays text, and the schema refuses it.
 */
export function editFieldFromText(name: string, text: string): unknown {
  if ((EDIT_NUMBER_FIELDS as readonly string[]).includes(name)) {
    return /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text;
  }
  if ((EDIT_JSON_FIELDS as readonly string[]).includes(name)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
