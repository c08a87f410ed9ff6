// Encryption at rest for integration secrets (Teams webhook URLs, ETQ client secrets):
// AES-256-GCM with Node's crypto. Stored form: "v1:" + base64(iv 12 B | tag 16 B | ciphertext).
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_FILE = "encryption.key";

export type SecretBox = {
  /** `purpose` is bound as associated data: a ciphertext moved to another column does not decrypt. */
  encrypt(plain: string, purpose: string): string;
  decrypt(stored: string, purpose: string): string;
};

export function parseKey(base64: string, where: string): Buffer {
  const key = Buffer.from(base64.trim(), "base64");
  if (key.length !== 32) {
    throw new Error(
      `${where} must be 32 bytes in base64 (e.g. the output of \`openssl rand -base64 32\`), got ${key.length} bytes`,
    );
  }
  return key;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error("AES-256-GCM needs a 32-byte key");
  return {
    encrypt(plain, purpose) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(purpose, "utf8"));
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
    },
    decrypt(stored, purpose) {
      const [version, data] = stored.split(":", 2);
      if (version !== VERSION || !data) throw new Error("Unknown secret format");
      const raw = Buffer.from(data, "base64");
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error("Secret is truncated");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(purpose, "utf8"));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      // Throws on a wrong key or a tampered value (the GCM tag does not match).
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        "utf8",
      );
    },
  };
}

/**
 * The key: ENCRYPTION_KEY when set; otherwise, on the embedded database only, one generated once
 * into DATA_DIR/encryption.key (mode 0600) and reused. With DATABASE_URL several processes share
 * the database, so a key of one machine's disk would not do: the process refuses to start.
 */
export function resolveEncryptionKey(config: {
  encryptionKey: string | undefined;
  databaseUrl: string | undefined;
  dataDir: string;
}): { key: Buffer; source: "ENCRYPTION_KEY" | "file" | "generated" } {
  if (config.encryptionKey)
    return { key: parseKey(config.encryptionKey, "ENCRYPTION_KEY"), source: "ENCRYPTION_KEY" };
  if (config.databaseUrl) {
    throw new Error(
      "ENCRYPTION_KEY is required with DATABASE_URL: set it to 32 random bytes in base64 (`openssl rand -base64 32`), the same value in every process. It encrypts Teams webhook URLs and ETQ client secrets.",
    );
  }
  mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, KEY_FILE);
  try {
    // "wx": created only if absent, so two processes starting at once cannot both write a key.
    writeFileSync(file, `${randomBytes(32).toString("base64")}\n`, { flag: "wx", mode: 0o600 });
    return { key: parseKey(readFileSync(file, "utf8"), file), source: "generated" };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  return { key: parseKey(readFileSync(file, "utf8"), file), source: "file" };
}
