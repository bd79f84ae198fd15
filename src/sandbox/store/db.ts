import { Sqlite } from '../../infra/sqlite.js';
import { MIGRATIONS } from './migrations.js';

/** The sandbox's database: the shared SQLite wrapper, migrated on open, durable off the request thread (SqliteOptions). */
export class Database extends Sqlite {
  /** True when opening migrated a database that already had a schema. */
  readonly upgraded: boolean;

  constructor(file: string) {
    super(file, { syncOffThread: true });
    const version = this.get<{ user_version: number }>('PRAGMA user_version')!.user_version;
    this.upgraded = version > 0 && version < MIGRATIONS.length;
    for (let i = version; i < MIGRATIONS.length; i++) {
      this.transaction(() => {
        this.exec(MIGRATIONS[i]!);
        this.exec(`PRAGMA user_version = ${i + 1}`);
      });
    }
  }

  /** Rewrites the file and empties the WAL, so deleted values leave no trace in free pages. */
  compact(): void {
    this.exec('VACUUM');
    if (this.file !== ':memory:') this.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }
}
