/**
 * Files the console downloads (spec 1 §7 "Blob downloads": license, keys, CAA
 * key; spec 2 §2.3 Credential: id_rsa, config.json). `api.file` in
 * `app/api-client` fetches one; `saveBlob` hands it to the browser.
 */

/** A downloaded file: its bytes and the name the server gave it. */
export interface DownloadedFile {
  blob: Blob;
  /** From `Content-Disposition`, else the caller's fallback name. */
  fileName: string;
}

/**
 * The file name of a `Content-Disposition` header value, or undefined.
 * `attachment; filename="a b.zip"; filename*=UTF-8''a%20b.zip` → 'a b.zip'.
 */
export function fileNameFromDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed escape: fall back to the plain parameter below.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(header);
  if (quoted?.[1]) return quoted[1].replace(/\\(.)/g, '$1');
  const bare = /filename\s*=\s*([^;\s]+)/.exec(header);
  return bare?.[1];
}

/** Offers `file` to the browser as a download under its file name. */
export function saveBlob(file: DownloadedFile): void {
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before releasing the URL.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
