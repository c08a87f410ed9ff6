/**
 * The sessions an API process resolved, kept in memory so an ordinary request costs no session
 * query. It is only used while the process hears the database's `linewatch_auth` notifications
 * (migration 0011: a trigger on users, user_roles and sessions names the user whose sign-in state
 * changed, in whatever process or tool the change was made); until then, and whenever the
 * listening connection is lost, it holds nothing and every request reads its session.
 *
 * Changes made by this process drop their entries at once (`dropUser`, `dropSession`), before the
 * request that made them answers; other processes' changes arrive with the notification, when
 * their transaction commits. An entry also expires after `ttlMs` whatever happens.
 *
 * A read that raced a change must not put the old row back: `generation` moves on every drop,
 * and `put` keeps a row only when no drop happened since the read began.
 */
export type SessionCache<Row extends { userId: string }> = ReturnType<typeof createSessionCache<Row>>;

export const SESSION_CACHE_TTL_MS = 60_000;
export const SESSION_CACHE_MAX_ENTRIES = 10_000;

export function createSessionCache<Row extends { userId: string }>(opts: {
  now: () => number;
  ttlMs?: number;
  maxEntries?: number;
}) {
  const ttlMs = opts.ttlMs ?? SESSION_CACHE_TTL_MS;
  const maxEntries = opts.maxEntries ?? SESSION_CACHE_MAX_ENTRIES;
  const entries = new Map<string, { row: Row; at: number }>();
  const byUser = new Map<string, Set<string>>();
  let live = false;
  let generation = 0;

  const forget = (tokenHash: string) => {
    const entry = entries.get(tokenHash);
    if (!entry) return;
    entries.delete(tokenHash);
    const hashes = byUser.get(entry.row.userId);
    hashes?.delete(tokenHash);
    if (hashes?.size === 0) byUser.delete(entry.row.userId);
  };
  const clear = () => {
    entries.clear();
    byUser.clear();
    generation++;
  };

  return {
    /** Whether entries are kept: the process hears the invalidation channel. */
    get live() {
      return live;
    },
    setLive(value: boolean) {
      if (!value) clear();
      live = value;
    },
    /** Read before a session query; hand it to `put` with the row. */
    generation: () => generation,
    get(tokenHash: string): Row | undefined {
      if (!live) return undefined;
      const entry = entries.get(tokenHash);
      if (!entry) return undefined;
      if (opts.now() - entry.at > ttlMs || opts.now() < entry.at) {
        forget(tokenHash);
        return undefined;
      }
      return entry.row;
    },
    put(tokenHash: string, row: Row, readAtGeneration: number) {
      if (!live || readAtGeneration !== generation) return;
      forget(tokenHash);
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) forget(oldest);
      }
      entries.set(tokenHash, { row, at: opts.now() });
      const hashes = byUser.get(row.userId) ?? new Set<string>();
      hashes.add(tokenHash);
      byUser.set(row.userId, hashes);
    },
    /** Every session of this user: they changed, or their roles or one of their sessions did. */
    dropUser(userId: string) {
      generation++;
      for (const tokenHash of [...(byUser.get(userId) ?? [])]) forget(tokenHash);
    },
    dropSession(tokenHash: string) {
      generation++;
      forget(tokenHash);
    },
    size: () => entries.size,
  };
}
