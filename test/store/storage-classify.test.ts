import { describe, expect, it } from 'vitest';
import { classifyStorageError } from '../../src/store/storage-health.js';

/**
 * Which SQLite answers count as a storage fault (503 storage_unavailable). SQLITE_FULL, SQLITE_READONLY and
 * SQLITE_BUSY are provoked for real in test/ops/storage-faults.test.ts; an I/O error cannot be provoked on
 * demand without a faulty device, so its extended codes are checked here.
 */
describe('classifyStorageError', () => {
  it.each([
    ['SQLITE_FULL', 'disk_full'],
    ['SQLITE_IOERR', 'io_error'],
    ['SQLITE_IOERR_WRITE', 'io_error'],
    ['SQLITE_IOERR_FSYNC', 'io_error'],
    ['SQLITE_IOERR_SHORT_READ', 'io_error'],
    ['SQLITE_READONLY', 'read_only'],
    ['SQLITE_READONLY_DBMOVED', 'read_only'],
    ['SQLITE_BUSY', 'busy'],
    ['SQLITE_BUSY_SNAPSHOT', 'busy'],
    ['SQLITE_CONSTRAINT_CHECK', null],
    ['SQLITE_CONSTRAINT_UNIQUE', null],
    ['SQLITE_ERROR', null],
    ['ENOSPC', null],
  ])('%s → %s', (code, fault) => {
    expect(classifyStorageError(Object.assign(new Error('x'), { code }))).toBe(fault);
  });

  it.each([[null], [undefined], ['SQLITE_FULL'], [{ code: 5 }], [new Error('no code')]])('%j is not a storage fault', (e) => {
    expect(classifyStorageError(e)).toBeNull();
  });
});
