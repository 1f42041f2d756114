/** A failure as readable text: the provider's or the server's own message (e.g. 'Firebase: Error (auth/invalid-credential).'). */
export function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return typeof error === 'string' && error ? error : 'Something went wrong, please try again';
}
