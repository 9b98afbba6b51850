export function planShards(
  files: string[],
  durations: Record<string, number>,
  runs: number,
): string[][];
export function specFiles(root: string): string[];
export function durationsOf(reports: unknown[]): Record<string, number>;
export function unitDurationsOf(
  report: { testResults?: { name: string; startTime: number; endTime: number }[] },
  root: string,
): Record<string, number>;
export function readDurations(root: string): {
  unit: Record<string, number>;
  browser: Record<string, number>;
};
export const DURATIONS_FILE: string;
