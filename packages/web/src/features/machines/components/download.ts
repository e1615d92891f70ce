/**
 * Saving text as a file from the browser (spec 2 §2.3 Credential, §9 downloaded
 * files `id_rsa` and `config.json`): a Blob behind a temporary object URL and a
 * link with the `download` attribute. Throws when the browser refuses (the
 * caller shows its error toast).
 */
export function downloadText(fileName: string, text: string, type = 'text/plain'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.style.display = 'none';
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    // Revoked after the click has been handled: the download has its own copy by then.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
