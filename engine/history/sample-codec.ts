import {
  COUNTER_COLUMNS,
  RATE_COLUMNS,
  type CounterColumn,
  type RateColumn,
  type SubtaskColumns,
  type VertexSample,
} from './job-sample.ts';

/**
 * The on-disk form of one vertex in one sample: a small JSON header, then the columns' raw bytes in a fixed order.
 * Hand-written because generic encoders (msgpack) neither keep typed arrays nor copy them out of a reused buffer;
 * raw columns also decode without parsing a number at a time.
 *
 *   u32 header length | header (UTF-8 JSON) | padding to 8 | f64 columns | f32 columns | i32 columns | u8 column
 */
const F64_COLUMNS = [...COUNTER_COLUMNS, 'countersSince', 'watermark', 'checkpointedBytes'] as const;
const F32_COLUMNS = RATE_COLUMNS;
const I32_COLUMNS = ['attempt', 'taskManager'] as const;

type Header = Omit<VertexSample, 'subtasks'> & { hasSubtasks: boolean };

function align8(n: number): number {
  return (n + 7) & ~7;
}

export function encodeVertexSample(vertex: VertexSample): Buffer {
  const { subtasks, ...rest } = vertex;
  const header = Buffer.from(JSON.stringify({ ...rest, hasSubtasks: subtasks !== null } satisfies Header), 'utf8');
  const n = subtasks ? vertex.parallelism : 0;
  const start = align8(4 + header.length);
  const size = start + n * (8 * F64_COLUMNS.length + 4 * F32_COLUMNS.length + 4 * I32_COLUMNS.length + 1);
  const out = Buffer.alloc(size);
  out.writeUInt32LE(header.length, 0);
  header.copy(out, 4);
  if (!subtasks) return out;
  let at = start;
  const put = (array: ArrayBufferView) => {
    out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    at += array.byteLength;
  };
  for (const c of F64_COLUMNS) put(f64Of(subtasks, c));
  for (const c of F32_COLUMNS) put(subtasks.rates[c]);
  for (const c of I32_COLUMNS) put(subtasks[c]);
  put(subtasks.state);
  return out;
}

/**
 * `owned`: the bytes are the caller's to keep, as lmdb's `get` and `getRange` return them from a binary store (copies,
 * never its reused buffer). The columns are then views on them where they are 8-byte aligned: reading a 15-minute
 * window of a 200 × 1,024 job copies 2 GiB less. Otherwise they are copied once, into one buffer per vertex.
 */
export function decodeVertexSample(bytes: Uint8Array, { owned = false }: { owned?: boolean } = {}): VertexSample {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.readUInt32LE(0);
  const { hasSubtasks, ...header } = JSON.parse(view.toString('utf8', 4, 4 + headerLength)) as Header;
  if (!hasSubtasks) return { ...header, subtasks: null };
  const n = header.parallelism;
  const start = align8(4 + headerLength);
  const length = n * (8 * F64_COLUMNS.length + 4 * F32_COLUMNS.length + 4 * I32_COLUMNS.length + 1);
  let data: ArrayBufferLike;
  let at: number;
  if (owned && (bytes.byteOffset + start) % 8 === 0) {
    data = bytes.buffer;
    at = bytes.byteOffset + start;
  } else {
    const copy = new ArrayBuffer(length);
    new Uint8Array(copy).set(view.subarray(start, start + length));
    data = copy;
    at = 0;
  }
  const take = <T>(bytesPer: number, make: (buffer: ArrayBufferLike, offset: number) => T): T => {
    const column = make(data, at);
    at += n * bytesPer;
    return column;
  };
  const f64 = Object.fromEntries(F64_COLUMNS.map((c) => [c, take(8, (b, o) => new Float64Array(b, o, n))])) as Record<(typeof F64_COLUMNS)[number], Float64Array>;
  const rates = Object.fromEntries(F32_COLUMNS.map((c) => [c, take(4, (b, o) => new Float32Array(b, o, n))])) as Record<RateColumn, Float32Array>;
  const attempt = take(4, (b, o) => new Int32Array(b, o, n));
  const taskManager = take(4, (b, o) => new Int32Array(b, o, n));
  const state = take(1, (b, o) => new Uint8Array(b, o, n));
  const counters = Object.fromEntries(COUNTER_COLUMNS.map((c) => [c, f64[c]])) as Record<CounterColumn, Float64Array>;
  return {
    ...header,
    subtasks: { counters, countersSince: f64.countersSince, rates, watermark: f64.watermark, checkpointedBytes: f64.checkpointedBytes, attempt, taskManager, state },
  };
}

function f64Of(subtasks: SubtaskColumns, column: (typeof F64_COLUMNS)[number]): Float64Array {
  if (column === 'countersSince' || column === 'watermark' || column === 'checkpointedBytes') return subtasks[column];
  return subtasks.counters[column];
}
