import type { Factory } from '../../factory.js';

/** Opens a URL in the person's browser; says so (and prints the URL) when it cannot. */
export async function openInBrowser(url: string, f: Factory): Promise<void> {
  const { spawn } = await import('node:child_process');
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  const opened = await new Promise<boolean>((resolve) => {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
  if (opened) f.io.info(`Opened ${url} in your browser.`);
  else f.io.warn(`Could not open a browser; open this URL yourself: ${url}`);
}
