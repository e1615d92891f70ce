/**
 * The `Content-Disposition` of a download: `filename` for every client (quotes
 * and backslashes replaced by `_`) and `filename*` (RFC 5987) with the exact name.
 */
export const attachmentHeader = (fileName: string) =>
  `attachment; filename="${fileName.replace(/["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
