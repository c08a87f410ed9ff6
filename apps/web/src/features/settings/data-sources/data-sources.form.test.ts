import { DATA_SOURCE_MESSAGES } from "@linewatch/contracts";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../shared/api/client";
import { dataSourceFormSchema, placeCreateError } from "./data-sources.form";

describe("data source form", () => {
  it("validates like the route: required, bounded, MQTT topic filter, one message per field", () => {
    const issues = (body: unknown) =>
      dataSourceFormSchema.safeParse(body).error?.issues.map((i) => [i.path.join("."), i.message]);
    expect(issues({ name: "", topic: "" })).toEqual([
      ["name", DATA_SOURCE_MESSAGES.nameRequired],
      ["topic", DATA_SOURCE_MESSAGES.topicRequired],
    ]);
    expect(issues({ name: "ok", topic: "a/#/b" })).toEqual([["topic", DATA_SOURCE_MESSAGES.topicInvalid]]);
    expect(issues({ name: "ok", topic: "a+/b" })).toEqual([["topic", DATA_SOURCE_MESSAGES.topicInvalid]]);
    expect(issues({ name: "ok", topic: "$SYS/#" })).toEqual([["topic", DATA_SOURCE_MESSAGES.topicReserved]]);
    expect(dataSourceFormSchema.parse({ name: " Press ", topic: " p/+/r " })).toEqual({
      name: "Press",
      topic: "p/+/r",
    });
  });

  it("puts a 409 under Name", () => {
    const err = new ApiError(409, "Conflict", DATA_SOURCE_MESSAGES.nameTaken);
    expect(placeCreateError(err)).toEqual({ fields: { name: DATA_SOURCE_MESSAGES.nameTaken } });
  });

  it("puts the server's per-field validation messages under their fields, the rest above the form", () => {
    const err = new ApiError(
      400,
      "Bad Request",
      `body.topic: ${DATA_SOURCE_MESSAGES.topicInvalid}; body.: Unrecognized key: "x"`,
    );
    expect(placeCreateError(err)).toEqual({
      fields: { topic: DATA_SOURCE_MESSAGES.topicInvalid },
      form: 'body.: Unrecognized key: "x"',
    });
  });

  it("shows any other failure above the form", () => {
    expect(placeCreateError(new ApiError(404, "Not Found", "Plant not found"))).toEqual({
      fields: {},
      form: "Plant not found",
    });
    expect(placeCreateError(new Error("offline"))).toEqual({ fields: {}, form: "offline" });
  });
});
