import { createHash, randomBytes } from "node:crypto";

/** A random URL-safe token (256 bits). */
export const newToken = () => randomBytes(32).toString("base64url");
/** Tokens are stored only as SHA-256 hashes, so a database leak does not leak sessions or links. */
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
