/**
 * Test preload (`node --import tsx --import ./shift-wall-clock.ts …`): moves this process's wall clock by
 * `FLINK_OPS_TEST_WALL_CLOCK_SHIFT_MS`, to show that a run with `--start-time` does not depend on it.
 */
const shift = Number(process.env.FLINK_OPS_TEST_WALL_CLOCK_SHIFT_MS ?? 0);
if (!Number.isFinite(shift)) throw new Error('FLINK_OPS_TEST_WALL_CLOCK_SHIFT_MS must be a number of ms.');
const wallClock = Date.now.bind(Date);
Date.now = () => wallClock() + shift;
