import { freePorts, portRange } from './free-port.ts';

describe('freePorts', () => {
  it('never hands out a port twice, so ports picked before their processes bind stay distinct', async () => {
    // 500 ports from a slice of 3,000: picked at random alone, some would surely repeat.
    const ports: number[] = [];
    for (let batch = 0; batch < 50; batch++) ports.push(...(await freePorts(10)));
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('gives each jest worker its own slice of the range', () => {
    const slices = ['1', '2', '3', '4'].map((worker) => portRange(worker));
    for (const [index, slice] of slices.entries()) {
      for (const other of slices.slice(index + 1)) expect(slice.last <= other.first || other.last <= slice.first).toBe(true);
    }
    expect(portRange('')).toEqual({ first: 20_000, last: 32_000 });
  });

  it('picks within its slice', async () => {
    const { first, last } = portRange();
    for (const port of await freePorts(20)) {
      expect(port).toBeGreaterThanOrEqual(first);
      expect(port).toBeLessThan(last);
    }
  });
});
