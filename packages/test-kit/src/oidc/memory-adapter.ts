import type { Adapter, AdapterFactory, AdapterPayload } from "oidc-provider";

interface Entry {
  payload: AdapterPayload;
  expiresAt: number;
}

/**
 * Storage for one provider instance. oidc-provider's own in-memory adapter is shared by every
 * instance in the process and prints a warning when used, so each test provider gets this one.
 */
export function createMemoryAdapter(): AdapterFactory {
  const entries = new Map<string, Entry>();
  const uidIndex = new Map<string, string>();
  const userCodeIndex = new Map<string, string>();

  const live = (key: string): AdapterPayload | undefined => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry.payload;
  };

  return (model: string): Adapter => {
    const key = (id: string) => `${model}:${id}`;
    return {
      async upsert(id, payload, expiresIn) {
        const expiresAt = typeof expiresIn === "number" ? Date.now() + expiresIn * 1000 : Infinity;
        entries.set(key(id), { payload, expiresAt });
        if (model === "Session" && payload.uid) uidIndex.set(payload.uid, id);
        if (payload.userCode) userCodeIndex.set(payload.userCode, id);
      },
      async find(id) {
        return live(key(id));
      },
      async findByUid(uid) {
        const id = uidIndex.get(uid);
        return id === undefined ? undefined : live(key(id));
      },
      async findByUserCode(userCode) {
        const id = userCodeIndex.get(userCode);
        return id === undefined ? undefined : live(key(id));
      },
      async consume(id) {
        const payload = live(key(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        entries.delete(key(id));
      },
      async revokeByGrantId(grantId) {
        for (const [storedKey, entry] of entries) {
          if (entry.payload.grantId === grantId) entries.delete(storedKey);
        }
      },
    };
  };
}
