/** `listen` cannot run as asked (another listener holds the profile, no saved profile): the user's to fix (exit 2). */
export class ListenError extends Error {
  override name = 'ListenError';
}
