import { useEffect, useState } from 'react';

/** How often an age on screen ("3m ago") is brought up to date. */
export const AGE_TICK_MS = 30_000;

/**
 * The time now (epoch ms), asked again every `intervalMs` while the component
 * is shown: for ages that must keep moving between replies of the server.
 */
export function useNow(intervalMs: number = AGE_TICK_MS): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
