import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSecretBox, KEY_FILE, resolveEncryptionKey } from "../../src/lib/crypto.js";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), "lw-key-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("secret box (AES-256-GCM)", () => {
  const box = createSecretBox(randomBytes(32));

  it("round-trips and never stores the plain text", () => {
    const stored = box.encrypt("https://x.logic.azure.com/secret-sig", "teams");
    expect(stored).toMatch(/^v1:/);
    expect(stored).not.toContain("secret-sig");
    expect(box.decrypt(stored, "teams")).toBe("https://x.logic.azure.com/secret-sig");
    // a fresh IV each time
    expect(box.encrypt("same", "teams")).not.toBe(box.encrypt("same", "teams"));
  });

  it("refuses another key, another purpose and tampering", () => {
    const stored = box.encrypt("s3cret", "etq");
    expect(() => createSecretBox(randomBytes(32)).decrypt(stored, "etq")).toThrow();
    expect(() => box.decrypt(stored, "teams")).toThrow();
    const raw = Buffer.from(stored.slice(3), "base64");
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    expect(() => box.decrypt(`v1:${raw.toString("base64")}`, "etq")).toThrow();
  });
});

describe("encryption key", () => {
  it("uses ENCRYPTION_KEY and checks its length", () => {
    const key = randomBytes(32);
    const r = resolveEncryptionKey({
      encryptionKey: key.toString("base64"),
      databaseUrl: "postgres://x",
      dataDir: "/nonexistent",
    });
    expect(r.key.equals(key)).toBe(true);
    expect(() =>
      resolveEncryptionKey({
        encryptionKey: randomBytes(16).toString("base64"),
        databaseUrl: undefined,
        dataDir: "/x",
      }),
    ).toThrow("32 bytes");
  });

  it("refuses to start with DATABASE_URL and no ENCRYPTION_KEY", () => {
    expect(() =>
      resolveEncryptionKey({ encryptionKey: undefined, databaseUrl: "postgres://db/x", dataDir: tempDir() }),
    ).toThrow("ENCRYPTION_KEY is required with DATABASE_URL");
  });

  it("on the embedded database, generates a key file once (0600) and reuses it", () => {
    const dataDir = tempDir();
    const first = resolveEncryptionKey({ encryptionKey: undefined, databaseUrl: undefined, dataDir });
    expect(first.source).toBe("generated");
    const file = path.join(dataDir, KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = resolveEncryptionKey({ encryptionKey: undefined, databaseUrl: undefined, dataDir });
    expect(second.source).toBe("file");
    expect(second.key.equals(first.key)).toBe(true);
    expect(Buffer.from(readFileSync(file, "utf8").trim(), "base64").equals(first.key)).toBe(true);
  });
});
