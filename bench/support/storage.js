// What a sandbox's database file holds, read by the bench after the sandbox stopped (its
// clean close checkpoints the WAL into the file).
import { existsSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';

/** Bytes on disk: the database file plus whatever WAL is left. */
export function bytesOnDisk(file) {
  const size = (path) => (existsSync(path) ? statSync(path).size : 0);
  return size(file) + size(`${file}-wal`);
}

/**
 * Bytes of each table's pages, its indexes included, from sqlite's dbstat virtual table
 * (compiled into node:sqlite), the file opened read-only.
 */
export function bytesByTable(file) {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = db
      .prepare(
        `SELECT coalesce(s.tbl_name, d.name) AS name, sum(d.pgsize) AS bytes
         FROM dbstat AS d LEFT JOIN sqlite_schema AS s ON s.name = d.name
         GROUP BY 1`,
      )
      .all();
    return new Map(rows.map((r) => [r.name, Number(r.bytes)]));
  } finally {
    db.close();
  }
}
