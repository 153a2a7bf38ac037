import { describe, expect, it } from 'vitest';
import { decodeVertexSample, encodeVertexSample } from './sample-codec.ts';
import { syntheticSample } from './testing/sample-fixtures.ts';

const vertex = syntheticSample({ t: 1_764_500_000_000, vertices: 1, parallelism: 37 }).vertices[0];

describe('the vertex sample codec', () => {
  it('gives back the vertex it encoded, copied or not', () => {
    const bytes = encodeVertexSample(vertex);
    expect(decodeVertexSample(bytes)).toEqual(vertex);
    expect(decodeVertexSample(bytes, { owned: true })).toEqual(vertex);
  });

  it('owned and aligned: the columns are views on the bytes (no copy), so they are the caller\'s to keep', () => {
    const bytes = encodeVertexSample(vertex);
    const decoded = decodeVertexSample(bytes, { owned: true });
    expect(decoded.subtasks!.counters.recordsIn.buffer).toBe(bytes.buffer);
    expect(decodeVertexSample(bytes).subtasks!.counters.recordsIn.buffer).not.toBe(bytes.buffer);
  });

  it('owned but not 8-byte aligned (bytes at an odd offset): copied, and still right', () => {
    const encoded = encodeVertexSample(vertex);
    const shifted = new Uint8Array(encoded.length + 3);
    shifted.set(encoded, 3);
    const bytes = shifted.subarray(3);
    const decoded = decodeVertexSample(bytes, { owned: true });
    expect(decoded).toEqual(vertex);
    expect(decoded.subtasks!.counters.recordsIn.buffer).not.toBe(shifted.buffer);
  });
});
