import { API_TOKEN_TEXTS, type TApiToken, type TCreateApiTokenResponse } from "@linewatch/contracts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SnackbarProvider } from "../../../shared/ui/SnackbarProvider";
import { testMe } from "../../../test/fixtures";
import { mockApi } from "../../../test/mockApi";
import { ApiTokensDialog } from "./ApiTokensDialog";

const SECRET = `lwt_${"a".repeat(43)}`;
let tokens: TApiToken[] = [];
const created: unknown[] = [];
const revoked: string[] = [];
const server = setupServer(
  mockApi.get("*/api/auth/me", () => HttpResponse.json(testMe())),
  mockApi.get("*/api/auth/tokens", () => HttpResponse.json(tokens)),
  mockApi.post("*/api/auth/tokens", async ({ request }) => {
    const body = JSON.parse(await request.text());
    created.push(body);
    const token: TApiToken = {
      id: "00000000-0000-4000-8000-0000000000a1",
      name: body.name,
      prefix: SECRET.slice(0, 10),
      scope: body.scope,
      createdAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + body.expiresInDays * 86_400_000).toISOString(),
      lastUsedAt: null,
    };
    tokens = [token, ...tokens];
    return HttpResponse.json({ token, secret: SECRET } satisfies TCreateApiTokenResponse, { status: 201 });
  }),
  mockApi.delete("*/api/auth/tokens/:tokenId", ({ params }) => {
    revoked.push(String(params.tokenId));
    tokens = tokens.filter((t) => t.id !== params.tokenId);
    return new HttpResponse(null, { status: 204 });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  tokens = [];
  created.length = 0;
  revoked.length = 0;
});
afterAll(() => server.close());

function renderDialog() {
  const onClose = vi.fn();
  const view = render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <SnackbarProvider>
        <ApiTokensDialog onClose={onClose} />
      </SnackbarProvider>
    </QueryClientProvider>,
  );
  return { ue: userEvent.setup(), onClose, view };
}

describe("ApiTokensDialog", () => {
  it("creates a token, shows its secret once with the warning, and lists it", async () => {
    const { ue } = renderDialog();
    expect(await screen.findByText(API_TOKEN_TEXTS.noTokens)).toBeInTheDocument();
    await ue.type(screen.getByLabelText(API_TOKEN_TEXTS.name, { exact: false }), "Grafana");
    const days = screen.getByLabelText(API_TOKEN_TEXTS.expiresInDays, { exact: false });
    await ue.clear(days);
    await ue.type(days, "30");
    await ue.click(screen.getByRole("button", { name: API_TOKEN_TEXTS.create }));
    expect(await screen.findByTestId("api-token-secret")).toHaveTextContent(SECRET);
    expect(screen.getByText(API_TOKEN_TEXTS.shownOnce)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: API_TOKEN_TEXTS.copy })).toBeInTheDocument();
    expect(created).toEqual([{ name: "Grafana", expiresInDays: 30, scope: "read" }]);
    const row = await screen.findByTestId("api-token-row");
    expect(within(row).getByText("Grafana")).toBeInTheDocument();
    expect(within(row).getByText(API_TOKEN_TEXTS.scopes.read)).toBeInTheDocument();
    expect(within(row).getByText(API_TOKEN_TEXTS.never)).toBeInTheDocument();
  });

  it("refuses a lifetime beyond a year without asking the server", async () => {
    const { ue } = renderDialog();
    await ue.type(await screen.findByLabelText(API_TOKEN_TEXTS.name, { exact: false }), "Too long");
    const days = screen.getByLabelText(API_TOKEN_TEXTS.expiresInDays, { exact: false });
    await ue.clear(days);
    await ue.type(days, "366");
    await ue.click(screen.getByRole("button", { name: API_TOKEN_TEXTS.create }));
    await vi.waitFor(() => expect(days).toHaveAttribute("aria-invalid", "true"));
    expect(created).toEqual([]);
  });

  it("revokes after a confirmation, and the secret on show goes with it", async () => {
    const { ue } = renderDialog();
    await ue.type(await screen.findByLabelText(API_TOKEN_TEXTS.name, { exact: false }), "CI");
    await ue.click(screen.getByRole("button", { name: API_TOKEN_TEXTS.create }));
    await screen.findByTestId("api-token-secret");
    await ue.click(await screen.findByRole("button", { name: API_TOKEN_TEXTS.revokeLabel("CI") }));
    const confirm = await screen.findByRole("dialog", { name: API_TOKEN_TEXTS.revokeConfirm("CI") });
    expect(revoked).toEqual([]);
    await ue.click(within(confirm).getByRole("button", { name: API_TOKEN_TEXTS.revoke }));
    await vi.waitFor(() => expect(revoked).toEqual(["00000000-0000-4000-8000-0000000000a1"]));
    expect(await screen.findByText(API_TOKEN_TEXTS.noTokens)).toBeInTheDocument();
    expect(screen.queryByTestId("api-token-secret")).not.toBeInTheDocument();
  });
});
