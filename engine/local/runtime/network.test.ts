import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputGate, RecordWriter, StreamEvent, type Channel, type NetworkConfig } from './network.ts';

// A sender's pool is channels × buffers-per-channel + floating (3 here), max-buffers-per-channel is 3 too.
const config: NetworkConfig = { segmentSize: 100, buffersPerChannel: 2, floatingBuffersPerGate: 1, maxBuffersPerChannel: 3, bufferTimeoutMs: 100 };

function counters() {
  return {
    writer: { numRecordsOut: { count: 0 }, numBytesOut: { count: 0 }, numBuffersOut: { count: 0 } },
    gate: { numBytesInLocal: { count: 0 }, numBytesInRemote: { count: 0 }, numBuffersInLocal: { count: 0 }, numBuffersInRemote: { count: 0 } },
  };
}

/** One sender subtask → one receiver subtask over a forward edge; records are numbers of 10 bytes each. */
function pipe(local: boolean) {
  const c = counters();
  const owner = { outputBlockers: 0 };
  const writer = new RecordWriter(config, 'FORWARD', owner, c.writer, () => 10, undefined, 128, 0);
  const gate = new InputGate(config, c.gate);
  writer.channels.push(gate.addChannel(writer, local));
  writer.seal();
  const consumeBuffer = (): unknown[] | undefined => {
    const channel = gate.peek();
    if (!channel) return undefined;
    const buffer = channel.receiverQueue[0];
    buffer.readPos = buffer.values.length;
    gate.release(channel);
    return buffer.values;
  };
  return { owner, writer, gate, channel: writer.channels[0] as Channel, consumeBuffer, counters: c };
}

describe('credit-based flow control', () => {
  it('sends a full buffer at once while the receiver has credit, and flushes a partial one on the timeout', () => {
    const p = pipe(false);
    for (let i = 0; i < 10; i++) p.writer.emit(i, 0); // 10 × 10 bytes = one full buffer
    expect(p.channel.receiverQueue).toHaveLength(1);
    p.writer.emit(10, 0);
    expect(p.channel.receiverQueue).toHaveLength(1);
    p.writer.flushAll();
    expect(p.channel.receiverQueue).toHaveLength(2);
    expect(p.counters.gate.numBytesInRemote.count).toBe(110);
  });

  it('a receiver that does not read lets at most exclusive + floating buffers in; the sender blocks at max-buffers-per-channel', () => {
    const p = pipe(false);
    let written = 0;
    while (p.owner.outputBlockers === 0 && written < 10_000) p.writer.emit(written++, 0);
    expect(p.channel.receiverQueue).toHaveLength(3); // 2 exclusive + 1 floating
    expect(p.channel.senderQueue).toHaveLength(2);
    expect(p.channel.held()).toBe(3); // queued + the one being filled: max-buffers-per-channel
    expect(written).toBe(51); // 5 full buffers of 10 records, and the first record of the next
    expect(p.writer.isAvailable).toBe(false);
    // Reading one buffer returns a credit: a queued buffer crosses and the sender is available again.
    p.consumeBuffer();
    expect(p.owner.outputBlockers).toBe(0);
    expect(p.channel.receiverQueue).toHaveLength(3);
  });

  it('flush keeps filling the open buffer while there is no credit (as Flink keeps writing the same buffer)', () => {
    const p = pipe(false);
    for (let i = 0; i < 30; i++) p.writer.emit(i, 0); // 3 buffers: 2 exclusive + 1 floating, all credit used
    p.writer.emit(30, 0);
    p.writer.flushAll();
    expect(p.channel.open?.values).toEqual([30]);
    p.consumeBuffer();
    p.writer.flushAll();
    expect(p.channel.open).toBeNull();
  });

  it('a local channel needs no credit, but its buffers stay the sender’s until read', () => {
    const p = pipe(true);
    let written = 0;
    while (p.owner.outputBlockers === 0 && written < 10_000) p.writer.emit(written++, 0);
    expect(p.channel.receiverQueue).toHaveLength(2);
    expect(p.channel.held()).toBe(3);
    expect(written).toBe(21);
    p.consumeBuffer();
    expect(p.owner.outputBlockers).toBe(0);
  });

  it('delivers every record exactly once and in order, whatever the interleaving of writes, flushes and reads', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('write', 'write', 'write', 'flush', 'read'), { maxLength: 400 }), fc.boolean(), (ops, local) => {
        const p = pipe(local);
        const received: unknown[] = [];
        let next = 0;
        for (const op of ops) {
          if (op === 'write' && p.owner.outputBlockers === 0) p.writer.emit(next++, 0);
          else if (op === 'flush') p.writer.flushAll();
          else if (op === 'read') received.push(...(p.consumeBuffer() ?? []));
        }
        p.writer.broadcastEnd();
        for (let b = p.consumeBuffer(); b; b = p.consumeBuffer()) received.push(...b);
        const records = received.filter((v) => !(v instanceof StreamEvent));
        return records.length === next && records.every((v, i) => v === i) && received[received.length - 1] instanceof StreamEvent;
      }),
    );
  });
});

describe('checkpoint barriers and alignment', () => {
  /** Two senders into one gate. */
  function twoInputs() {
    const c = counters();
    const gate = new InputGate(config, c.gate);
    const writers = [0, 1].map((i) => {
      const writer = new RecordWriter(config, 'FORWARD', { outputBlockers: 0 }, counters().writer, () => 10, undefined, 128, i);
      writer.channels.push(gate.addChannel(writer, false));
      writer.seal();
      return writer;
    });
    const read = (): Array<{ channel: number; values: unknown[] }> => {
      const out: Array<{ channel: number; values: unknown[] }> = [];
      for (;;) {
        const channel = gate.peek();
        if (!channel) return out;
        const buffer = channel.receiverQueue[0];
        buffer.readPos = buffer.values.length;
        const values = buffer.values.map((v) => (v instanceof StreamEvent ? `barrier ${v.value}` : v));
        out.push({ channel: channel.indexInGate, values });
        // What a task does on a barrier: block the channel (it stays queued until every input delivered one).
        if (values.at(-1) === 'barrier 7') gate.block(channel);
        gate.release(channel);
      }
    };
    return { gate, writers, read };
  }

  it('a barrier goes out in-band right after the records written before it, in a buffer of its own end', () => {
    const { writers, read } = twoInputs();
    writers[0].emit(1, 0);
    writers[0].emit(2, 0);
    writers[0].broadcastBarrier(7);
    expect(read()).toEqual([{ channel: 0, values: [1, 2, 'barrier 7'] }]);
  });

  it('a blocked channel is not read (its buffers keep their credits) until the alignment ends', () => {
    const { gate, writers, read } = twoInputs();
    writers[0].broadcastBarrier(7);
    writers[0].emit(3, 0);
    writers[0].flushAll();
    writers[1].emit(10, 0);
    writers[1].flushAll();
    expect(read()).toEqual([
      { channel: 0, values: ['barrier 7'] },
      { channel: 1, values: [10] },
    ]);
    // Record 3 came after the barrier on channel 0: it waits.
    expect(gate.channels[0].receiverQueue).toHaveLength(1);
    expect(gate.blockedChannels).toBe(1);
    writers[1].emit(11, 0);
    writers[1].flushAll();
    expect(read()).toEqual([{ channel: 1, values: [11] }]);
    gate.unblockAll();
    expect(gate.blockedChannels).toBe(0);
    expect(read()).toEqual([{ channel: 0, values: [3] }]);
    expect(gate.consumedBytes).toBe(29 + 10 + 10 + 10);
  });
});
