import { describe, expect, it } from "vitest";
import { withoutPassword } from "./urls.js";

describe("withoutPassword: what a log may show of a database or broker URL", () => {
  it("masks the password of the user-info and keeps the rest", () => {
    expect(withoutPassword("mqtt://linewatch:secret@broker:1883")).toBe("mqtt://linewatch:***@broker:1883");
    expect(withoutPassword("postgres://lw:s3cret@db.example.com:5432/linewatch")).toBe(
      "postgres://lw:***@db.example.com:5432/linewatch",
    );
    expect(withoutPassword("mqtt://127.0.0.1:1883")).toBe("mqtt://127.0.0.1:1883");
    expect(withoutPassword("postgres://lw@db/linewatch")).toBe("postgres://lw@db/linewatch");
  });

  it("masks the forms URL cannot read but the drivers accept", () => {
    // Unix socket host: new URL() refuses it; pg-connection-string reads the password.
    expect(withoutPassword("postgres://lw:s3cret@/linewatch?host=/var/run/postgresql")).toBe(
      "postgres://lw:***@/linewatch?host=/var/run/postgresql",
    );
    // A password holding / # @ unencoded.
    const raw = withoutPassword("postgres://lw:a/b#c@d@db:5432/linewatch");
    expect(raw).toBe("postgres://lw:***@db:5432/linewatch");
    expect(raw).not.toContain("a/b");
  });

  it("masks secrets given as query parameters", () => {
    expect(withoutPassword("postgres://lw@db/linewatch?password=s3cret&sslmode=require")).toBe(
      "postgres://lw@db/linewatch?password=***&sslmode=require",
    );
    expect(withoutPassword("postgres://db/x?sslpassword=k&sslkey=/etc/k.pem")).toBe(
      "postgres://db/x?sslpassword=***&sslkey=***",
    );
  });

  it("never returns a string it cannot read", () => {
    expect(withoutPassword("lw:s3cret@db/linewatch")).toBe("<a URL that cannot be read>");
  });
});
