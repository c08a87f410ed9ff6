/** A URL as it may be logged: a password in it (mqtt://user:secret@host) is masked. */
export function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    if (!u.password) return url;
    u.password = "***";
    return u.toString();
  } catch {
    return url;
  }
}
