import { acquireLock, LockedError } from '../../infra/pid-lock.js';
import { Sqlite } from '../../infra/sqlite.js';
import { MIGRATIONS } from './migrations.js';

/** The sandbox's database: the shared SQLite wrapper, migrated on open, durable off the request thread (SqliteOptions). */
export class Database extends Sqlite {
  /** True when opening migrated a database that already had a schema. */
  readonly upgraded: boolean;

  constructor(file: string) {
    try {
      super(file, { syncOffThread: true });
    } catch (error) {
      if ((error as { errcode?: number }).errcode === SQLITE_NOTADB) {
        throw new DatabaseUnusableError(`The file ${file} is not a SQLite database (or it is damaged): start with another --db or --memory.`);
      }
      throw error;
    }
    const version = this.get<{ user_version: number }>('PRAGMA user_version')!.user_version;
    // Its schema is not this code's: written with it, the newer pay would find it damaged.
    if (version > MIGRATIONS.length) {
      this.close();
      throw new DatabaseUnusableError(
        `The database ${file} was written by a newer version of pay (schema ${version}; this version knows up to ${MIGRATIONS.length}): upgrade pay to use it, or start with another --db or --memory.`,
      );
    }
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

/** SQLite's result code for a file that is not a database. */
const SQLITE_NOTADB = 26;

/** A database file this sandbox cannot use as it is (not SQLite, or of a newer pay): the user's to choose another (exit 2). */
export class DatabaseUnusableError extends Error {
  override name = 'DatabaseUnusableError';
}

/**
 * Another sandbox has the database file open (exit 5, as any held lock): two would each
 * keep their own cache, clocks and idempotency records in flight over the same accounts.
 */
export class DatabaseInUseError extends LockedError {
  override name = 'DatabaseInUseError';

  constructor(locked: LockedError, file: string) {
    super(locked.path, locked.pid);
    this.message = `The database ${file} is in use by another sandbox (pid ${locked.pid}): stop it (pay sandbox stop, with its config dir), or start this one with another --db or --memory.`;
  }
}

/** Claims a database file for this process until the release it resolves to: one sandbox a file. */
export function claimDatabaseFile(file: string): Promise<() => Promise<void>> {
  return acquireLock(`${file}.lock`, (locked) => new DatabaseInUseError(locked, file));
}
