/** What Server Administration says after locking or unlocking an account (issue 34). */
export function lockNotice(username: string, locked: boolean): string {
  return locked ? `${username} is locked and signed out everywhere.` : `${username} is unlocked.`;
}
