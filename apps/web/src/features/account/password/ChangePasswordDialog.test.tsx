import { AUTH_MESSAGES, PASSWORD_CHANGE_TEXTS, PASSWORD_MIN_LENGTH } from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SnackbarProvider } from "../../../shared/ui/SnackbarProvider";
import { mockApi, refusal } from "../../../test/mockApi";
import { ChangePasswordDialog } from "./ChangePasswordDialog";

const sent: unknown[] = [];
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  sent.length = 0;
});
afterAll(() => server.close());

/** A field by its label, which MUI ends with " *" for a required one. */
const labelled = (text: string) => new RegExp(`^${text}( \\*)?$`);

function renderDialog() {
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <SnackbarProvider>
        <ChangePasswordDialog onClose={onClose} />
      </SnackbarProvider>
    </QueryClientProvider>,
  );
  return { ue: userEvent.setup(), onClose };
}

async function fill(ue: ReturnType<typeof userEvent.setup>, current: string, next: string, repeat: string) {
  await ue.type(screen.getByLabelText(labelled(PASSWORD_CHANGE_TEXTS.currentPassword)), current);
  await ue.type(screen.getByLabelText(labelled(PASSWORD_CHANGE_TEXTS.newPassword)), next);
  await ue.type(screen.getByLabelText(labelled(PASSWORD_CHANGE_TEXTS.repeatPassword)), repeat);
  await ue.click(screen.getByRole("button", { name: PASSWORD_CHANGE_TEXTS.submit }));
}

describe("ChangePasswordDialog", () => {
  it("sends nothing while the new passwords differ or are too short", async () => {
    server.use(
      mockApi.post("*/api/auth/me/password", async ({ request }) => {
        sent.push(JSON.parse(await request.text()));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { ue } = renderDialog();
    await fill(ue, "old password", "short", "shorter");
    expect(await screen.findByText(PASSWORD_CHANGE_TEXTS.tooShort(PASSWORD_MIN_LENGTH))).toBeInTheDocument();
    expect(screen.getByText(PASSWORD_CHANGE_TEXTS.passwordsDiffer)).toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it("shows a wrong current password under its field, then sends and closes", async () => {
    let isWrong = true;
    server.use(
      mockApi.post("*/api/auth/me/password", async ({ request }) => {
        sent.push(JSON.parse(await request.text()));
        if (isWrong)
          return refusal(400, {
            message: AUTH_MESSAGES.wrongCurrentPassword,
            fields: [{ in: "body", field: "currentPassword", message: AUTH_MESSAGES.wrongCurrentPassword }],
          });
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { ue, onClose } = renderDialog();
    await fill(ue, "wrong password", "a long new password", "a long new password");
    const current = screen.getByLabelText(labelled(PASSWORD_CHANGE_TEXTS.currentPassword));
    expect(await screen.findByText(AUTH_MESSAGES.wrongCurrentPassword)).toBeInTheDocument();
    expect(current).toHaveAttribute("aria-invalid", "true");
    expect(onClose).not.toHaveBeenCalled();

    isWrong = false;
    await ue.clear(current);
    await ue.type(current, "right password");
    await ue.click(screen.getByRole("button", { name: PASSWORD_CHANGE_TEXTS.submit }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent.at(-1)).toEqual({ currentPassword: "right password", newPassword: "a long new password" });
  });

  it("says the sign-in limit above the form", async () => {
    server.use(
      mockApi.post("*/api/auth/me/password", () => refusal(429, { message: AUTH_MESSAGES.tooManyAttempts })),
    );
    const { ue } = renderDialog();
    await fill(ue, "wrong password", "a long new password", "a long new password");
    expect(await screen.findByRole("alert")).toHaveTextContent(AUTH_MESSAGES.tooManyAttempts);
  });
});
