import type { Database } from './db.js';

/** Per listener, the log position up to which its client acknowledged events. */
export class ListenCursors {
  constructor(private readonly db: Database) {}

  get(account: string, listener: string): number | undefined {
    return this.db.get<{ last_seq: number }>('SELECT last_seq FROM listen_cursors WHERE account = ? AND listener = ?', account, listener)?.last_seq;
  }

  /** Moves the cursor forward only: a late or resent acknowledgement never rewinds it. */
  advance(account: string, listener: string, seq: number): void {
    this.db.run(
      `INSERT INTO listen_cursors (account, listener, last_seq, updated) VALUES (?, ?, ?, ?)
       ON CONFLICT (account, listener) DO UPDATE SET last_seq = max(last_seq, excluded.last_seq), updated = excluded.updated`,
      account, listener, seq, new Date().toISOString(),
    );
  }

  clear(account: string): void {
    this.db.run('DELETE FROM listen_cursors WHERE account = ?', account);
  }
}
