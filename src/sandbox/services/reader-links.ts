import type { ReaderAction } from '../../domain/reader-protocol.js';

/**
 * Live terminal reader connections: the seam between the services and the reader
 * WebSocket hub. The hub registers a link when a reader connects; services ask whether a
 * reader is online (its status) and push actions to it once their transaction commits.
 */
export interface ReaderLink {
  send(action: ReaderAction): void;
  /** Ends the connection, which is no longer that reader's; the reader should connect again. */
  drop(reason: string): void;
}

export class ReaderConnections {
  private readonly links = new Map<string, ReaderLink>();

  private static key(account: string, readerId: string): string {
    return `${account}/${readerId}`;
  }

  /** Marks the reader online until the returned function is called; a newer link replaces an older one. */
  connect(account: string, readerId: string, link: ReaderLink): () => void {
    const key = ReaderConnections.key(account, readerId);
    this.links.set(key, link);
    return () => {
      if (this.links.get(key) === link) this.links.delete(key);
    };
  }

  isOnline(account: string, readerId: string): boolean {
    return this.links.has(ReaderConnections.key(account, readerId));
  }

  /** Drops every connected reader of the account (it was reset: its readers are gone). */
  dropAccount(account: string, reason: string): void {
    for (const [key, link] of this.links) {
      if (!key.startsWith(`${account}/`)) continue;
      this.links.delete(key);
      link.drop(reason);
    }
  }

  /** Sends an action to a connected reader; false when it is offline. */
  push(account: string, readerId: string, action: ReaderAction): boolean {
    const link = this.links.get(ReaderConnections.key(account, readerId));
    if (!link) return false;
    link.send(action);
    return true;
  }
}
