import { PathError } from './errors.js';
import { redactTypedUrl } from '../config/mask.js';

/** How a path is shown in an error: a password or key in it masked, escaped (control characters visible) and short. */
function shown(path: string): string {
  const masked = redactTypedUrl(path);
  return JSON.stringify(masked.length > 80 ? `${masked.slice(0, 80)}…` : masked);
}

/**
 * Why `path` cannot be a path under a base URL, whatever the base: each of these makes a
 * URL parser (or a shell variable left empty) send the request to another host.
 */
function pathProblem(path: string): string | undefined {
  // WHATWG parsers drop tabs and newlines silently: "/\t/host" would become "//host".
  if (/[\u0000-\u0020\u007f-\u009f]/.test(path)) return 'it contains a control character or a space';
  if (path.includes('\\')) return 'it contains a backslash, which URL parsers read as /';
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return 'it is an absolute URL';
  if (path.startsWith('//')) return 'it starts with //, which names another host';
  return undefined;
}

/** Throws a PathError when `path` is not a path under any base URL (before a profile is even read). */
export function checkPath(path: string): void {
  const problem = pathProblem(path);
  if (problem) throw new PathError(`Invalid path ${shown(path)}: ${problem}. A path is always under the profile's base URL, e.g. /v1/customers.`);
}

/**
 * The URL of `path` on the service at `baseUrl`: always the base URL's origin, always
 * under its path (DESIGN section 8). Anything else is a PathError, raised before any
 * request, so the profile's key goes nowhere else. `websocket` gives the ws(s): URL.
 */
export function serviceUrl(baseUrl: string, path: string, options: { websocket?: boolean } = {}): URL {
  checkPath(path);
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/?$/, '/');
  // Built by concatenation, never resolved against the base: the path cannot replace the host.
  const url = new URL(`${base.origin}${basePath}${path.replace(/^\//, '')}`);
  // Dot segments (also %2e%2e) are resolved by the parser: they must not climb out of the base path.
  if (url.origin !== base.origin || !`${url.pathname}/`.startsWith(basePath)) {
    throw new PathError(`Invalid path ${shown(path)}: it leaves the base URL's path ${basePath}. A path is always under the profile's base URL, e.g. /v1/customers.`);
  }
  if (options.websocket) url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url;
}
