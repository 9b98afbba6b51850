// The part of madge's API (no published types) that import-closure.test.ts uses.
declare module 'madge' {
  interface MadgeConfig {
    baseDir?: string;
    tsConfig?: string;
    fileExtensions?: string[];
    detectiveOptions?: Record<string, Record<string, unknown>>;
  }
  interface MadgeResult {
    /** Each file reached, with the files it imports. */
    obj(): Record<string, string[]>;
  }
  export default function madge(path: string, config?: MadgeConfig): Promise<MadgeResult>;
}
