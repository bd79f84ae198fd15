import type { Factory } from '../../factory.js';

/** How long a browser command may run before it counts as opened (some stay until the browser closes). */
const STILL_RUNNING_MS = 5_000;

/**
 * Opens a URL in the person's browser ($BROWSER, else the platform's opener) and says
 * whether it did: a Linux machine with no display has none, and an opener that exits
 * non-zero opened nothing. The URL is printed either way.
 */
export async function openInBrowser(url: string, f: Factory): Promise<void> {
  const env = f.env;
  const browser = env.BROWSER?.trim();
  const noDisplay = process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY;
  if (!browser && noDisplay) return f.io.warn(`Could not open a browser (no display here); open this URL yourself: ${url}`);
  const [command, args] = browser
    ? [browser, [url]]
    : process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  const { spawn } = await import('node:child_process');
  const opened = await new Promise<boolean>((resolve) => {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true, env });
    setTimeout(() => resolve(true), STILL_RUNNING_MS).unref();
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
    child.unref();
  });
  if (opened) f.io.info(`Opened ${url} in your browser.`);
  else f.io.warn(`Could not open a browser (${command} failed); open this URL yourself: ${url}`);
}
