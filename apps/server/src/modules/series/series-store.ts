/** The series store lives in the kernel (`kernel/series-store.ts`); this path stays for older imports. */
export * from '../../kernel/series-store';
