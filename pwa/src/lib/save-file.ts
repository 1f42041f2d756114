/** Hands a file to the browser's downloads: a temporary <a download> on an object URL. */
export function saveFile(file: Blob, fileName: string) {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers start reading the file only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
