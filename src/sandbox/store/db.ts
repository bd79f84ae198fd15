import { closeSync, openSync, realpathSync } from 'node:fs';
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

/**
 * The database file itself, whichever path names it (through symbolic links), made empty
 * if there is none yet: SQLite keeps its -wal and -shm beside the file a link points to,
 * and the claim, the key file and the WAL's fsync must be that file's too, or a sandbox
 * started on a link fails opening a WAL beside the link, and is not seen as in use.
 */
export function realDatabaseFile(file: string): string {
  // Made first, so that a link to a file not made yet names where it will be.
  closeSync(openSync(file, 'a', 0o600));
  return realpathSync(file);
}

/** Claims a database file (its real path) for this process until the release it resolves to: one sandbox a file. */
export function claimDatabaseFile(file: string): Promise<() => Promise<void>> {
  return acquireLock(`${file}.lock`, (locked) => new DatabaseInUseError(locked, file));
}
