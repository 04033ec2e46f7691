/**
 * The file of a multipart/form-data body (RFC 7578) sent by the verification page's form: the
 * part named `name`, undefined when there is none. The whole body is in memory (it is bounded
 * by the route), so parts are found by their boundary lines.
 */
export function formFile(body: Buffer, contentType: string, name: string): Buffer | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const value = boundary?.[1] ?? boundary?.[2];
  if (value === undefined) return undefined;
  const delimiter = Buffer.from(`--${value}`);
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next === -1) return undefined;
    const part = body.subarray(start + delimiter.length, next);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd !== -1) {
      const headers = part.subarray(0, headerEnd).toString('latin1');
      const disposition = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(headers);
      // The part's content ends with the CRLF that precedes the next boundary line.
      if (disposition?.[1] === name) return part.subarray(headerEnd + 4, Math.max(headerEnd + 4, part.length - 2));
    }
    start = next;
  }
  return undefined;
}
