import { ETQ_MESSAGES } from "@linewatch/contracts";
import { describe, expect, it } from "vitest";
import { etqFormBody, etqFormErrors } from "./notifications.form";

const filled = {
  apiHost: " https://etq.example/api ",
  clientId: "linewatch",
  clientSecret: "s3cret",
  tokenEndpoint: "https://etq.example/token",
};

describe("ETQ form rules", () => {
  it("says 'required' for every empty field of a new configuration", () => {
    expect(etqFormErrors({ apiHost: "", clientId: " ", clientSecret: "", tokenEndpoint: "" }, false)).toEqual(
      {
        apiHost: ETQ_MESSAGES.required,
        clientId: ETQ_MESSAGES.required,
        clientSecret: ETQ_MESSAGES.required,
        tokenEndpoint: ETQ_MESSAGES.required,
      },
    );
    expect(etqFormErrors(filled, false)).toEqual({});
  });

  it("lets the secret stay empty over a stored one, and leaves it out of the body", () => {
    const keep = { ...filled, clientSecret: "" };
    expect(etqFormErrors(keep, true)).toEqual({});
    expect(etqFormBody(keep)).toEqual({
      apiHost: "https://etq.example/api",
      clientId: "linewatch",
      tokenEndpoint: "https://etq.example/token",
    });
    expect(etqFormBody(filled).clientSecret).toBe("s3cret");
  });
});
