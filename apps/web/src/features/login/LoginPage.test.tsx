import { AUTH_MESSAGES, PASSWORD_MIN_LENGTH } from "@linewatch/contracts";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { describedBy } from "../../test/describedBy";
import { testMe } from "../../test/fixtures";
import { mockApi, refusal } from "../../test/mockApi";
import { LoginPage } from "./LoginPage";
import { SetPasswordPage } from "./SetPasswordPage";

// The sign-in and set-password pages are plain HTML (no MUI): what a person sees and can do on
// them must be what the MUI versions offered.

let signedIn = false;
let setPasswordBodies: unknown[] = [];
const server = setupServer(
  mockApi.get("*/api/auth/me", () =>
    signedIn ? HttpResponse.json(testMe()) : refusal(401, { message: "Unauthorized" }),
  ),
  mockApi.post("*/api/auth/login", async ({ request }) => {
    const body = JSON.parse(await request.text()) as { email: string; password: string };
    if (body.password !== "right password")
      return refusal(401, { message: AUTH_MESSAGES.invalidCredentials });
    signedIn = true;
    return HttpResponse.json(testMe());
  }),
  mockApi.post("*/api/auth/set-password", async ({ request }) => {
    const body = JSON.parse(await request.text()) as { token: string };
    setPasswordBodies.push(body);
    if (body.token === "expired") return refusal(400, { message: AUTH_MESSAGES.invalidPasswordLink });
    return new HttpResponse(null, { status: 204 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  signedIn = false;
  setPasswordBodies = [];
});
afterAll(() => server.close());

function renderAt(entry: string | { pathname: string; state: unknown }) {
  const router = createMemoryRouter(
    [
      { path: "/login", element: <LoginPage /> },
      { path: "/set-password", element: <SetPasswordPage /> },
      { path: "/", element: <p>Home page</p> },
      { path: "/lines/:lineId", element: <p>Line page</p> },
    ],
    { initialEntries: [entry] },
  );
  // No query cache and no MUI theme around them: the pages need neither.
  render(<RouterProvider router={router} />);
  return router;
}

describe("sign-in page", () => {
  it("signs in only with both fields filled, and opens the page the user came from", async () => {
    renderAt({ pathname: "/login", state: { from: "/lines/abc" } });
    const user = userEvent.setup();
    const button = screen.getByRole("button", { name: "Sign in" });
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText("Email"), "user@acme.test");
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText("Password"), "right password");
    expect(button).not.toBeDisabled();
    await user.keyboard("{Enter}");
    expect(await screen.findByText("Line page")).toBeInTheDocument();
  });

  it("shows the server's refusal and keeps what was typed", async () => {
    renderAt("/login");
    const user = userEvent.setup();
    expect(document.activeElement).toBe(screen.getByLabelText("Email"));
    await user.type(screen.getByLabelText("Email"), "user@acme.test");
    await user.type(screen.getByLabelText("Password"), "wrong");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(AUTH_MESSAGES.invalidCredentials);
    expect(screen.getByLabelText("Email")).toHaveValue("user@acme.test");
    expect(screen.getByLabelText("Password")).toHaveValue("wrong");
  });

  it("sends a signed-in user straight on", async () => {
    signedIn = true;
    renderAt("/login");
    expect(await screen.findByText("Home page")).toBeInTheDocument();
  });
});

describe("set-password page", () => {
  it("asks for a long enough password typed twice alike, then offers the sign-in", async () => {
    renderAt("/set-password?token=abc");
    const user = userEvent.setup();
    const button = screen.getByRole("button", { name: "Set password" });
    const password = screen.getByLabelText("New password");
    expect(describedBy(password)).toBe(`At least ${PASSWORD_MIN_LENGTH} characters`);
    await user.type(password, "short");
    expect(password).toHaveAttribute("aria-invalid", "true");
    await user.type(password, " but now long enough");
    expect(password).toHaveAttribute("aria-invalid", "false");
    const repeat = screen.getByLabelText("Repeat password");
    await user.type(repeat, "short but now");
    expect(describedBy(repeat)).toBe("Passwords do not match");
    expect(button).toBeDisabled();
    await user.type(repeat, " long enough");
    expect(button).not.toBeDisabled();
    await user.click(button);
    expect(await screen.findByText(AUTH_MESSAGES.passwordSet)).toBeInTheDocument();
    expect(setPasswordBodies).toEqual([{ token: "abc", password: "short but now long enough" }]);
    await user.click(screen.getByRole("link", { name: "Go to sign in" }));
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInTheDocument();
  });

  it("says so when the link has no token, and cannot be sent", () => {
    renderAt("/set-password");
    expect(screen.getByRole("alert")).toHaveTextContent(AUTH_MESSAGES.invalidPasswordLink);
    expect(screen.getByRole("button", { name: "Set password" })).toBeDisabled();
  });

  it("shows the server's refusal of an expired link", async () => {
    renderAt("/set-password?token=expired");
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("New password"), "a long new password");
    await user.type(screen.getByLabelText("Repeat password"), "a long new password");
    await user.click(screen.getByRole("button", { name: "Set password" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(AUTH_MESSAGES.invalidPasswordLink);
  });
});
