import { describe, expect, it } from 'vitest';
import { rocksDbFiguresOf, rocksDbMetricIds } from './rocksdb-metrics.ts';

/**
 * The ids Flink 2.3.0's `GET /jobs/:id/vertices/:vid/subtasks/metrics` lists for the test job's `remember` operator
 * (e2e/flink/job StateGrowthJob: one ValueState `remembered`, the timer services' column families beside it) with
 * the four native metrics on: the JobManager turns the dots of `rocksdb.estimate-num-keys` into `_`.
 */
const REAL_2_3_IDS = [
  'numRecordsIn',
  'remember.remembered.rocksdb_estimate-num-keys',
  'remember._timer_state/event_user-timers.rocksdb_total-sst-files-size',
  'remember._timer_state/event_user-timers.rocksdb_block-cache-usage',
  'remember._timer_state/processing_user-timers.rocksdb_block-cache-usage',
  'remember.remembered.rocksdb_block-cache-usage',
  'remember._timer_state/event_user-timers.rocksdb_estimate-num-keys',
  'remember.remembered.rocksdb_total-sst-files-size',
  'remember._timer_state/event_user-timers.rocksdb_estimate-live-data-size',
  'remember._timer_state/processing_user-timers.rocksdb_estimate-live-data-size',
  'remember._timer_state/processing_user-timers.rocksdb_estimate-num-keys',
  'remember.remembered.rocksdb_estimate-live-data-size',
  'remember._timer_state/processing_user-timers.rocksdb_total-sst-files-size',
];

describe('RocksDB native metric ids', () => {
  it("finds each figure among the ids a real Flink lists, in every column family, and nothing else", () => {
    const ids = rocksDbMetricIds(REAL_2_3_IDS);
    expect([...ids.keys()].sort()).toEqual(['blockCacheUsage', 'estimateLiveDataSize', 'estimateNumKeys', 'totalSstFilesSize']);
    expect(ids.get('estimateNumKeys')!.sort()).toEqual([
      'remember._timer_state/event_user-timers.rocksdb_estimate-num-keys',
      'remember._timer_state/processing_user-timers.rocksdb_estimate-num-keys',
      'remember.remembered.rocksdb_estimate-num-keys',
    ]);
    for (const matching of ids.values()) expect(matching).toHaveLength(3);
  });

  it('also reads the dotted spelling (a store that keeps the property name as RocksDB gives it)', () => {
    const ids = rocksDbMetricIds(['failed-logins.attempts.rocksdb.estimate-num-keys', 'rocksdb.block-cache-usage']);
    expect(ids.get('estimateNumKeys')).toEqual(['failed-logins.attempts.rocksdb.estimate-num-keys']);
    expect(ids.get('blockCacheUsage')).toEqual(['rocksdb.block-cache-usage']);
  });

  it('finds none where the metrics are off (another state backend, or no option set)', () => {
    expect(rocksDbMetricIds(['numRecordsIn', 'busyTimeMsPerSecond', 'remember.remembered.someGauge', 'rocksdb_estimate-num-keys-extra']).size).toBe(0);
  });
});

describe('RocksDB figures of a vertex', () => {
  const ids = rocksDbMetricIds(REAL_2_3_IDS);
  it('adds keys, live data and SST files over the column families; takes the shared block cache once', () => {
    // Sums over the 2 subtasks as Flink 2.3.0 answered them: the timer services' column families hold nothing, and
    // every column family of a subtask reports its RocksDB instance's one block cache, the same figure three times.
    const sums = REAL_2_3_IDS.filter((id) => id.includes('.rocksdb_')).map((id) => {
      const timers = id.includes('_timer_state');
      if (id.endsWith('block-cache-usage')) return { id, sum: 2_683_536 };
      if (id.endsWith('estimate-num-keys')) return { id, sum: timers ? 0 : 14_849 };
      if (id.endsWith('estimate-live-data-size')) return { id, sum: timers ? 0 : 3_690_106 };
      return { id, sum: timers ? 0 : 4_025_099 };
    });
    expect(rocksDbFiguresOf(ids, sums)).toEqual({ estimateNumKeys: 14_849, estimateLiveDataSize: 3_690_106, totalSstFilesSize: 4_025_099, blockCacheUsage: 2_683_536 });
  });

  it('leaves a figure null when Flink answers no sum for it', () => {
    const figures = rocksDbFiguresOf(ids, [{ id: 'remember.remembered.rocksdb_estimate-num-keys', sum: 12 }, { id: 'remember.remembered.rocksdb_block-cache-usage' }]);
    expect(figures).toEqual({ estimateNumKeys: 12, estimateLiveDataSize: null, totalSstFilesSize: null, blockCacheUsage: null });
  });
});
