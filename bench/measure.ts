/** Runs `fn` repeatedly for about `ms` milliseconds; returns operations per second. */
export async function opsPerSecond(
  fn: () => unknown | Promise<unknown>,
  ms = 1000,
): Promise<number> {
  for (let i = 0; i < 20; i++) await fn(); // warm-up
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    await fn();
    ops++;
    now = performance.now();
  }
  return (ops * 1000) / (now - start);
}

export function fmt(n: number, digits = 1): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits });
}
