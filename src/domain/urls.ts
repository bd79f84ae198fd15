/*
 * The rule of a URL the service or the CLI keeps and shows (a profile's base URL, a
 * webhook endpoint's, listen's targets): http(s), with no user or password in it, as
 * those would be shown wherever the URL is (lists, errors, logs). Plain code, not zod:
 * every command checks its profile's base URL with it.
 */

export const isHttpUrlWithoutCredentials = (value: string) => {
  const url = URL.parse(value);
  return url !== null && /^https?:$/.test(url.protocol) && url.username === '' && url.password === '';
};

/** The rule in words, with an example of a URL where this one is used. */
export const httpUrlRule = (example: string) => `must be an http(s) URL without a user or password in it, e.g. ${example}`;
